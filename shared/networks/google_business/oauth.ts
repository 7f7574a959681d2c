import type { OAuthAccount, OAuthProvider, TokenSet } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { classifyStatus, request, retryAfterSeconds, type HttpResult } from '../http';
import { field, str, urlWithQuery } from '../oauth-tokens';
import { bearer } from '../youtube/oauth';
import { googleSignIn } from '../google-sign-in';
import { trimBase } from '../../domain/values';

/** The three hosts of the Business Profile APIs (one GOOGLE_BUSINESS_API_BASE serves all three paths in tests). */
export const GBP_ACCOUNTS_BASE = 'https://mybusinessaccountmanagement.googleapis.com';
export const GBP_LOCATIONS_BASE = 'https://mybusinessbusinessinformation.googleapis.com';
export const GBP_POSTS_BASE = 'https://mybusiness.googleapis.com';
export const GOOGLE_BUSINESS_SCOPES = ['https://www.googleapis.com/auth/business.manage'] as const;
const MAX_PAGES = 5;

export interface GoogleBusinessOptions {
  /** One origin for the account, location and post APIs (tests, the sandbox); unset: Google's three hosts. */
  apiBase?: string;
  /** Origin of Google's authorize page (/o/oauth2/v2/auth); also its token endpoint when set. */
  authBase?: string;
}

export interface GbpHosts { accounts: string; locations: string; posts: string }

export const gbpHosts = (opts: GoogleBusinessOptions): GbpHosts => {
  const one = opts.apiBase ? trimBase(opts.apiBase) : undefined;
  return { accounts: one ?? GBP_ACCOUNTS_BASE, locations: one ?? GBP_LOCATIONS_BASE, posts: one ?? GBP_POSTS_BASE };
};

/**
 * Sorts a failed Google API answer (`{error: {code, message, status}}`): 401 / UNAUTHENTICATED → reauth; 403
 * PERMISSION_DENIED → reauth (the sign-in lacks business.manage or lost access to the location), unless the API is
 * not enabled for the project (rejected, for the operator); 429 / RESOURCE_EXHAUSTED → rate_limited (Retry-After,
 * else 60 s); 404 → rejected naming the location; other 4xx → rejected; 5xx → transient.
 */
export function googleBusinessFailure(res: HttpResult, what: string): Failure {
  const e = field(res.json, 'error');
  const status = str(field(e, 'status'));
  const text = str(field(e, 'message')) ?? (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
  const message = `google_business ${what} failed (HTTP ${res.status}${status ? `, ${status}` : ''})${text ? `: ${text.slice(0, 300)}` : ''}`;
  if (res.status === 401 || status === 'UNAUTHENTICATED') return { ok: false, kind: 'reauth', error: `${message}; sign in to Google again` };
  if (res.status === 403 && /has not been used|is disabled|not enabled/i.test(text)) {
    return { ok: false, kind: 'rejected', code: 'rejected', error: `${message}; the operator must enable the Business Profile APIs for the Google Cloud project of GOOGLE_BUSINESS_CLIENT_ID` };
  }
  if (res.status === 403 || status === 'PERMISSION_DENIED') return { ok: false, kind: 'reauth', error: `${message}; connect again with a Google account that manages this location` };
  if (res.status === 429 || status === 'RESOURCE_EXHAUSTED') return { ok: false, kind: 'rate_limited', retry_after: retryAfterSeconds(res.headers, res.at) ?? 60, error: message };
  if (res.status === 404) return { ok: false, kind: 'rejected', code: 'rejected', error: `${message}; the location is gone or no longer managed by this account: reconnect to choose another` };
  return classifyStatus(res, message);
}

/** Pages of a Google list answer (`<key>[]`, `nextPageToken`). */
async function listAll(ctx: NetworkContext, url: (pageToken?: string) => string, token: string, key: string, what: string): Promise<unknown[] | Failure> {
  const out: unknown[] = [];
  let pageToken: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const res = await request(ctx, url(pageToken), { headers: bearer(token) });
    if (res.status !== 200) return googleBusinessFailure(res, what);
    const items = field(res.json, key);
    if (Array.isArray(items)) out.push(...items);
    pageToken = str(field(res.json, 'nextPageToken'));
    if (!pageToken) break;
  }
  return out;
}

/**
 * Google OAuth for Business Profile (googleSignIn, as for YouTube: access_type=offline and prompt=consent so each sign-in returns
 * a refresh token; scope business.manage; PKCE S256). accounts(): one per location the user manages —
 * `GET /v1/accounts` (Account Management API), then `GET /v1/{account}/locations?readMask=name,title` (Business
 * Information API) — credentials {account_id, location_id, location_title}: the picker at connect chooses the location.
 */
export function createGoogleBusinessProvider(opts: GoogleBusinessOptions = {}): OAuthProvider {
  const hosts = gbpHosts(opts);

  async function accounts(tokens: TokenSet, ctx: NetworkContext): Promise<OAuthAccount[] | Failure> {
    const accountList = await listAll(ctx, (p) => urlWithQuery(hosts.accounts, '/v1/accounts', { pageSize: '20', pageToken: p }), tokens.access_token, 'accounts', 'account list');
    if (!Array.isArray(accountList)) return accountList;
    const out: OAuthAccount[] = [];
    for (const acc of accountList) {
      const accountName = str(field(acc, 'name'));
      if (!accountName?.startsWith('accounts/')) continue;
      const locations = await listAll(ctx, (p) => urlWithQuery(hosts.locations, `/v1/${accountName}/locations`, { readMask: 'name,title', pageSize: '100', pageToken: p }), tokens.access_token, 'locations', 'location list');
      if (!Array.isArray(locations)) return locations;
      for (const loc of locations) {
        const locationName = str(field(loc, 'name'));
        if (!locationName?.startsWith('locations/')) continue;
        const title = str(field(loc, 'title')) ?? locationName;
        const accountId = accountName.slice('accounts/'.length);
        const locationId = locationName.slice('locations/'.length);
        out.push({ id: `${accountName}/${locationName}`, handle: title, credentials: { account_id: accountId, location_id: locationId, location_title: title } });
      }
    }
    if (out.length === 0) return { ok: false, kind: 'rejected', code: 'rejected', error: 'google_business: this Google account manages no business location; add or claim one at business.google.com, then connect again' };
    return out;
  }
  return googleSignIn({
    network: 'google_business', envPrefix: 'GOOGLE_BUSINESS', scopes: GOOGLE_BUSINESS_SCOPES, authBase: opts.authBase,
    noRefreshToken: 'google_business tokens have no refresh token; sign in to Google again',
    accounts,
  });
}

import type { OAuthAccount, OAuthApp, OAuthProvider, TokenSet } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { guarded, request } from '../http';
import { field, formInit, str, tokenFailure, tokenSetFrom, urlWithQuery } from '../oauth-tokens';
import { linkedinFailure } from './rules';
import { trimBase } from '../../domain/values';

export const LINKEDIN_API_BASE = 'https://api.linkedin.com';
export const LINKEDIN_AUTH_BASE = 'https://www.linkedin.com';
/** The Posts/Images/Videos API version sent as LinkedIn-Version (monthly versions, each supported about a year). */
export const LINKEDIN_VERSION = '202607';
export const LINKEDIN_SCOPES = ['openid', 'profile', 'w_member_social'] as const;
/** Added when organisation pages are on (Community Management API): post as a page, list the pages one administers. */
export const LINKEDIN_ORGANIZATION_SCOPES = ['w_organization_social', 'rw_organization_admin', 'r_organization_social'] as const;
/** Added when member post analytics are on (memberCreatorPostAnalytics; LinkedIn approves the scope per app). */
export const LINKEDIN_POST_ANALYTICS_SCOPE = 'r_member_postAnalytics';

export interface LinkedinOptions {
  /** REST API origin (userinfo, /rest/*). Default https://api.linkedin.com. */
  apiBase?: string;
  /** Origin of /oauth/v2/authorization and /oauth/v2/accessToken. Default https://www.linkedin.com. */
  authBase?: string;
  /** LinkedIn-Version header (YYYYMM). */
  version?: string;
  /** Wait between video status polls inside one call. Default 3000 ms. */
  pollIntervalMs?: number;
  /** Time kept before the deadline for creating the post once the video is ready. Default 5000 ms. */
  reserveMs?: number;
  /** When a video is still processing at the deadline: ask to be resumed after this many seconds. Default 30. */
  resumeAfterSeconds?: number;
  /** Give up (bad_media) when a video is still processing this long after the upload. Default 6 h. */
  maxProcessingSeconds?: number;
  /**
   * Organisation pages (LINKEDIN_ORGANIZATIONS): ask for the Community Management scopes too and offer, besides the
   * member, every page the member administers as a target. Off by default: LinkedIn refuses those scopes to apps
   * without the Community Management API product.
   */
  organizations?: boolean;
  /** Member post analytics (LINKEDIN_POST_ANALYTICS): ask for r_member_postAnalytics too. Off by default, as above. */
  postAnalytics?: boolean;
}

const personUrn = (sub: string) => `urn:li:person:${sub}`;

/**
 * LinkedIn sign-in (OAuth 2.0 authorization code, no PKCE): authorize `/oauth/v2/authorization` with the scopes
 * `openid profile w_member_social`; token `POST /oauth/v2/accessToken` (form, client_id + client_secret in the body).
 * Access tokens live ~60 days. Refresh tokens (~365 days from the first grant) are only issued to apps approved for
 * programmatic refresh: without one, `refresh` answers reauth, i.e. the member signs in again about every 60 days.
 * accounts(): `GET /v2/userinfo` → `sub` → one account, author `urn:li:person:<sub>`. With `organizations`, the scopes
 * add `w_organization_social rw_organization_admin r_organization_social` (the last to read a page's posts back) and accounts() also lists each page the member administers:
 * `GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED` → organization URNs, names from
 * `GET /rest/organizations/<id>` (localizedName), author `urn:li:organization:<id>`.
 */
export function createLinkedinProvider(opts: LinkedinOptions = {}): OAuthProvider {
  const authBase = trimBase(opts.authBase ?? LINKEDIN_AUTH_BASE);
  const apiBase = trimBase(opts.apiBase ?? LINKEDIN_API_BASE);
  const tokenUrl = `${authBase}/oauth/v2/accessToken`;
  const scopes: readonly string[] = [
    ...LINKEDIN_SCOPES, ...(opts.organizations ? LINKEDIN_ORGANIZATION_SCOPES : []), ...(opts.postAnalytics ? [LINKEDIN_POST_ANALYTICS_SCOPE] : []),
  ];
  const version = opts.version ?? LINKEDIN_VERSION;

  async function tokenCall(ctx: NetworkContext, params: Record<string, string>, what: string, previous?: TokenSet): Promise<TokenSet | Failure> {
    const res = await request(ctx, tokenUrl, formInit('POST', params));
    if (res.status !== 200) return tokenFailure(res, 'linkedin', what, 'LINKEDIN');
    return tokenSetFrom(res.json, ctx.now(), previous) ?? { ok: false, kind: 'transient', error: `linkedin ${what} answered without an access_token` };
  }

  return {
    name: 'linkedin',
    pkce: false,
    authorizeUrl: async ({ app, state }) => urlWithQuery(authBase, '/oauth/v2/authorization', {
      response_type: 'code', client_id: app.clientId, redirect_uri: app.redirectUri, state, scope: scopes.join(' '),
    }),
    exchangeCode: ({ app, code }, ctx) => guarded(() => tokenCall(ctx, {
      grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.clientSecret,
    }, 'code exchange')),
    refresh: (tokens: TokenSet, app: OAuthApp, ctx: NetworkContext) => guarded(async () => {
      if (!tokens.refresh_token) {
        return { ok: false, kind: 'reauth', error: 'linkedin gave no refresh token (the app is not approved for programmatic refresh): sign in to LinkedIn again' };
      }
      if (tokens.refresh_expires_at !== undefined && tokens.refresh_expires_at <= ctx.now()) {
        return { ok: false, kind: 'reauth', error: 'the linkedin refresh token has expired (a year after the first sign-in): sign in to LinkedIn again' };
      }
      return tokenCall(ctx, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.clientId, client_secret: app.clientSecret }, 'token refresh', tokens);
    }),
    accounts: (tokens, ctx) => guarded(async (): Promise<OAuthAccount[] | Failure> => {
      const me = await userinfo(ctx, apiBase, tokens.access_token);
      if ('ok' in me) return me;
      const member: OAuthAccount = { id: me.urn, handle: me.name, credentials: { author_urn: me.urn } };
      if (!opts.organizations) return [member];
      const pages = await organizations(ctx, apiBase, version, tokens.access_token);
      if (!Array.isArray(pages)) return pages;
      return [member, ...pages.map((p) => ({ id: p.urn, handle: p.name, credentials: { author_urn: p.urn } }))];
    }),
  };
}

/** The pages the member administers (approved ADMINISTRATOR role), with their names. */
async function organizations(ctx: NetworkContext, apiBase: string, version: string, token: string): Promise<Array<{ urn: string; name: string }> | Failure> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0' };
  const res = await request(ctx, `${apiBase}/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED`, { headers });
  if (res.status !== 200) return linkedinFailure(res, 'organisation list', ctx.now());
  const elements = field(res.json, 'elements');
  const urns = [...new Set((Array.isArray(elements) ? elements : []).map((e) => str(field(e, 'organization'))).filter((u): u is string => !!u && /^urn:li:organization:\d+$/.test(u)))];
  const pages: Array<{ urn: string; name: string }> = [];
  for (const urn of urns) {
    const id = urn.split(':').pop()!;
    const org = await request(ctx, `${apiBase}/rest/organizations/${id}`, { headers });
    pages.push({ urn, name: (org.status === 200 ? str(field(org.json, 'localizedName')) : undefined) ?? `LinkedIn page ${id}` });
  }
  return pages;
}

/** `GET /v2/userinfo` (OpenID Connect) → the member's URN and display name. */
export async function userinfo(ctx: NetworkContext, apiBase: string, token: string): Promise<{ urn: string; name: string } | Failure> {
  const res = await request(ctx, `${apiBase}/v2/userinfo`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  if (res.status !== 200) return linkedinFailure(res, 'profile check', ctx.now());
  const sub = str(field(res.json, 'sub'));
  if (!sub) return { ok: false, kind: 'transient', error: 'linkedin userinfo answered without a sub' };
  const name = str(field(res.json, 'name')) ?? ([str(field(res.json, 'given_name')), str(field(res.json, 'family_name'))].filter(Boolean).join(' ') || sub);
  return { urn: personUrn(sub), name };
}

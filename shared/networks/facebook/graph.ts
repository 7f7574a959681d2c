import type { OAuthApp, TokenSet } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { classifyStatus, rejected, request, type HttpResult } from '../http';
import { field, formInit, num, str, tokenSetFrom, urlWithQuery } from '../oauth-tokens';
import { trimBase } from '../../domain/values';

/**
 * Graph API plumbing shared by the Facebook Pages and Instagram (Facebook Login) adapters: the pinned version, GET and
 * form-POST helpers (the token travels as the `access_token` parameter, never in error texts), Facebook Login's code
 * exchange (short-lived → long-lived user token) and the sorting of the Graph error envelope.
 */

/** One pinned Graph version for every call (v25.0 is available until July 2028 per Meta's version table). */
export const GRAPH_VERSION = 'v25.0';
export const FACEBOOK_API_BASE = 'https://graph.facebook.com';
export const FACEBOOK_AUTH_BASE = 'https://www.facebook.com';

export interface GraphOptions {
  /** Graph API origin (also serves /oauth/access_token). Default https://graph.facebook.com. */
  apiBase?: string;
  /** Origin of the Login dialog (/<version>/dialog/oauth). Default https://www.facebook.com. */
  authBase?: string;
}

export const graphUrl = (base: string, path: string, params: Record<string, string | undefined> = {}) =>
  urlWithQuery(base, `/${GRAPH_VERSION}${path}`, params);

export function graphGet(ctx: NetworkContext, base: string, path: string, token: string, params: Record<string, string> = {}): Promise<HttpResult> {
  return request(ctx, graphUrl(base, path, { ...params, access_token: token }), { headers: { accept: 'application/json' } });
}

export function graphPost(ctx: NetworkContext, base: string, path: string, token: string, params: Record<string, string | undefined>): Promise<HttpResult> {
  return request(ctx, `${trimBase(base)}/${GRAPH_VERSION}${path}`, formInit('POST', { ...params, access_token: token }));
}

/** The Login dialog URL: `/<version>/dialog/oauth?client_id&redirect_uri&state&scope=<comma list>&response_type=code`. */
export function dialogUrl(authBase: string, app: OAuthApp, state: string, scopes: readonly string[]): string {
  return urlWithQuery(authBase, `/${GRAPH_VERSION}/dialog/oauth`, {
    client_id: app.clientId, redirect_uri: app.redirectUri, state, scope: scopes.join(','), response_type: 'code',
  });
}

/**
 * Facebook Login code exchange: `GET /oauth/access_token?client_id&redirect_uri&client_secret&code` → short-lived
 * user token; `GET /oauth/access_token?grant_type=fb_exchange_token&...&fb_exchange_token=<it>` → long-lived user
 * token (~60 days). The TokenSet carries no expires_at on purpose: posting uses Page tokens derived from the
 * long-lived user token, and those do not expire (they end on password change, role or app removal → reauth).
 */
export async function exchangeFacebookCode(ctx: NetworkContext, apiBase: string, app: OAuthApp, code: string, network: string): Promise<TokenSet | Failure> {
  const short = await request(ctx, graphUrl(apiBase, '/oauth/access_token', {
    client_id: app.clientId, redirect_uri: app.redirectUri, client_secret: app.clientSecret, code,
  }), { headers: { accept: 'application/json' } });
  const loginRefine = (e: GraphError, message: string): Failure | undefined => {
    if (e.code === 101 || /client secret|client_id|app(lication)? id/i.test(e.message)) {
      return rejected(`${message}; check ${network.toUpperCase()}_CLIENT_ID / ${network.toUpperCase()}_CLIENT_SECRET (the Meta app id and secret)`);
    }
    if (e.subcode === 36007 || e.subcode === 36009 || /authorization code/i.test(e.message)) return { ok: false, kind: 'reauth', error: `${message}; sign in again` };
    return undefined;
  };
  if (short.status !== 200) return graphFailure(short, `${network} code exchange`, ctx.now(), loginRefine);
  const shortToken = str(field(short.json, 'access_token'));
  if (!shortToken) return { ok: false, kind: 'transient', error: `${network} code exchange answered without an access_token` };
  const long = await request(ctx, graphUrl(apiBase, '/oauth/access_token', {
    grant_type: 'fb_exchange_token', client_id: app.clientId, client_secret: app.clientSecret, fb_exchange_token: shortToken,
  }), { headers: { accept: 'application/json' } });
  if (long.status !== 200) return graphFailure(long, `${network} long-lived token exchange`, ctx.now(), loginRefine);
  const tokens = tokenSetFrom(long.json, ctx.now());
  if (!tokens) return { ok: false, kind: 'transient', error: `${network} long-lived token exchange answered without an access_token` };
  delete tokens.expires_at;
  return tokens;
}

export interface GraphError { code?: number; subcode?: number; message: string; transient: boolean }

export function graphError(res: HttpResult): GraphError | undefined {
  const e = field(res.json, 'error');
  if (e === undefined) return undefined;
  const userMsg = str(field(e, 'error_user_msg'));
  const message = [str(field(e, 'message')), userMsg].filter(Boolean).join(' — ') || str(e) || 'unknown error';
  return { code: num(field(e, 'code')), subcode: num(field(e, 'error_subcode')), message, transient: field(e, 'is_transient') === true };
}

const RATE_CODES = new Set([4, 17, 32, 613]);
const REAUTH_CODES = new Set([190, 102, 10]);
const isBusinessRate = (code: number) => code >= 80000 && code <= 80014;

/**
 * Minutes to wait from X-Business-Use-Case-Usage (`{"<id>":[{type, call_count, ..., estimated_time_to_regain_access}]}`),
 * the largest over all entries, in seconds; undefined when the header is absent, unparseable or all zero.
 */
export function businessUseCaseWait(headers: Headers): number | undefined {
  const raw = headers.get('x-business-use-case-usage');
  if (!raw) return undefined;
  let parsed: unknown;
  try { parsed = JSON.parse(raw); } catch { return undefined; }
  let minutes = 0;
  if (typeof parsed === 'object' && parsed !== null) {
    for (const entries of Object.values(parsed)) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) minutes = Math.max(minutes, num(field(entry, 'estimated_time_to_regain_access')) ?? 0);
    }
  }
  return minutes > 0 ? Math.ceil(minutes * 60) : undefined;
}

/** Default wait for a Graph throttle without a usable estimate. */
export const GRAPH_DEFAULT_RETRY_AFTER = 3600;

/**
 * Sorts a failed Graph answer by its error envelope `{error:{message, type, code, error_subcode, is_transient}}`:
 * 190 / 102 / 10 / 200–299 → reauth (token invalid or expired, permission missing); 4 / 17 / 32 / 613 / 80001–80014 →
 * rate_limited (estimated_time_to_regain_access from X-Business-Use-Case-Usage, else an hour); 1 / 2 / is_transient
 * → transient; 368 (blocked for policy), 100 (invalid parameter), 506 (duplicate) and the rest → rejected; without an
 * envelope, by HTTP status. `refine` lets Instagram sort its own media subcodes first.
 */
export function graphFailure(res: HttpResult, what: string, _now: number, refine?: (e: GraphError, message: string) => Failure | undefined): Failure {
  const e = graphError(res);
  if (!e) {
    const text = res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '';
    return classifyStatus(res, `${what} failed (HTTP ${res.status})${text ? `: ${text}` : ''}`, GRAPH_DEFAULT_RETRY_AFTER);
  }
  const code = e.code;
  const message = `${what} failed (HTTP ${res.status}, code ${code ?? '?'}${e.subcode ? `/${e.subcode}` : ''}): ${e.message.slice(0, 400)}`;
  const refined = refine?.(e, message);
  if (refined) return refined;
  if (code !== undefined && (RATE_CODES.has(code) || isBusinessRate(code))) {
    return { ok: false, kind: 'rate_limited', retry_after: businessUseCaseWait(res.headers) ?? GRAPH_DEFAULT_RETRY_AFTER, error: message };
  }
  if (code !== undefined && (REAUTH_CODES.has(code) || (code >= 200 && code <= 299))) {
    return { ok: false, kind: 'reauth', error: `${message}; connect again to renew the sign-in and its permissions` };
  }
  if (code === 1 || code === 2 || e.transient) return { ok: false, kind: 'transient', error: message };
  if (code === 368) return rejected(`${message}; Facebook blocked this action for policy reasons`);
  if (code === 506) return rejected(`${message}; Facebook refused a duplicate post`);
  if (res.status >= 500) return { ok: false, kind: 'transient', error: message };
  return rejected(message);
}

/**
 * `GET /me/accounts?fields=<fields>&limit=100` with the user token, following `paging.cursors.after` (at most
 * `maxPages` pages) → the raw page objects.
 */
export async function listPages(ctx: NetworkContext, apiBase: string, userToken: string, fields: string, what: string, maxPages = 10): Promise<unknown[] | Failure> {
  const pages: unknown[] = [];
  let after: string | undefined;
  for (let n = 0; n < maxPages; n++) {
    const res = await graphGet(ctx, apiBase, '/me/accounts', userToken, { fields, limit: '100', ...(after ? { after } : {}) });
    if (res.status !== 200) return graphFailure(res, what, ctx.now());
    const data = field(res.json, 'data');
    if (Array.isArray(data)) pages.push(...data);
    after = str(field(field(field(res.json, 'paging'), 'cursors'), 'after'));
    if (!after || !str(field(field(res.json, 'paging'), 'next'))) break;
  }
  return pages;
}

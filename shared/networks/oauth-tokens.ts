import type { TokenSet } from '../ports/oauth';
import type { Failure } from '../ports/networks';
import { classifyStatus, rejected, type HttpResult } from './http';
import { isRecord, trimBase } from '../domain/values';

/**
 * Small helpers shared by the OAuth providers (LinkedIn, Facebook, Instagram, Reddit): building authorize URLs,
 * form bodies, turning a token answer into a TokenSet and sorting token-endpoint errors. No network calls here.
 */

export const field = (body: unknown, key: string): unknown => (isRecord(body) ? body[key] : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
/** A string, or a number written as a string (ids that some APIs send as numbers). */
export const idString = (v: unknown): string | undefined => str(v) ?? (typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
export const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** `base + path` with the parameters as a query, spaces as %20 (not '+', which a few OAuth servers mis-read). */
export function urlWithQuery(base: string, path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v);
  return `${trimBase(base)}${path}?${query.toString().replace(/\+/g, '%20')}`;
}

/** An `application/x-www-form-urlencoded` request init. */
export function formInit(method: string, params: Record<string, string | undefined>, headers: Record<string, string> = {}): RequestInit {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  return { method, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers }, body: body.toString() };
}

/** `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 §2.3.1 form-encodes both parts first). */
export function basicAuth(clientId: string, clientSecret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(clientId)}:${enc(clientSecret)}`).toString('base64')}`;
}

/**
 * Reads a token answer `{access_token, expires_in?, refresh_token?, refresh_token_expires_in?, scope?}` into a
 * TokenSet with absolute times. `previous` fills in what a refresh answer leaves out (networks that keep the same
 * refresh token answer without one). Undefined when there is no access token.
 */
export function tokenSetFrom(json: unknown, now: number, previous?: TokenSet): TokenSet | undefined {
  const access = str(field(json, 'access_token'));
  if (!access) return undefined;
  const tokens: TokenSet = { access_token: access };
  const expiresIn = num(field(json, 'expires_in'));
  if (expiresIn !== undefined && expiresIn > 0) tokens.expires_at = now + expiresIn * 1000;
  const refresh = str(field(json, 'refresh_token')) ?? previous?.refresh_token;
  if (refresh) tokens.refresh_token = refresh;
  const refreshIn = num(field(json, 'refresh_token_expires_in'));
  if (refreshIn !== undefined && refreshIn > 0) tokens.refresh_expires_at = now + refreshIn * 1000;
  else if (previous?.refresh_expires_at !== undefined && refresh === previous.refresh_token) tokens.refresh_expires_at = previous.refresh_expires_at;
  const scope = str(field(json, 'scope'));
  if (scope) tokens.scope = scope;
  else if (previous?.scope) tokens.scope = previous.scope;
  return tokens;
}

/** The OAuth error code of a token answer (`error`), when it has one. */
export const oauthError = (res: HttpResult): string | undefined => str(field(res.json, 'error'));

/**
 * Sorts a failed token-endpoint answer (RFC 6749 §5.2). `invalid_grant` (code used or expired, refresh token revoked
 * or expired) → reauth: only a new sign-in helps. `invalid_client` / `unauthorized_client` / a bare 401 → rejected
 * naming the app configuration (a new sign-in would not help). 429 / 5xx as usual; other answers → rejected.
 */
export function tokenFailure(res: HttpResult, network: string, what: string, envPrefix: string): Failure {
  const code = oauthError(res);
  const description = str(field(res.json, 'error_description')) ?? str(field(res.json, 'message'));
  const detail = [code, description].filter(Boolean).join(': ');
  const message = `${network} ${what} failed (HTTP ${res.status})${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  if (code === 'invalid_grant') return { ok: false, kind: 'reauth', error: `${message}; sign in to ${network} again` };
  // The token endpoint authenticates the client, not a user: a 401 there means the app's own credentials.
  if (code === 'invalid_client' || code === 'unauthorized_client' || (res.status === 401 && !code)) {
    return rejected(`${message}; check ${envPrefix}_CLIENT_ID / ${envPrefix}_CLIENT_SECRET and the app's registered redirect URL`);
  }
  if (res.status === 429 || res.status >= 500) return classifyStatus(res, message);
  return rejected(message);
}

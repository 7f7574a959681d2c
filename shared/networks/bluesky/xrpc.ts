import type { Failure, NetworkContext } from '../types';
import { classifyStatus, jsonInit, rejected, request, retryAfterSeconds, type HttpResult } from '../http';

/** XRPC plumbing of the Bluesky adapter: the session call and the sorting of `{error, message}` answers. */

export interface Session {
  ok: true;
  did: string;
  handle: string;
  accessJwt: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
export const field = (body: unknown, key: string): unknown => (isRecord(body) ? body[key] : undefined);

/** Handle as typed by a user: trimmed, without a leading @, lower-case (handles are case-insensitive). */
export const normaliseHandle = (raw: string | undefined): string => (raw ?? '').trim().replace(/^@/, '').toLowerCase();

const REAUTH_ERRORS = new Set(['ExpiredToken', 'InvalidToken', 'AuthenticationRequired', 'AccountTakedown', 'AccountDeactivated']);
const APP_PASSWORD_HINT =
  'this Bluesky account signs in with a code sent by email; connect it with an App Password ' +
  '(Bluesky Settings → Privacy and security → App passwords) instead of the account password';

/** Seconds until the `ratelimit-reset` header (unix seconds), at least 1; undefined when absent. */
function resetSeconds(headers: Headers, now: number): number | undefined {
  const reset = Number(headers.get('ratelimit-reset'));
  if (!headers.get('ratelimit-reset') || !Number.isFinite(reset)) return undefined;
  return Math.max(1, Math.ceil(reset - now / 1000));
}

/**
 * Sorts a non-2xx XRPC answer: 429/RateLimitExceeded → rate_limited (ratelimit-reset); ExpiredToken, InvalidToken,
 * AuthenticationRequired, taken-down/deactivated account, 401 → reauth; AuthFactorTokenRequired → rejected (needs an
 * App Password); 400 InvalidRequest and other 4xx → rejected; 5xx → transient.
 */
export function xrpcFailure(res: HttpResult, what: string, now: number): Failure {
  const name = str(field(res.json, 'error'));
  const detail = str(field(res.json, 'message'));
  const message = `bluesky ${what} failed (HTTP ${res.status}${name ? ` ${name}` : ''})${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  if (res.status === 429 || name === 'RateLimitExceeded') {
    return { ok: false, kind: 'rate_limited', retry_after: resetSeconds(res.headers, now) ?? retryAfterSeconds(res.headers, now) ?? 60, error: message };
  }
  if (name === 'AuthFactorTokenRequired') return rejected(`${message}; ${APP_PASSWORD_HINT}`);
  if (name && REAUTH_ERRORS.has(name)) return { ok: false, kind: 'reauth', error: message };
  return classifyStatus(res, message);
}

/**
 * Signs in with handle + app password: `POST /xrpc/com.atproto.server.createSession`.
 * Kept in one place so a cached/refreshed session can replace it later (createSession is limited to 30 / 5 min and
 * 300 / day per account). A refused handle or password → reauth, naming the handle, never the password.
 */
export async function openSession(ctx: NetworkContext, base: string): Promise<Session | Failure> {
  const identifier = normaliseHandle(ctx.credentials.handle);
  const password = (ctx.credentials.app_password ?? '').trim();
  if (!identifier || !password) return rejected('bluesky needs a handle and an app_password');
  const res = await request(ctx, `${base}/xrpc/com.atproto.server.createSession`, jsonInit('POST', { identifier, password }));
  if (res.status !== 200) {
    const failure = xrpcFailure(res, 'sign-in', ctx.now());
    if (failure.kind === 'reauth' && str(field(res.json, 'error')) === 'AuthenticationRequired') {
      return { ok: false, kind: 'reauth', error: `bluesky refused the handle "${identifier}" or its app password (${failure.error})` };
    }
    return failure;
  }
  const did = str(field(res.json, 'did'));
  const accessJwt = str(field(res.json, 'accessJwt'));
  if (!did || !accessJwt) return { ok: false, kind: 'transient', error: 'bluesky sign-in answered without a session' };
  return { ok: true, did, handle: str(field(res.json, 'handle')) ?? identifier, accessJwt };
}

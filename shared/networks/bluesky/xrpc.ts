import { createHash } from 'node:crypto';
import type { Failure, NetworkContext } from '../../ports/networks';
import { classifyStatus, jsonInit, rejected, request, retryAfterSeconds, type HttpResult } from '../http';
import { isRecord } from '../../domain/values';

/** XRPC plumbing of the Bluesky adapter: the session call and the sorting of `{error, message}` answers. */

export interface Session {
  ok: true;
  did: string;
  handle: string;
  accessJwt: string;
  /** The account's own PDS (its DID document's #atproto_pds endpoint), when the sign-in answered it. */
  pds?: string;
}

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
/**
 * Sessions kept per Lambda instance, so posting does not log in every time (Bluesky allows 30 logins per 5 minutes
 * per account). Keyed by PDS, handle and a hash of the app password; an entry lives until 5 minutes before the
 * access token's own `exp`.
 */
export class SessionCache {
  private readonly entries = new Map<string, { session: Session; until: number }>();
  constructor(private readonly max = 500) {}

  get(key: string, now: number): Session | undefined {
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.session;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, session: Session, until: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { session, until });
  }

  drop(key: string): void {
    this.entries.delete(key);
  }
}

/** The `exp` claim of a JWT, in ms; undefined when it cannot be read. */
export function jwtExpiry(token: string): number | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const exp = field(payload, 'exp');
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Without a readable `exp`, a session is reused for this long (access tokens live about 2 hours). */
const DEFAULT_SESSION_MS = 90 * 60_000;
const EXPIRY_MARGIN_MS = 5 * 60_000;

export const sessionKey = (ctx: NetworkContext, base: string) =>
  `${base}|${normaliseHandle(ctx.credentials.handle)}|${createHash('sha256').update((ctx.credentials.app_password ?? '').trim()).digest('hex')}`;

/** A cached session when one is valid, else a new one (which is cached). `fresh` forces a new login. */
export async function openSession(ctx: NetworkContext, base: string, cache?: SessionCache, fresh = false): Promise<Session | Failure> {
  const key = sessionKey(ctx, base);
  const cached = !fresh ? cache?.get(key, ctx.now()) : undefined;
  if (cached) return cached;
  const session = await createSession(ctx, base);
  if (session.ok && cache) cache.set(key, session, (jwtExpiry(session.accessJwt) ?? ctx.now() + DEFAULT_SESSION_MS) - EXPIRY_MARGIN_MS);
  return session;
}

async function createSession(ctx: NetworkContext, base: string): Promise<Session | Failure> {
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
  const services = field(field(res.json, 'didDoc'), 'service');
  const pds = Array.isArray(services) ? str(field(services.find((x) => str(field(x, 'id'))?.endsWith('#atproto_pds')), 'serviceEndpoint')) : undefined;
  return { ok: true, did, handle: str(field(res.json, 'handle')) ?? identifier, accessJwt, ...(pds ? { pds } : {}) };
}

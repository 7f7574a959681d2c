import { MediaUnreachable, type Failure, type NetworkContext } from '../ports/networks';

/**
 * The shared request helper of every adapter: deadline-bound requests, tolerant body parsing, and the generic
 * failure classification (429 → rate_limited, 401/403 → reauth, 5xx → transient, abort → timeout). Adapters
 * refine it with their network's own error signals.
 */

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  /** When the answer was read, on the context's clock (ms): HTTP-date and reset headers count from here. */
  at: number;
}

export class NetworkTimeout extends Error {
  constructor(cause?: unknown) { super('The network did not answer before the deadline', { cause }); this.name = 'NetworkTimeout'; }
}
export class NetworkUnreachable extends Error {
  constructor(cause?: unknown) { super('The network could not be reached', { cause }); this.name = 'NetworkUnreachable'; }
}

/** Sends one request bound to ctx.signal; throws NetworkTimeout / NetworkUnreachable, never hangs past the deadline. */
export async function request(ctx: NetworkContext, url: string, init: RequestInit = {}): Promise<HttpResult> {
  let res: Response;
  try {
    res = await ctx.fetch(url, { ...init, signal: ctx.signal, redirect: init.redirect ?? 'manual' });
  } catch (err) {
    if (ctx.signal.aborted || isAbort(err)) throw new NetworkTimeout(err);
    throw new NetworkUnreachable(err);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    if (ctx.signal.aborted || isAbort(err)) throw new NetworkTimeout(err);
    throw new NetworkUnreachable(err);
  }
  let json: unknown;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json, at: ctx.now() };
}

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(body) };
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}

/** Seconds from a Retry-After header (seconds or HTTP date); undefined when absent or unparseable. */
export function retryAfterSeconds(headers: Headers, now: number): number | undefined {
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs)) return Math.max(0, Math.ceil(secs));
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Generic classification of a non-2xx answer; adapters call it after handling their own signals. */
export function classifyStatus(res: HttpResult, message: string, defaultRetryAfter = 60): Failure {
  if (res.status === 429) return { ok: false, kind: 'rate_limited', retry_after: retryAfterSeconds(res.headers, res.at) ?? defaultRetryAfter, error: message };
  if (res.status === 401 || res.status === 403) return { ok: false, kind: 'reauth', error: message };
  if (res.status >= 500) return { ok: false, kind: 'transient', error: message };
  return { ok: false, kind: 'rejected', code: 'rejected', error: message };
}

/** Maps an exception thrown inside an adapter to a Failure (timeouts, unreachable network, unreachable media). */
export function failureFromError(err: unknown): Failure {
  if (err instanceof NetworkTimeout) return { ok: false, kind: 'timeout', error: err.message };
  if (err instanceof NetworkUnreachable) return { ok: false, kind: 'transient', error: err.message };
  if (err instanceof MediaUnreachable) return { ok: false, kind: 'rejected', code: 'media_unreachable', error: err.message };
  throw err;
}

/** Runs an adapter body and turns thrown network errors into Failures. */
export async function guarded<T>(fn: () => Promise<T | Failure>): Promise<T | Failure> {
  try {
    return await fn();
  } catch (err) {
    return failureFromError(err);
  }
}

/**
 * Like guarded(), for steps before anything exists on the network (uploads, sessions): a timeout there cannot have
 * posted anything, so it is reported as transient (safe to retry) rather than as an ambiguous timeout.
 */
export async function guardedBeforeCreate<T>(fn: () => Promise<T | Failure>): Promise<T | Failure> {
  try {
    return await fn();
  } catch (err) {
    const f = failureFromError(err);
    return f.kind === 'timeout' ? { ok: false, kind: 'transient', error: `${f.error}; nothing was posted` } : f;
  }
}

export { badMedia, graphemeLength, rejected } from './failures';

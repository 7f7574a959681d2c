import type { Failure } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { field, num, str } from '../oauth-tokens';
import { checkReddit, submission, subredditName, type Submission } from './limits';

export { checkReddit, submission, subredditName, type Submission };

/** Reddit's local rules: the sorting of `json.errors` (what a submission is made of and its limits: limits.ts). */

/** Seconds from "try again in 9 minutes" / "Take a break for 30 seconds" / "…1 hour"; undefined when absent. */
export function waitFromMessage(message: string): number | undefined {
  const m = /(\d+(?:\.\d+)?)\s*(milliseconds?|ms|seconds?|minutes?|hours?)\b/i.exec(message);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  const secs = unit.startsWith('h') ? n * 3600 : unit.startsWith('min') ? n * 60 : unit.startsWith('s') ? n : n / 1000;
  return Math.max(1, Math.ceil(secs));
}

/** The `[[CODE, message, field], …]` of a submit answer (HTTP 200 even on failure). */
export function submitErrors(json: unknown): Array<[string, string, string]> {
  const errors = field(field(json, 'json'), 'errors');
  if (!Array.isArray(errors)) return [];
  return errors.map((e): [string, string, string] => (Array.isArray(e) ? [String(e[0] ?? ''), String(e[1] ?? ''), String(e[2] ?? '')] : [String(e), '', '']));
}

/**
 * Sorts `json.errors`: RATELIMIT / QUOTA_FILLED → rate_limited (json.ratelimit seconds, else the wait in the text,
 * else 10 minutes); TOO_LONG → text_too_long; SUBREDDIT_NOEXIST, SUBREDDIT_NOTALLOWED, NO_SELFS, NO_LINKS,
 * BAD_SR_NAME, SUBMIT_VALIDATION_* and the rest → rejected with Reddit's text.
 */
export function submitFailure(json: unknown, errors: Array<[string, string, string]>): Failure {
  const text = errors.map(([code, msg, f]) => `${code}${msg ? `: ${msg}` : ''}${f ? ` (${f})` : ''}`).join('; ');
  const message = `reddit submit failed: ${text.slice(0, 400)}`;
  const rate = errors.find(([code]) => code === 'RATELIMIT' || code === 'QUOTA_FILLED');
  if (rate) {
    const wait = num(field(field(json, 'json'), 'ratelimit')) ?? waitFromMessage(rate[1]) ?? 600;
    return { ok: false, kind: 'rate_limited', retry_after: Math.max(1, Math.ceil(wait)), error: message };
  }
  if (errors.some(([code]) => code === 'TOO_LONG')) return rejected(message, 'text_too_long');
  if (errors.some(([code]) => code === 'USER_REQUIRED')) return { ok: false, kind: 'reauth', error: message };
  return rejected(message);
}

/** Seconds until X-Ratelimit-Reset (seconds until the window ends); undefined when absent. */
function resetSeconds(headers: Headers): number | undefined {
  const reset = num(headers.get('x-ratelimit-reset') ?? undefined);
  return reset === undefined ? undefined : Math.max(1, Math.ceil(reset));
}

/**
 * Sorts a non-2xx API answer: 429 → rate_limited (X-Ratelimit-Reset, else Retry-After, else 60 s); 401 → reauth;
 * 403 → reauth for identity calls, rejected for submit (banned, private or restricted subreddit); 5xx → transient.
 */
export function redditFailure(res: HttpResult, what: string, now: number, forbiddenIsReauth: boolean): Failure {
  const detail = str(field(res.json, 'message')) ?? str(field(res.json, 'error')) ?? (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
  const message = `reddit ${what} failed (HTTP ${res.status})${detail ? `: ${detail}` : ''}`;
  if (res.status === 429) return { ok: false, kind: 'rate_limited', retry_after: resetSeconds(res.headers) ?? retryAfterSeconds(res.headers, now) ?? 60, error: message };
  if (res.status === 403 && !forbiddenIsReauth) return rejected(`${message}; the account may not post in this subreddit (banned, private or restricted)`);
  return classifyStatus(res, message);
}

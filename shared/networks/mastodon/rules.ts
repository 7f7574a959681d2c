import type { Failure } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { checkContent, field, normaliseInstanceUrl, statusLength, str } from './limits';

export { checkContent, field, normaliseInstanceUrl, statusLength, str };

/** Mastodon's local rules: the sorting of error answers (instance address, status length, media fit: limits.ts). */

/** Seconds until X-RateLimit-Reset (an ISO-8601 timestamp), at least 1; undefined when absent or unparseable. */
function resetSeconds(headers: Headers, now: number): number | undefined {
  const at = Date.parse(headers.get('x-ratelimit-reset') ?? '');
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - now) / 1000));
}

/**
 * Sorts a non-2xx answer: 429 → rate_limited (X-RateLimit-Reset, else Retry-After, else 60 s); 401 (invalid token) and
 * 403 (outside scopes, login disabled) → reauth; 422 → rejected with Mastodon's text (text_too_long when it names the
 * character limit); 413 on media → bad_media; 5xx → transient.
 */
export function mastodonFailure(res: HttpResult, what: string, now: number): Failure {
  const error = str(field(res.json, 'error'));
  const description = str(field(res.json, 'error_description'));
  const detail = [error, description].filter(Boolean).join(': ') || (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
  const message = `mastodon ${what} failed (HTTP ${res.status})${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  if (res.status === 429) {
    return { ok: false, kind: 'rate_limited', retry_after: resetSeconds(res.headers, now) ?? retryAfterSeconds(res.headers, now) ?? 60, error: message };
  }
  if (res.status === 403) {
    const hint = /scope/i.test(detail) ? '; reconnect with a token that has the write:statuses and write:media scopes' : '';
    return { ok: false, kind: 'reauth', error: `${message}${hint}` };
  }
  if (res.status === 422) return rejected(message, /character limit/i.test(detail) ? 'text_too_long' : 'rejected');
  if (res.status === 413) return rejected(message, 'bad_media');
  return classifyStatus(res, message);
}

import { checkAlt } from '../media-fit';
import type { Failure, PublishContent } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { lengthFailure } from '../text-check';
import { MASTODON_DEFAULT_MAX_CHARACTERS } from '../../domain/text-length';
import { isRecord } from '../../domain/values';

/** Mastodon's local rules: instance address, status length counting, media fit, and the sorting of error answers. */

export { MASTODON_DEFAULT_MAX_CHARACTERS, MASTODON_URL_CHARACTERS, mastodonLength as statusLength } from '../../domain/text-length';
export const MASTODON_MAX_MEDIA = 4;

export const field = (body: unknown, key: string): unknown => (isRecord(body) ? body[key] : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** `https://host[/path]` without trailing slashes; a bare host gets https://. Undefined when not an http(s) URL. */
export function normaliseInstanceUrl(raw: string | undefined): string | undefined {
  let s = (raw ?? '').trim();
  if (!s) return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = `https://${s}`;
  let url: URL;
  try { url = new URL(s); } catch { return undefined; }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) return undefined;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

// Mastodon's counting (links 23, remote mentions as @user, graphemes) is THE length validator's (shared/domain).

/** The instance's limit stored at verify (credentials.max_characters), else Mastodon's default 500. */
export function maxCharacters(credentials: Record<string, string>): number {
  const n = Number(credentials.max_characters);
  return Number.isInteger(n) && n > 0 ? n : MASTODON_DEFAULT_MAX_CHARACTERS;
}

export function checkContent(content: PublishContent, credentials: Record<string, string>): Failure | undefined {
  const tooLong = lengthFailure('mastodon', content, { instanceLimit: maxCharacters(credentials) });
  if (tooLong) return tooLong;
  if (content.media.length > MASTODON_MAX_MEDIA) {
    return rejected(`mastodon takes at most ${MASTODON_MAX_MEDIA} media per post; got ${content.media.length}`, 'bad_media');
  }
  if (content.media.length > 1 && content.media.some((m) => m.kind === 'video')) {
    return rejected('mastodon takes a video only on its own: no other image or video in the same post', 'bad_media');
  }
  return checkAlt('mastodon', content.media);
}

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

import { checkAlt } from '../media-fit';
import type { Failure, MediaItem, PublishContent } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { TEXT_RULES } from '../../domain/text-length';
import { lengthFailure } from '../text-check';
import { field, num, str } from '../oauth-tokens';

/** LinkedIn's local rules: commentary escaping ("little text"), content limits, and the sorting of error answers. */

export const LINKEDIN_MAX_COMMENTARY = TEXT_RULES.linkedin.limit;
export const LINKEDIN_MAX_IMAGES = 20;
/** Wait assumed for a 429 without Retry-After: LinkedIn's posting quotas are daily, so retrying within a minute only burns calls. */
export const LINKEDIN_DEFAULT_RETRY_AFTER = 3600;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png', 'image/gif']);
const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif)$/i;

// "little text" reserves \ | { } @ [ ] ( ) < > # * _ ~ : unescaped, LinkedIn silently cuts the commentary at the first
// one. URLs are kept as they are (so they still link) and #hashtags stay hashtags; everything else is escaped.
const PROTECTED = /https?:\/\/[^\s<>"()[\]{}|\\]+|(?<![\p{L}\p{N}_])#[\p{L}\p{N}_]+/gu;
const RESERVED = /[\\|{}@[\]()<>#*_~]/g;

export function escapeLittleText(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(PROTECTED)) {
    out += text.slice(last, m.index).replace(RESERVED, '\\$&') + m[0];
    last = (m.index ?? 0) + m[0].length;
  }
  return out + text.slice(last).replace(RESERVED, '\\$&');
}

/** Whether a media item is an image LinkedIn takes (JPEG, PNG, GIF), by content type when known, else by extension. */
function imageFits(item: MediaItem): boolean {
  if (item.content_type) return IMAGE_TYPES.has(item.content_type.split(';')[0].trim().toLowerCase());
  const path = (() => { try { return new URL(item.url).pathname; } catch { return item.url; } })();
  return !/\.[a-z0-9]{2,5}$/i.test(path) || IMAGE_EXTENSIONS.test(path);
}

/**
 * Commentary ≤ 3000 characters (UTF-16 units, before escaping); up to 20 images (JPEG/PNG/GIF) or one video alone.
 * The first comment is not checked here: a refused comment never fails the post.
 */
export function checkLinkedin(content: PublishContent): Failure | undefined {
  const tooLong = lengthFailure('linkedin', { text: content.text });
  if (tooLong) return tooLong;
  const videos = content.media.filter((m) => m.kind === 'video').length;
  if (videos > 1 || (videos === 1 && content.media.length > 1)) {
    return rejected('linkedin takes one video on its own, or up to 20 images, per post', 'bad_media');
  }
  if (content.media.length > LINKEDIN_MAX_IMAGES) {
    return rejected(`linkedin takes at most ${LINKEDIN_MAX_IMAGES} images per post; got ${content.media.length}`, 'bad_media');
  }
  const odd = content.media.findIndex((m) => m.kind === 'image' && !imageFits(m));
  if (odd >= 0) return rejected(`linkedin takes JPEG, PNG or GIF images; media ${odd + 1} is ${content.media[odd].content_type ?? 'of another type'}`, 'bad_media');
  return checkAlt('linkedin', content.media);
}

/**
 * Sorts a non-2xx LinkedIn answer (`{status, message, serviceErrorCode?, code?}`): 429 → rate_limited (Retry-After,
 * else an hour); 401 (expired / revoked token) and 403 (ACCESS_DENIED: scope missing, not allowed to post as this
 * author) → reauth; 426 (LinkedIn-Version sunset) → rejected naming the version; other 4xx → rejected (`media` steps
 * → bad_media); 5xx → transient.
 */
export function linkedinFailure(res: HttpResult, what: string, now: number, opts: { media?: boolean } = {}): Failure {
  const detail = str(field(res.json, 'message')) ?? (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
  const code = str(field(res.json, 'code')) ?? (num(field(res.json, 'serviceErrorCode')) !== undefined ? `serviceErrorCode ${num(field(res.json, 'serviceErrorCode'))}` : undefined);
  const message = `linkedin ${what} failed (HTTP ${res.status}${code ? ` ${code}` : ''})${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  if (res.status === 429) return { ok: false, kind: 'rate_limited', retry_after: retryAfterSeconds(res.headers, now) ?? LINKEDIN_DEFAULT_RETRY_AFTER, error: message };
  if (res.status === 401) return { ok: false, kind: 'reauth', error: `${message}; the LinkedIn sign-in expired or was revoked` };
  if (res.status === 403) return { ok: false, kind: 'reauth', error: `${message}; reconnect LinkedIn with the w_member_social permission` };
  if (res.status === 426) return rejected(`${message}; the LinkedIn-Version header names a sunset API version`);
  if (res.status >= 400 && res.status < 500) return rejected(message, opts.media ? 'bad_media' : 'rejected');
  return classifyStatus(res, message);
}

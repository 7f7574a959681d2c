import { checkAlt, MB, type MediaRules } from '../media-rules';
import type { Failure, MediaItem, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for linkedin; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf16', limit: 3000, thread: false, firstComment: true };

/** What LinkedIn takes, checked before sending (the API side's pre-check and the adapter share it): commentary escaping ("little text") and content limits. */

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
  const tooLong = lengthFailure('linkedin', TEXT_RULE, { text: content.text });
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
  return checkAlt('linkedin', MEDIA_RULES, content.media);
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: ['image/jpeg', 'image/png', 'image/gif'], max_bytes: 36 * MB },
  video: { types: ['video/mp4'], max_bytes: 500 * MB, min_s: 3, max_s: 1800 },
  alt: { max: 4086, unit: 'characters', field: 'altText', kinds: ['image'] },
};

import { checkAlt, MB, type MediaRules, WEB_IMAGES } from '../media-rules';
import type { Failure, MediaItem, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import type { TextRule } from '../../domain/text-length';

/**
 * X's post length is measured by THE length validator (shared/domain/text-length.ts, twitter-text v3 weighting: links
 * 23, CJK and emoji 2); the AI drafter fits its X drafts to the same count.
 */
export { xWeightedLength as weightedLength } from '../../domain/text-length';

/**
 * Its text rule (THE length validator's unit and limits for x; sources: shared/reference/networks.md): 280 weighted
 * characters (X Premium's long posts are not offered by the API to every app, so they are not assumed).
 */
export const TEXT_RULE: TextRule = { unit: 'x_weighted', limit: 280, thread: true, firstComment: true };

export const X_MAX_IMAGES = 4;

/** A GIF goes up as tweet_gif and, like a video, must be alone in its post. */
export function isGif(item: MediaItem): boolean {
  return item.kind === 'image' && ((item.content_type ?? '').toLowerCase() === 'image/gif' || /\.gif(?:[?#]|$)/i.test(item.url));
}

export function checkContent(content: PublishContent): Failure | undefined {
  const tooLong = lengthFailure('x', TEXT_RULE, content);
  if (tooLong) return tooLong;
  const moving = content.media.filter((m) => m.kind === 'video' || isGif(m));
  if (moving.length > 0 && content.media.length > 1) return rejected('x takes up to 4 photos, or one video or GIF on its own: not a mix', 'bad_media');
  if (content.media.length > X_MAX_IMAGES) return rejected(`x takes at most ${X_MAX_IMAGES} photos per post; got ${content.media.length}`, 'bad_media');
  if (content.options?.poll && (content.media.length || content.options.quote)) return rejected('an x post carries a poll alone: no media and no quote with it');
  return checkAlt('x', MEDIA_RULES, content.media);
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: WEB_IMAGES, max_bytes: 5 * MB },
  video: { types: ['video/mp4', 'video/quicktime'], max_bytes: 512 * MB, min_s: 0.5, max_s: 140, min_side: 32, max_width: 1920, max_height: 1200 },
  alt: { max: 1000, unit: 'characters', field: 'alt_text', kinds: ['image'] },
};

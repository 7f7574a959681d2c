import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import { checkAlt, MB, type MediaRules } from '../media-rules';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for bluesky; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'graphemes', limit: 300, maxBytes: 3000, thread: true, firstComment: true };

/** What Bluesky takes, checked before sending (the API side's pre-check and the adapter share it). */

export const BLUESKY_MAX_IMAGES = 4;
export const BLUESKY_MAX_VIDEOS = 1;

export function checkBluesky(content: PublishContent): Failure | undefined {
  const tooLong = lengthFailure('bluesky', TEXT_RULE, content);
  if (tooLong) return tooLong;
  const videos = content.media.filter((m) => m.kind === 'video').length;
  if (videos > 0 && content.media.length > videos) return rejected('bluesky takes either images or one video per post, not both', 'bad_media');
  if (videos > BLUESKY_MAX_VIDEOS) return rejected(`bluesky takes one video per post; got ${videos}`, 'bad_media');
  if (content.media.length > BLUESKY_MAX_IMAGES) {
    return rejected(`bluesky takes at most ${BLUESKY_MAX_IMAGES} images per post; got ${content.media.length}`, 'bad_media');
  }
  if (content.options?.link_card !== undefined && (content.media.length || content.options.quote)) {
    return rejected('a bluesky post shows one embed: a link card cannot go with media or a quote');
  }
  return checkAlt('bluesky', MEDIA_RULES, content.media);
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'], max_bytes: 1_000_000 },
  video: { types: ['video/mp4', 'video/quicktime', 'video/webm'], max_bytes: 100 * MB, max_s: 180 },
  alt: { max: 2000, unit: 'graphemes', field: 'alt', kinds: ['image', 'video'] },
};

import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { checkAlt, MB, type MediaRules } from '../media-rules';
import { lengthFailure } from '../text-check';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for pinterest; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'code_points', limit: 500, thread: false, firstComment: false, title: { unit: 'code_points', limit: 100 } };

/** What Pinterest takes, checked before sending (the API side's pre-check and the adapter share it). */

/**
 * A Pin is one image or one video (`media_source`), with a description ≤ 500 characters, a title ≤ 100 and alt text
 * ≤ 500 (images).
 */
export function checkPinterest(content: PublishContent): Failure | undefined {
  if (content.media.length === 0) return rejected('pinterest needs an image or a video: a Pin is a picture', 'bad_media');
  if (content.media.length > 1) return rejected(`pinterest takes one image or one video per Pin; got ${content.media.length}`, 'bad_media');
  return lengthFailure('pinterest', TEXT_RULE, { text: content.text, title: content.title }) ?? checkAlt('pinterest', MEDIA_RULES, content.media);
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff'], max_bytes: 20 * MB },
  video: { types: ['video/mp4', 'video/quicktime', 'video/x-m4v'], max_bytes: 2000 * MB },
  alt: { max: 500, unit: 'characters', field: 'alt_text', kinds: ['image'] },
};

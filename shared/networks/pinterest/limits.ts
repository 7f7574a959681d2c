import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { checkAlt } from '../media-rules';
import { lengthFailure } from '../text-check';

/** What Pinterest takes, checked before sending (the API side's pre-check and the adapter share it). */

/**
 * A Pin is one image or one video (`media_source`), with a description ≤ 500 characters, a title ≤ 100 and alt text
 * ≤ 500 (images).
 */
export function checkPinterest(content: PublishContent): Failure | undefined {
  if (content.media.length === 0) return rejected('pinterest needs an image or a video: a Pin is a picture', 'bad_media');
  if (content.media.length > 1) return rejected(`pinterest takes one image or one video per Pin; got ${content.media.length}`, 'bad_media');
  return lengthFailure('pinterest', { text: content.text, title: content.title }) ?? checkAlt('pinterest', content.media);
}

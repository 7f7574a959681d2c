import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for facebook; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf16', limit: 63_206, thread: false, firstComment: false };

/* What a Facebook page post takes, checked before sending (the API side's pre-check and the adapter share it). */


export const FACEBOOK_MAX_MEDIA = 1;

export function checkFacebook(content: PublishContent): Failure | undefined {
  const tooLong = lengthFailure('facebook', TEXT_RULE, { text: content.text });
  if (tooLong) return tooLong;
  if (content.media.length > FACEBOOK_MAX_MEDIA) return rejected(`facebook takes one photo or one video per post; got ${content.media.length}`, 'bad_media');
  return undefined;
}

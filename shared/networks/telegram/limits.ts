import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure, mediaKinds } from '../text-check';
import { MB, type MediaRules, WEB_IMAGES } from '../media-rules';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for telegram; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf16', limit: 4096, captionLimit: 1024, thread: false, firstComment: false };

/* What Telegram takes, checked before sending (the API side's pre-check and the adapter share it). */


export function checkTelegram(content: PublishContent): Failure | undefined {
  if (content.media.length > 1) return rejected(`Telegram takes at most 1 media item per post (got ${content.media.length})`, 'bad_media');
  const item = content.media[0];
  if (item && item.kind !== 'image' && item.kind !== 'video') return rejected(`Telegram takes an image or a video (got ${String(item.kind)})`, 'bad_media');
  const tooLong = lengthFailure('telegram', TEXT_RULE, { text: content.text }, { media: mediaKinds(content) });
  if (tooLong) return tooLong;
  if (!item && content.text.trim() === '') return rejected('Telegram needs text or a media item');
  return undefined;
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: WEB_IMAGES, max_bytes: 10 * MB },
  video: { types: ['video/mp4', 'video/quicktime', 'video/webm'], max_bytes: 50 * MB },
};

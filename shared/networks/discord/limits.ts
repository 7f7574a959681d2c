import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import { checkAlt, type MediaRules, MiB, WEB_IMAGES } from '../media-rules';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for discord; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'code_points', limit: 2000, appendsVideoLink: true, thread: false, firstComment: false };

/* What Discord takes, checked before sending (the API side's pre-check and the adapter share it). */


/** The message content actually sent: the text, with a video's URL on its own line (Discord unfurls it). */
export function discordContent(content: PublishContent): string {
  const video = content.media.find((m) => m.kind === 'video');
  if (!video) return content.text;
  return content.text ? `${content.text}\n${video.url}` : video.url;
}

export function checkDiscord(content: PublishContent): Failure | undefined {
  if (content.media.length > 1) return rejected(`Discord takes at most 1 media item per post (got ${content.media.length})`, 'bad_media');
  const item = content.media[0];
  if (item && item.kind !== 'image' && item.kind !== 'video') return rejected(`Discord takes an image or a video (got ${String(item.kind)})`, 'bad_media');
  const sent = discordContent(content);
  const tooLong = lengthFailure('discord', TEXT_RULE, { text: sent });
  if (tooLong && tooLong.kind === 'rejected') {
    return sent === content.text ? tooLong : { ...tooLong, error: `${tooLong.error} (including the video link added to the message)` };
  }
  if (!item && content.text.trim() === '') return rejected('Discord needs text or a media item');
  return checkAlt('discord', MEDIA_RULES, content.media);
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: WEB_IMAGES, max_bytes: 10 * MiB },
  video: { types: ['video/mp4', 'video/quicktime', 'video/webm'], max_bytes: 10 * MiB },
  alt: { max: 1024, unit: 'characters', field: 'description', kinds: ['image'] },
};

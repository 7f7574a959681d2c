import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for slack; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf16', limit: 40_000, appendsVideoLink: true, thread: false, firstComment: false };

/* What Slack takes, checked before sending (the API side's pre-check and the adapter share it). */


/** The message text actually sent: the post text, with a video's URL on its own line (Slack unfurls it). */
export function slackText(content: PublishContent): string {
  const video = content.media.find((m) => m.kind === 'video');
  if (!video) return content.text;
  return content.text ? `${content.text}\n${video.url}` : video.url;
}

export function checkSlack(content: PublishContent): Failure | undefined {
  if (content.media.length > 1) return rejected(`Slack takes at most 1 media item per post (got ${content.media.length})`, 'bad_media');
  const item = content.media[0];
  if (item && item.kind !== 'image' && item.kind !== 'video') return rejected(`Slack takes an image or a video link (got ${String(item.kind)})`, 'bad_media');
  const sent = slackText(content);
  const tooLong = lengthFailure('slack', TEXT_RULE, { text: sent });
  if (tooLong && tooLong.kind === 'rejected') {
    return sent === content.text ? tooLong : { ...tooLong, error: `${tooLong.error} (including the video link added to the message)` };
  }
  if (!item && content.text.trim() === '') return rejected('Slack needs text or a media item');
  return undefined;
}

import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import { MB, type MediaRules } from '../media-rules';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for youtube; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf8_bytes', limit: 5000, thread: false, firstComment: false, title: { unit: 'code_points', limit: 100 } };

/** What a YouTube upload needs, checked before sending (the API side's pre-check and the adapter share it). */


export function checkContent(content: PublishContent): Failure | undefined {
  const videos = content.media.filter((m) => m.kind === 'video');
  if (videos.length !== 1 || content.media.length !== 1) {
    return rejected(`youtube takes exactly one video per post; got ${videos.length} video(s) and ${content.media.length - videos.length} image(s)`, 'bad_media');
  }
  const title = content.title?.trim() ?? '';
  if (!title) return rejected('youtube needs a title for the video: send "title" (up to 100 characters)');
  const tooLong = lengthFailure('youtube', TEXT_RULE, { text: content.text, title });
  if (tooLong) return tooLong;
  if (/[<>]/.test(title)) return rejected('youtube refuses "<" and ">" in a title');
  if (/[<>]/.test(content.text)) return rejected('youtube refuses "<" and ">" in a description');
  return undefined;
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = { video: { types: ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-msvideo', 'video/x-matroska'], max_bytes: 256_000 * MB } };

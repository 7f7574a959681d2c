import { platform } from '../../domain/platforms';
import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import { articleTitle } from '../article-title';
import type { TextRule } from '../../domain/text-length';

/** What dev.to takes, checked before sending (the API side's pre-check and the adapter share it). */

/** Forem: `validates :title … maximum 128` (characters, after whitespace runs are collapsed). */
export const DEVTO_MAX_TITLE_CHARS = 128;

/** Forem: `validates :body_markdown, bytesize: { maximum: 800.kilobytes }`. */
export const DEVTO_MAX_BODY_BYTES = 800 * 1024;

/** Its text rule (THE length validator's unit and limits for devto; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf8_bytes', limit: DEVTO_MAX_BODY_BYTES, thread: false, firstComment: false, title: { unit: 'code_points', limit: DEVTO_MAX_TITLE_CHARS } };

export function checkDevto(content: PublishContent): Failure | undefined {
  const max = platform('devto').max_media;
  if (content.media.length > max) return rejected(`dev.to takes at most ${max} image (the cover); got ${content.media.length} media items`, 'bad_media');
  if (content.media.some((m) => m.kind !== 'image')) return rejected('dev.to takes an image as the cover; video is not supported', 'bad_media');
  const title = articleTitle(content);
  if (!title) return rejected('dev.to needs a title: give a title or a text whose first line can be used');
  return lengthFailure('devto', TEXT_RULE, { text: content.text, title: title.replace(/\s+/g, ' ') });
}

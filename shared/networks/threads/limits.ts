import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { checkAlt, MB, type MediaRules } from '../media-rules';
import { lengthFailure } from '../text-check';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for threads; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'threads', limit: 500, thread: false, firstComment: true };

/** What Threads takes, checked before sending (the API side's pre-check and the adapter share it). */

export const THREADS_MAX_CAROUSEL = 20;
/** Threads counts links in a post's text; more than 5 is refused. */
export const THREADS_MAX_LINKS = 5;

/**
 * Text ≤ 500 (emojis weigh their UTF-8 bytes), at most 5 links; a text post needs text; one image or video, or a
 * carousel of 2–20 images and videos; alt text ≤ 1000 characters.
 */
export function checkThreads(content: PublishContent): Failure | undefined {
  if (content.media.length === 0 && !content.text.trim()) return rejected('a threads text post needs text', 'rejected');
  if (content.media.length > THREADS_MAX_CAROUSEL) {
    return rejected(`threads takes at most ${THREADS_MAX_CAROUSEL} items per post (a carousel); got ${content.media.length}`, 'bad_media');
  }
  const links = content.text.match(/https?:\/\/[^\s]+/g)?.length ?? 0;
  if (links > THREADS_MAX_LINKS) return rejected(`threads takes at most ${THREADS_MAX_LINKS} links per post; this text has ${links}`);
  return lengthFailure('threads', TEXT_RULE, { text: content.text }) ?? checkAlt('threads', MEDIA_RULES, content.media);
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: ['image/jpeg', 'image/png'], max_bytes: 8 * MB },
  video: { types: ['video/mp4', 'video/quicktime'], max_bytes: 1000 * MB, max_s: 300 },
  alt: { max: 1000, unit: 'characters', field: 'alt_text', kinds: ['image', 'video'] },
};

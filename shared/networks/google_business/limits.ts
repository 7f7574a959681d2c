import type { Failure, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import { MB, type MediaRules } from '../media-rules';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for google_business; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'code_points', limit: 1500, thread: false, firstComment: false };

/** What a Google Business Profile post takes, checked before sending (the API side's pre-check and the adapter share it). */

/**
 * The summary ≤ 1,500 characters; at most one photo (no video); a standard post needs text or a photo (an event or
 * an offer carries its title).
 */
export function checkGoogleBusiness(content: PublishContent): Failure | undefined {
  if (content.media.some((m) => m.kind === 'video')) return rejected('google_business posts take one photo, not a video', 'bad_media');
  if (content.media.length > 1) return rejected(`google_business posts take one photo; got ${content.media.length}`, 'bad_media');
  if (!content.text.trim() && content.media.length === 0 && !content.options?.event) return rejected('a google_business post needs text, a photo or an event', 'rejected');
  return lengthFailure('google_business', TEXT_RULE, { text: content.text });
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = { image: { types: ['image/jpeg', 'image/png'], max_bytes: 5 * MB } };

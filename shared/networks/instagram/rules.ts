import type { Failure } from '../../ports/networks';
import { rejected } from '../http';
import type { GraphError } from '../facebook/graph';
import { checkInstagram } from './limits';

export { checkInstagram };

/** Instagram's local rules: the sorting of its media error subcodes (caption and media fit: limits.ts). */

const UNREACHABLE = new Set([2207003, 2207052, 2207077]);
/** Creation failed (retry) and 2207027 "media not ready for publishing". */
const RETRY = new Set([2207027, 2207032, 2207053]);
const BAD_MEDIA_CODES = new Set([9004, 36000, 36001, 36003, 352]);

/** Sorts an Instagram media subcode (error_subcode 2207xxx, or one read from a container's status text). */
export function mediaSubcodeFailure(subcode: number | undefined, message: string): Failure | undefined {
  if (subcode === undefined) return undefined;
  if (UNREACHABLE.has(subcode)) return rejected(`${message}; Instagram could not download the media (it must be a public https URL)`, 'media_unreachable');
  if (RETRY.has(subcode)) return { ok: false, kind: 'transient', error: message };
  if (subcode === 2207042) return { ok: false, kind: 'rate_limited', retry_after: 3600, error: `${message}; the account reached Instagram's publishing limit for 24 hours` };
  if (subcode === 2207010) return rejected(message, 'text_too_long');
  if (subcode === 2207050) return rejected(`${message}; the Instagram account is restricted`);
  if (subcode >= 2207000 && subcode <= 2207999) return rejected(message, 'bad_media');
  return undefined;
}

/** Graph refine for Instagram calls: media subcodes first, then Instagram's media error codes; 9007 (not ready) → transient. */
export function instagramRefine(e: GraphError, message: string): Failure | undefined {
  const bySubcode = mediaSubcodeFailure(e.subcode, message);
  if (bySubcode) return bySubcode;
  if (e.code !== undefined && BAD_MEDIA_CODES.has(e.code)) return rejected(message, 'bad_media');
  if (e.code === 9007) return { ok: false, kind: 'transient', error: `${message}; the media was not ready yet` };
  if (/not an instagram business|session has been invalidated/i.test(e.message)) return { ok: false, kind: 'reauth', error: message };
  return undefined;
}

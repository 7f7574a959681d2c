import type { Failure, MediaItem, PublishContent } from '../../ports/networks';
import { rejected } from '../http';
import { TEXT_RULES } from '../../domain/text-length';
import { lengthFailure } from '../text-check';
import type { GraphError } from '../facebook/graph';

/** Instagram's local rules: caption and media fit, and the sorting of its media error subcodes. */

export const INSTAGRAM_MAX_CAPTION = TEXT_RULES.instagram.limit;
export const INSTAGRAM_MAX_HASHTAGS = TEXT_RULES.instagram.maxHashtags!;
export const INSTAGRAM_MAX_MEDIA = 10;


function extension(url: string): string | undefined {
  let path: string;
  try { path = new URL(url).pathname; } catch { path = url; }
  return /\.([a-z0-9]{2,5})$/i.exec(path)?.[1]?.toLowerCase();
}

/** JPEG only: by content type when known, else by the URL's extension (no extension → left to Instagram). */
export function isJpeg(item: MediaItem): boolean {
  if (item.content_type) return /^image\/(jpeg|jpg|pjpeg)$/i.test(item.content_type.split(';')[0].trim());
  const ext = extension(item.url);
  return ext === undefined || ext === 'jpg' || ext === 'jpeg';
}

/**
 * A photo or a video is required; up to 10 items (a carousel from 2); images JPEG only; caption ≤ 2200 characters
 * and ≤ 30 hashtags.
 */
export function checkInstagram(content: PublishContent): Failure | undefined {
  if (content.media.length === 0) return rejected('instagram needs a photo or a video', 'bad_media');
  if (content.media.length > INSTAGRAM_MAX_MEDIA) {
    return rejected(`instagram takes at most ${INSTAGRAM_MAX_MEDIA} items per post (a carousel); got ${content.media.length}`, 'bad_media');
  }
  const notJpeg = content.media.findIndex((m) => m.kind === 'image' && !isJpeg(m));
  if (notJpeg >= 0) {
    return rejected(`instagram takes JPEG images only; media ${notJpeg + 1} is ${content.media[notJpeg].content_type ?? `.${extension(content.media[notJpeg].url)}`}`, 'bad_media');
  }
  return lengthFailure('instagram', { text: content.text });
}

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

import type { Failure, MediaItem, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure } from '../text-check';
import { MB, type MediaRules } from '../media-rules';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for instagram; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'graphemes', limit: 2200, thread: false, firstComment: false, maxHashtags: 30 };

/** What Instagram takes, checked before sending (the API side's pre-check and the adapter share it): caption and media fit. */

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
  return lengthFailure('instagram', TEXT_RULE, { text: content.text });
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: ['image/jpeg'], max_bytes: 8 * MB },
  video: { types: ['video/mp4', 'video/quicktime'], max_bytes: 1000 * MB },
};

import type { Failure, MediaItem, PublishContent } from '../../ports/networks';
import { rejected } from '../failures';
import { lengthFailure, mediaKinds } from '../text-check';
import { MB, type MediaRules } from '../media-rules';
import type { TextRule } from '../../domain/text-length';

/** Its text rule (THE length validator's unit and limits for tiktok; sources: shared/reference/networks.md). */
export const TEXT_RULE: TextRule = { unit: 'utf16', limit: 2200, photoLimit: 4000, thread: false, firstComment: false, title: { unit: 'utf16', limit: 90 } };

/** What a TikTok post may hold, checked before sending (the API side's pre-check and the adapter share it). */

export const TIKTOK_MAX_PHOTOS = 35;

export type TikTokPrivacy = 'PUBLIC_TO_EVERYONE' | 'MUTUAL_FOLLOW_FRIENDS' | 'FOLLOWER_OF_CREATOR' | 'SELF_ONLY';

/** The levels tried, in order, for each content.privacy (the first the creator offers wins). */
export const PRIVACY_PREFERENCE: Record<'public' | 'unlisted' | 'private', TikTokPrivacy[]> = {
  public: ['PUBLIC_TO_EVERYONE'],
  unlisted: ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS'],
  private: ['SELF_ONLY'],
};

/** TikTok takes JPEG and WebP photos only (PNG and GIF are refused after the pull). */
function photoTypeProblem(item: MediaItem): string | undefined {
  const type = (item.content_type ?? '').toLowerCase();
  if (type && !/^image\/(jpe?g|webp)$/.test(type)) return `tiktok takes JPEG or WebP photos; ${item.url} is ${type}`;
  return undefined;
}

export function checkContent(content: PublishContent): Failure | undefined {
  const videos = content.media.filter((m) => m.kind === 'video');
  if (content.media.length === 0) return rejected('tiktok needs a video or at least one photo: it has no text-only posts', 'bad_media');
  if (videos.length > 0) {
    if (content.media.length > 1) return rejected('tiktok takes one video on its own, or up to 35 photos: not both, not several videos', 'bad_media');
    return lengthFailure('tiktok', TEXT_RULE, { text: content.text }, { media: mediaKinds(content) });
  }
  if (content.media.length > TIKTOK_MAX_PHOTOS) return rejected(`tiktok takes at most ${TIKTOK_MAX_PHOTOS} photos per post; got ${content.media.length}`, 'bad_media');
  for (const item of content.media) {
    const problem = photoTypeProblem(item);
    if (problem) return rejected(problem, 'bad_media');
  }
  return lengthFailure('tiktok', TEXT_RULE, { text: content.text, title: content.title }, { media: mediaKinds(content) });
}

/** Media types, sizes and the alt-text limit this network takes (sources: docs/networks.md "Media fitness"). */
export const MEDIA_RULES: MediaRules = {
  image: { types: ['image/jpeg', 'image/webp'], max_bytes: 20 * MB },
  video: { types: ['video/mp4', 'video/webm', 'video/quicktime'], max_bytes: 4000 * MB, min_s: 3, max_s: 600, min_side: 360, max_width: 4096, max_height: 4096 },
};

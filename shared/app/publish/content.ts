import type { PlatformName } from '../../domain/platforms';
import type { PostPayload } from '../../domain/post';
import type { PublishContent } from '../../networks/types';

/** What one network gets: the post's fields with that network's per_platform draft laid over them. */
export function contentFor(payload: PostPayload, platform: PlatformName, postId: string): PublishContent {
  const d = payload.per_platform[platform] ?? {};
  return {
    text: d.text ?? payload.text ?? '',
    title: d.title ?? payload.title,
    media: (d.media ?? payload.media).map((m) => ({ url: m.url, kind: m.kind })),
    thread: d.thread ?? [],
    first_comment: d.first_comment,
    privacy: payload.privacy,
    subreddit: payload.subreddit,
    idempotency_key: `${postId}:${platform}`,
  };
}

/** A stable fingerprint of what makes two requests "identical" (spec §8.3: networks, text, drafts, media, brand). */
export function fingerprint(platforms: PlatformName[], payload: PostPayload, brandId: string): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sorted(x)]));
    return v;
  };
  return JSON.stringify(sorted({ platforms: [...platforms].sort(), payload, brandId }));
}

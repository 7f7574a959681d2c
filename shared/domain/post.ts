import type { PlatformName } from './platforms';
import type { MediaKind, PostOptions } from './content';

/** A media item of a post request, with its kind known or guessed from the link. */
export interface MediaRef {
  url: string;
  kind: MediaKind;
  alt?: string;
}

export interface PerPlatformDraft extends PostOptions {
  text?: string;
  title?: string;
  media?: MediaRef[];
  thread?: string[];
  first_comment?: string;
}

/** The content of a post request (spec §2.2) after validation, as stored with the post. */
export interface PostPayload {
  text?: string;
  title?: string;
  media: MediaRef[];
  privacy?: 'public' | 'unlisted' | 'private';
  subreddit?: string;
  per_platform: Partial<Record<PlatformName, PerPlatformDraft>>;
}

/** A post request after validation: the networks, the payload, and the brand and duplicate keys it names. */
export interface ValidPost {
  platforms: PlatformName[];
  payload: PostPayload;
  brand_id?: string;
  idempotency_key?: string;
  /** A duplicate key the service chose (schedules, recurring occurrences): locks like idempotency_key, never shown. */
  duplicate_key?: string;
}

/** One element of results[] (spec §2.3). */
export interface NetworkResult {
  platform: PlatformName;
  ok: boolean;
  status: 'published' | 'processing' | 'scheduled' | 'pending_approval' | 'unknown' | 'failed';
  code?: string;
  error?: string;
  what?: string;
  fix?: string;
  held?: boolean;
  deferred?: boolean;
  schedule_id?: string;
  run_at?: string;
  retry_after?: number;
  upgrade_url?: string;
  id?: string;
  url?: string;
}

const VIDEO_EXT = /\.(mp4|m4v|mov|webm|mkv|avi)(\?|#|$)/i;

/** Guesses a media link's kind from its extension (confirmed later by the media check's Content-Type). */
export function guessKind(url: string): MediaKind {
  return VIDEO_EXT.test(url) ? 'video' : 'image';
}

/** What a post asks one network to publish: text, media and the network's own post kinds. */

export type MediaKind = 'image' | 'video';

export interface MediaItem {
  url: string;
  kind: MediaKind;
  /** Known when the service checked or stored the media (e.g. image/png). */
  content_type?: string;
  /** Size in bytes, when the media check learned it (Content-Length / Content-Range). */
  bytes?: number;
  /** Alt text (media[].alt, photo_alt): sent where the network has a field for it. */
  alt?: string;
}

/** What one network is asked to publish: the post request after per_platform overrides are applied. */
export interface PublishContent {
  text: string;
  title?: string;
  media: MediaItem[];
  /** Further posts chained after the first one (X, Bluesky, Mastodon). */
  thread: string[];
  /** A comment posted under the first post (LinkedIn, X, Bluesky, Mastodon, Facebook, Instagram). */
  first_comment?: string;
  privacy?: 'public' | 'unlisted' | 'private';
  subreddit?: string;
  /**
   * The key of this post's send to this network (`post_id:platform`), stable across retries and reconciliation: the
   * network's own idempotency where it has one (Mastodon's Idempotency-Key), a derived id (Slack), the read-back
   * marker. Not the request's idempotency_key, which guards the whole post (shared/app/idempotency.ts).
   */
  send_key: string;
  /** The network's own post kinds (per_platform options), validated at request time. */
  options?: PostOptions;
}

/**
 * per_platform options of the network's own post kinds. Each is accepted only for the networks that
 * support it (shared/app/publish/options.ts); adapters read the ones of their network.
 */
export interface PostOptions {
  /** Reply to an existing post: its URL (or id / at:// URI). x, bluesky, mastodon, telegram, threads. */
  reply_to?: string;
  /** Quote an existing post by URL (or id / at:// URI). x, bluesky. */
  quote?: string;
  /** A link card: `true` = the first link of the text, or the page URL to show. bluesky. */
  link_card?: true | string;
  /** A poll. x. */
  poll?: { options: string[]; duration_minutes: number };
  /** The video as a Reel. facebook. */
  reel?: true;
  /** The image or video as a Story. instagram. */
  story?: true;
  /** A document post (PDF carousel): the PDF link and its title. linkedin. */
  document?: { url: string; title: string };
  /** TikTok's privacy level, one the creator is offered. tiktok. */
  privacy_level?: 'PUBLIC_TO_EVERYONE' | 'MUTUAL_FOLLOW_FRIENDS' | 'FOLLOWER_OF_CREATOR' | 'SELF_ONLY';
  /** A custom thumbnail (JPEG/PNG ≤ 2 MB; youtube) or a video Pin's cover image (pinterest). */
  thumbnail_url?: string;
  /** A playlist of the channel to add the video to. youtube. */
  playlist_id?: string;
  /** The board to pin to (else the connection's default board). pinterest. */
  board_id?: string;
  /** The Pin's destination link. pinterest. */
  link?: string;
  /** An event post: title and local start / end (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`). google_business. */
  event?: { title: string; start: string; end: string };
  /** An offer post (with its event's title and dates). google_business. */
  offer?: { coupon_code?: string; redeem_url?: string; terms?: string };
  /** The post's button. google_business. */
  call_to_action?: { type: 'BOOK' | 'ORDER' | 'SHOP' | 'LEARN_MORE' | 'SIGN_UP' | 'CALL'; url?: string };
  /** The post's one topic tag (1–50 characters, no `.` or `&`). threads. */
  topic_tag?: string;
}

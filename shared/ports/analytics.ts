import type { PlatformName } from '../domain/platforms';
import type { PostAnalytics } from '../domain/analytics';

/** A post's network due for the analytics sweep (enough to read its item). */
export interface AnalyticsDue { account_id: string; brand_id: string; post_id: string; platform: PlatformName; due_at: number }

/** What a fetch wrote: the figures (or the failure) and the next look. */
export type AnalyticsUpdate = Pick<PostAnalytics, 'status'> & Partial<Pick<PostAnalytics, 'metrics' | 'source' | 'fetched_at' | 'error'>> & {
  /** ms; undefined: the sweep never looks again. */
  next_sync_at: number | undefined;
};

/**
 * Stored post analytics (one item per post and network, under the account) and the sweep's due index. Every step
 * that must happen once is a conditional write: tracking a post, and claiming a fetch (one fetch per post and
 * network at a time, and refresh=1 at most once per 15 minutes).
 */
export interface AnalyticsStore {
  /**
   * Starts tracking a published network of a post, due for the sweep at `nextSyncAt` (ms; undefined: never, e.g.
   * a network that offers no analytics); a second call for the same post and network changes nothing.
   */
  track(item: PostAnalytics, nextSyncAt: number | undefined): Promise<void>;
  /** The analytics of these posts' networks (those tracked), in a few batched reads. */
  forPosts(accountId: string, refs: Array<{ post_id: string; platform: PlatformName }>): Promise<PostAnalytics[]>;
  /** The post's analytics, one per tracked network. */
  forPost(accountId: string, postId: string): Promise<PostAnalytics[]>;
  /**
   * Claims a fetch at `nowMs` unless one was made (or claimed) after `notBeforeMs`: answers the item, or undefined
   * when another fetch holds it (or it is not tracked).
   */
  claimFetch(accountId: string, postId: string, platform: PlatformName, nowMs: number, notBeforeMs: number): Promise<PostAnalytics | undefined>;
  /** Writes a fetch's outcome and moves (or takes off) the due index entry. */
  saveFetch(accountId: string, postId: string, platform: PlatformName, update: AnalyticsUpdate): Promise<void>;
  /** Tracked networks whose next_sync_at is at or before `beforeMs`, across accounts, earliest first, at most `limit`. */
  due(beforeMs: number, limit: number): Promise<AnalyticsDue[]>;
  /** The account's analytics of posts published between `fromMs` and `toMs` (inclusive), oldest first. */
  listPublished(accountId: string, fromMs: number, toMs: number): Promise<PostAnalytics[]>;
}

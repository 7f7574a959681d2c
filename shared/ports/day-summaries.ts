import type { PlatformName } from '../domain/platforms';
import type { Metrics } from '../domain/analytics';

/**
 * The Overview's daily aggregate: what the posts created on one UTC day came to, per network. A summary is stored
 * only once its day is over and every network of its posts has settled (a settled result never changes), so a
 * stored summary is final and the Overview reads one small item per day instead of every post.
 */
export interface DaySummary {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Posts created that day. */
  posts: number;
  /** Per network: results published, failed, and not yet settled (queued, sending, scheduled, processing). */
  networks: Partial<Record<PlatformName, { published: number; failed: number; pending: number }>>;
  /** Failed results by result code. */
  failures: Record<string, number>;
}

/**
 * The Overview's daily engagement: the latest figures of the posts published on one UTC day, summed over their
 * networks (a figure stays null while no network offered it). Rewritten whenever the analytics sweep reads a post
 * of that day (shared/app/analytics/engagement-days.ts), so it is as fresh as the sweep.
 */
export interface EngagementDay {
  /** YYYY-MM-DD (UTC) of publishing. */
  day: string;
  /** Post × network pairs with analytics published that day. */
  publications: number;
  metrics: Metrics;
}

/** Stored daily summaries of an account (shared/app/dashboard/overview-charts.ts). */
export interface DaySummaryStore {
  /** The account's stored summaries of days `from` … `to` (YYYY-MM-DD, inclusive), by day. */
  list(accountId: string, from: string, to: string): Promise<DaySummary[]>;
  /** Stores final summaries (writing one again replaces it with the same figures). */
  putAll(accountId: string, summaries: DaySummary[]): Promise<void>;
  /** The account's stored engagement days `from` … `to` (inclusive), by day. */
  listEngagement(accountId: string, from: string, to: string): Promise<EngagementDay[]>;
  /** Stores engagement days (replacing what was stored for those days). */
  putEngagement(accountId: string, days: EngagementDay[]): Promise<void>;
}

import type { PlatformName } from '../domain/platforms';

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

/** Stored daily summaries of an account (shared/app/dashboard/overview-charts.ts). */
export interface DaySummaryStore {
  /** The account's stored summaries of days `from` … `to` (YYYY-MM-DD, inclusive), by day. */
  list(accountId: string, from: string, to: string): Promise<DaySummary[]>;
  /** Stores final summaries (writing one again replaces it with the same figures). */
  putAll(accountId: string, summaries: DaySummary[]): Promise<void>;
}

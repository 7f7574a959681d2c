import type { PlatformName } from './platforms';

/**
 * Post analytics: one normalised set of figures per post and network. Each figure is a number, or null when the
 * network does not offer it (never a made-up 0); `source` names the network's own metric each figure came from.
 */
export const METRIC_NAMES = ['impressions', 'reach', 'likes', 'comments', 'shares', 'quotes', 'saves', 'clicks', 'video_views'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];
export type Metrics = Record<MetricName, number | null>;

/**
 * Where a post's figures stand:
 * - pending: published, not fetched yet;
 * - synced: the figures of `fetched_at`;
 * - failed: the last fetch failed (the figures, if any, are the previous ones; `error` says why);
 * - reauth_required: the connection lost its sign-in (figures resume once reconnected);
 * - not_offered: the network has no analytics API for posts (every figure null);
 * - gone: the network no longer has the post (deleted there).
 */
export const SYNC_STATUSES = ['pending', 'synced', 'failed', 'reauth_required', 'not_offered', 'gone'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** What one fetch of one post read: the figures it offers, and the network's own name of each. */
export interface MetricsReading {
  metrics: Partial<Record<MetricName, number>>;
  source: Partial<Record<MetricName, string>>;
}

/** The stored analytics of one post on one network. */
export interface PostAnalytics {
  post_id: string;
  account_id: string;
  brand_id: string;
  platform: PlatformName;
  /** The post's id on the network (the publish result's id). */
  network_post_id: string;
  url?: string;
  /** When the network accepted the post (ISO UTC): the cadence and the daily series count from it. */
  published_at: string;
  metrics: Metrics;
  /** Our figure name → the network's metric name it was read from. */
  source: Partial<Record<MetricName, string>>;
  status: SyncStatus;
  /** When the figures were read (ISO UTC); absent until the first fetch. */
  fetched_at?: string;
  error?: string;
  /** When the sweep looks again (ISO UTC); absent: never (past 30 days, not offered, or gone). */
  next_sync_at?: string;
  /** When a fetch was last made (ms), sweep or on demand: the 15-minute guard of refresh=1. */
  attempted_at?: number;
}

/** Every figure null: what a network that offers none answers, and what a post has before its first fetch. */
export function emptyMetrics(): Metrics {
  return Object.fromEntries(METRIC_NAMES.map((m) => [m, null])) as Metrics;
}

/** A reading as a full set: figures the network did not give are null. */
export function normalise(reading: MetricsReading): { metrics: Metrics; source: Partial<Record<MetricName, string>> } {
  const metrics = emptyMetrics();
  const source: Partial<Record<MetricName, string>> = {};
  for (const m of METRIC_NAMES) {
    const v = reading.metrics[m];
    if (typeof v === 'number' && Number.isFinite(v)) {
      metrics[m] = v;
      if (reading.source[m]) source[m] = reading.source[m];
    }
  }
  return { metrics, source };
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** "Often": every hour in a post's first 48 hours. */
export const EARLY_WINDOW_MS = 48 * HOUR;
export const EARLY_INTERVAL_MS = HOUR;
/** Then daily until 30 days after publishing, then never. */
export const DAILY_INTERVAL_MS = DAY;
export const SYNC_HORIZON_MS = 30 * DAY;
/** refresh=1 fetches again at most this often per post and network. */
export const REFRESH_MIN_INTERVAL_MS = 15 * 60_000;

/**
 * When the sweep should next fetch a post published at `publishedMs`, after a fetch (or a decision) at `nowMs`:
 * hourly in the first 48 hours, then daily, the last time at 30 days; undefined past that (never again).
 */
export function nextSyncAt(publishedMs: number, nowMs: number): number | undefined {
  const horizon = publishedMs + SYNC_HORIZON_MS;
  if (nowMs >= horizon) return undefined;
  const interval = nowMs - publishedMs < EARLY_WINDOW_MS ? EARLY_INTERVAL_MS : DAILY_INTERVAL_MS;
  return Math.min(nowMs + interval, horizon);
}

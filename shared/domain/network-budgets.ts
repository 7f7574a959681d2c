import type { PlatformName } from './platforms';
import type { PublishContent } from './content';

/**
 * The networks' own publishing quotas, per social account (or per deployment where the network counts per app),
 * so that a post is held before it is sent instead of refused by the network (sources in docs/networks.md
 * "Publishing budgets"). Each window is a rolling one: counted in `buckets` equal parts, the current part
 * taking the new sends and the earlier ones only read, so two workers never pass the limit together.
 */
export interface BudgetWindow {
  /** Names the window in the counter key and in messages ("24h"). */
  name: string;
  windowMs: number;
  limit: number;
  /** Parts the rolling window is counted in (the time a refusal names is exact to one part). */
  buckets: number;
}

export interface NetworkBudget {
  /** What the network counts: per connected account, or once for the whole deployment (one API project). */
  scope: 'connection' | 'deployment';
  /** What one post costs against the limits (e.g. a thread's posts are each a request). */
  cost(content: Pick<PublishContent, 'thread'>): number;
  windows: BudgetWindow[];
  /** The words of a refusal: what is counted. */
  unit: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const NETWORK_BUDGETS: Partial<Record<PlatformName, NetworkBudget>> = {
  // 250 API-published posts per profile in a 24-hour moving period (a carousel counts once)
  threads: { scope: 'connection', cost: () => 1, unit: 'posts', windows: [{ name: '24h', windowMs: 24 * HOUR, limit: 250, buckets: 24 }] },
  // the upload init (/v2/post/publish/video/init/, …/inbox/video/init/): 6 requests per minute per user access token
  tiktok: { scope: 'connection', cost: () => 1, unit: 'upload inits', windows: [{ name: '1m', windowMs: MINUTE, limit: 6, buckets: 6 }] },
  // POST /2/tweets per user: 200 per 15 minutes, and 300 per 3 hours (posts and reposts together); each post of a thread is one
  x: {
    scope: 'connection', cost: (c) => 1 + c.thread.length, unit: 'posts',
    windows: [{ name: '15m', windowMs: 15 * MINUTE, limit: 200, buckets: 15 }, { name: '3h', windowMs: 3 * HOUR, limit: 300, buckets: 12 }],
  },
  // videos.insert has its own bucket of 100 calls a day per Google Cloud project (the deployment's OAuth client),
  // reset at midnight Pacific Time: counted as a rolling 24 h, which never passes it
  youtube: { scope: 'deployment', cost: () => 1, unit: 'video uploads', windows: [{ name: '24h', windowMs: 24 * HOUR, limit: 100, buckets: 24 }] },
};

/** The part of `w` that `nowMs` falls in (its index since the epoch). */
export const bucketOf = (w: BudgetWindow, nowMs: number) => Math.floor(nowMs / (w.windowMs / w.buckets));

/** The indexes of the earlier parts still inside the rolling window at `nowMs`, oldest first. */
export function earlierBuckets(w: BudgetWindow, nowMs: number): number[] {
  const current = bucketOf(w, nowMs);
  return Array.from({ length: w.buckets - 1 }, (_, i) => current - (w.buckets - 1) + i);
}

/**
 * When `amount` more fits into `w`, given the counts of its parts (oldest first, the current one last): the end
 * of the first part whose leaving makes room, i.e. the start of a part plus the window. Answers `nowMs` when it fits.
 */
export function freesAt(w: BudgetWindow, counts: number[], amount: number, nowMs: number): number {
  const size = w.windowMs / w.buckets;
  const first = bucketOf(w, nowMs) - (counts.length - 1);
  let total = counts.reduce((a, b) => a + b, 0);
  if (total + amount <= w.limit) return nowMs;
  for (let i = 0; i < counts.length; i++) {
    total -= counts[i];
    if (total + amount <= w.limit) return (first + i + 1) * size + w.windowMs - size;
  }
  return (first + counts.length) * size + w.windowMs - size;
}

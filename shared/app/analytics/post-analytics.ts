import type { Deps } from '../deps';
import { NotFoundError } from '../../domain/errors';
import { METRIC_NAMES, REFRESH_MIN_INTERVAL_MS, type Metrics, type MetricName, type PostAnalytics, type SyncStatus } from '../../domain/analytics';
import type { PlatformName } from '../../domain/platforms';
import { readBatch, trackPublished, type CollectDeps } from './collect-metrics';

/** One network's analytics as GET /api/posts/{id}/analytics answers it. */
export interface NetworkAnalyticsView {
  platform: PlatformName;
  status: SyncStatus;
  metrics: Metrics;
  /** Our figure name → the network's own metric name. */
  source: Partial<Record<MetricName, string>>;
  fetched_at: string | null;
  next_sync_at: string | null;
  /** When refresh=1 may fetch this network again (ISO); null when it may now. */
  refresh_after: string | null;
  /** True when this request fetched the figures (refresh=1). */
  refreshed: boolean;
  network_post_id: string;
  url: string | null;
  published_at: string;
  error?: string;
}

export interface PostAnalyticsView { post_id: string; brand_id: string; networks: NetworkAnalyticsView[] }

/**
 * A post's analytics per network. A post published before analytics existed is tracked now (from its results).
 * With `refresh`, each network that offers analytics is fetched at once unless it was fetched (by the sweep or a
 * refresh) within 15 minutes: those answer the stored figures with their fetched_at and refresh_after.
 */
export async function getPostAnalytics(deps: CollectDeps & Pick<Deps, 'posts'>, accountId: string, postId: string, opts: { refresh?: boolean } = {}): Promise<PostAnalyticsView> {
  const stored = await deps.posts.get(postId);
  if (!stored || stored.post.account_id !== accountId) throw new NotFoundError(`No post ${postId} in this account`);
  let items = await deps.analytics.forPost(accountId, postId);
  const tracked = new Set(items.map((a) => a.platform));
  const missing = stored.networks.filter((n) => n.state === 'done' && n.result?.ok && n.result.status === 'published' && n.result.id && !tracked.has(n.platform));
  if (missing.length) {
    await Promise.all(missing.map((n) => trackPublished(deps, stored.post, n.result!, Date.parse(stored.post.created_at))));
    items = await deps.analytics.forPost(accountId, postId);
  }
  const refreshed = new Set<PlatformName>();
  if (opts.refresh) {
    const now = deps.clock.now();
    const offered = items.filter((a) => deps.networks[a.platform]?.metrics && a.status !== 'gone');
    const claimed = (await Promise.all(offered.map((a) => deps.analytics.claimFetch(accountId, postId, a.platform, now, now - REFRESH_MIN_INTERVAL_MS))))
      .filter((a): a is PostAnalytics => !!a);
    await Promise.all(claimed.map(async (a) => { if (await readBatch(deps, [a]) !== 'busy') refreshed.add(a.platform); }));
    if (claimed.length) items = await deps.analytics.forPost(accountId, postId);
  }
  const now = deps.clock.now();
  return {
    post_id: postId, brand_id: stored.post.brand_id,
    networks: items.map((a) => view(a, refreshed.has(a.platform), now, !!deps.networks[a.platform]?.metrics)),
  };
}

function view(a: PostAnalytics, refreshed: boolean, now: number, offered: boolean): NetworkAnalyticsView {
  const again = (a.attempted_at ?? 0) + REFRESH_MIN_INTERVAL_MS;
  return {
    platform: a.platform, status: a.status,
    metrics: Object.fromEntries(METRIC_NAMES.map((m) => [m, a.metrics[m] ?? null])) as Metrics,
    source: a.source, fetched_at: a.fetched_at ?? null, next_sync_at: a.next_sync_at ?? null,
    refresh_after: offered && a.status !== 'gone' && again > now ? new Date(again).toISOString() : null,
    refreshed, network_post_id: a.network_post_id, url: a.url ?? null, published_at: a.published_at,
    ...(a.error ? { error: a.error } : {}),
  };
}

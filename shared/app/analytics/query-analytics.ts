import type { Deps } from '../deps';
import { emptyMetrics, METRIC_NAMES, type Metrics, type PostAnalytics } from '../../domain/analytics';
import type { PlatformName } from '../../domain/platforms';
import { BadRequestError } from '../../domain/errors';

/** The filters of GET /api/analytics: a UTC date range (inclusive), optionally one brand and one network. */
export interface AnalyticsFilter {
  /** YYYY-MM-DD (UTC), inclusive. */
  from: string;
  to: string;
  brand_id?: string;
  platform?: PlatformName;
  /** How many top posts (default 10). */
  top?: number;
}

export interface MetricsGroup { posts: number; metrics: Metrics }

/** A post among the top posts: its figures summed over its networks, ranked by engagement. */
export interface TopPost {
  post_id: string;
  brand_id: string;
  published_at: string;
  platforms: PlatformName[];
  /** likes + comments + shares + quotes + saves, over the figures its networks offer. */
  engagement: number;
  metrics: Metrics;
  urls: Partial<Record<PlatformName, string>>;
}

/**
 * What GET /api/analytics answers (and the dashboard charts). Figures are sums over the posts' networks of the
 * figures each network offers: a figure is null only when no network in the group offers it. Posts count by the
 * UTC day they were published; a post's figures are its latest (cumulative) ones.
 */
export interface AnalyticsSummary {
  from: string;
  to: string;
  brand_id: string | null;
  platform: PlatformName | null;
  /** Distinct posts, and post × network pairs (publications). */
  posts: number;
  publications: number;
  totals: Metrics;
  by_network: Array<{ platform: PlatformName } & MetricsGroup>;
  by_brand: Array<{ brand_id: string; brand_name: string | null } & MetricsGroup>;
  /** One row per day, network and brand with publications that day (ascending by date). */
  daily: Array<{ date: string; platform: PlatformName; brand_id: string } & MetricsGroup>;
  top_posts: TopPost[];
}

const ENGAGEMENT = ['likes', 'comments', 'shares', 'quotes', 'saves'] as const;

/** Adds `b`'s figures into `a`: a number plus null stays the number; null only while no one offered it. */
export function addMetrics(a: Metrics, b: Metrics): Metrics {
  for (const m of METRIC_NAMES) {
    const v = b[m];
    if (v !== null) a[m] = (a[m] ?? 0) + v;
  }
  return a;
}

export const engagementOf = (m: Metrics) => ENGAGEMENT.reduce((sum, k) => sum + (m[k] ?? 0), 0);

const DAY = 24 * 3600_000;

/** Totals, a daily series by network and brand, and the top posts of the account's posts published in the range. */
export async function queryAnalytics(deps: Pick<Deps, 'analytics' | 'brands'>, accountId: string, f: AnalyticsFilter): Promise<AnalyticsSummary> {
  const fromMs = Date.parse(`${f.from}T00:00:00.000Z`);
  const toMs = Date.parse(`${f.to}T00:00:00.000Z`) + DAY - 1;
  const [all, brands] = await Promise.all([deps.analytics.listPublished(accountId, fromMs, toMs), deps.brands.list(accountId)]);
  const items = all.filter((a) => (!f.brand_id || a.brand_id === f.brand_id) && (!f.platform || a.platform === f.platform));
  return summarise(items, f, new Map(brands.map((b) => [b.id, b.name])));
}

/** The summary of these analytics items (pure: the bench and the dashboard's tests call it directly). */
export function summarise(items: PostAnalytics[], f: AnalyticsFilter, brandNames: Map<string, string> = new Map()): AnalyticsSummary {
  const group = () => ({ posts: 0, metrics: emptyMetrics() });
  const totals = emptyMetrics();
  const byNetwork = new Map<PlatformName, MetricsGroup>();
  const byBrand = new Map<string, MetricsGroup & { ids: Set<string> }>();
  const daily = new Map<string, { date: string; platform: PlatformName; brand_id: string } & MetricsGroup>();
  const byPost = new Map<string, TopPost>();
  for (const a of items) {
    addMetrics(totals, a.metrics);
    const n = byNetwork.get(a.platform) ?? group();
    n.posts++;
    addMetrics(n.metrics, a.metrics);
    byNetwork.set(a.platform, n);
    const b = byBrand.get(a.brand_id) ?? { ...group(), ids: new Set<string>() };
    b.ids.add(a.post_id);
    addMetrics(b.metrics, a.metrics);
    byBrand.set(a.brand_id, b);
    const date = a.published_at.slice(0, 10);
    const key = `${date}|${a.platform}|${a.brand_id}`;
    const d = daily.get(key) ?? { date, platform: a.platform, brand_id: a.brand_id, ...group() };
    d.posts++;
    addMetrics(d.metrics, a.metrics);
    daily.set(key, d);
    const p = byPost.get(a.post_id) ?? { post_id: a.post_id, brand_id: a.brand_id, published_at: a.published_at, platforms: [], engagement: 0, metrics: emptyMetrics(), urls: {} };
    p.platforms.push(a.platform);
    if (a.url) p.urls[a.platform] = a.url;
    if (a.published_at < p.published_at) p.published_at = a.published_at;
    addMetrics(p.metrics, a.metrics);
    byPost.set(a.post_id, p);
  }
  for (const p of byPost.values()) p.engagement = engagementOf(p.metrics);
  const top = [...byPost.values()]
    .filter((p) => p.engagement > 0 || (p.metrics.impressions ?? 0) > 0)
    .sort((x, y) => y.engagement - x.engagement || (y.metrics.impressions ?? 0) - (x.metrics.impressions ?? 0) || x.post_id.localeCompare(y.post_id))
    .slice(0, f.top ?? 10);
  return {
    from: f.from, to: f.to, brand_id: f.brand_id ?? null, platform: f.platform ?? null,
    posts: byPost.size, publications: items.length, totals,
    by_network: [...byNetwork].map(([platform, g]) => ({ platform, ...g })).sort((x, y) => x.platform.localeCompare(y.platform)),
    by_brand: [...byBrand].map(([brand_id, g]) => ({ brand_id, brand_name: brandNames.get(brand_id) ?? null, posts: g.ids.size, metrics: g.metrics }))
      .sort((x, y) => x.brand_id.localeCompare(y.brand_id)),
    daily: [...daily.values()].sort((x, y) => x.date.localeCompare(y.date) || x.platform.localeCompare(y.platform) || x.brand_id.localeCompare(y.brand_id)),
    top_posts: top,
  };
}

/** The longest date range a query or an export takes (days). */
export const MAX_RANGE_DAYS = 366;

/**
 * The filter of a request's from / to (default: the 30 days ending today, UTC); 400 when `from` is after `to` or
 * the range is longer than MAX_RANGE_DAYS.
 */
export function analyticsFilter(q: { from?: string; to?: string; brand_id?: string; platform?: PlatformName; top?: number }, nowMs: number): AnalyticsFilter {
  const to = q.to ?? new Date(nowMs).toISOString().slice(0, 10);
  const from = q.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY).toISOString().slice(0, 10);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY + 1;
  if (days < 1) throw new BadRequestError(`from (${from}) is after to (${to})`, { details: { field: 'from' } });
  if (days > MAX_RANGE_DAYS) throw new BadRequestError(`The range is ${days} days; at most ${MAX_RANGE_DAYS}`, { details: { field: 'from' } });
  return { from, to, ...(q.brand_id ? { brand_id: q.brand_id } : {}), ...(q.platform ? { platform: q.platform } : {}), ...(q.top !== undefined ? { top: q.top } : {}) };
}

import type { Deps } from '../deps';
import { METRIC_NAMES, type PostAnalytics } from '../../domain/analytics';
import { csvLine } from '../../domain/csv';
import { ulid } from '../../domain/ids';
import type { AnalyticsFilter } from './query-analytics';

export const ANALYTICS_CSV_HEADER = ['post_id', 'published_at', 'brand_id', 'platform', 'status', 'fetched_at', ...METRIC_NAMES, 'url', 'network_post_id'] as const;
/** How long the export's download link works. */
export const ANALYTICS_EXPORT_LINK_SECONDS = 15 * 60;

/** A post's network figures in one CSV cell of the posts export: JSON of the status, fetched_at and the figures offered. */
export function analyticsCell(a: PostAnalytics | undefined): string | null {
  if (!a) return null;
  const figures = Object.fromEntries(METRIC_NAMES.filter((m) => a.metrics[m] !== null && a.metrics[m] !== undefined).map((m) => [m, a.metrics[m]]));
  return JSON.stringify({ status: a.status, fetched_at: a.fetched_at ?? null, ...figures });
}

/** One CSV line per post and network: empty cells where the network does not offer a figure. */
export function analyticsCsvLine(a: PostAnalytics): string {
  return csvLine([a.post_id, a.published_at, a.brand_id, a.platform, a.status, a.fetched_at ?? null, ...METRIC_NAMES.map((m) => a.metrics[m] ?? null), a.url ?? null, a.network_post_id]);
}

/**
 * The analytics CSV export: the figures of the posts published in the range (filtered by brand and network),
 * written to object storage, answered as a short-lived download link.
 */
export async function exportAnalytics(deps: Pick<Deps, 'analytics' | 'blobs' | 'clock'>, accountId: string, f: AnalyticsFilter) {
  const fromMs = Date.parse(`${f.from}T00:00:00.000Z`);
  const toMs = Date.parse(`${f.to}T00:00:00.000Z`) + 24 * 3600_000 - 1;
  const items = (await deps.analytics.listPublished(accountId, fromMs, toMs))
    .filter((a) => (!f.brand_id || a.brand_id === f.brand_id) && (!f.platform || a.platform === f.platform));
  async function* lines() {
    yield csvLine(ANALYTICS_CSV_HEADER);
    for (let i = 0; i < items.length; i += 500) yield items.slice(i, i + 500).map(analyticsCsvLine).join('');
  }
  const now = deps.clock.now();
  const name = `analytics-${f.from}-to-${f.to}.csv`;
  const key = `exports/${accountId}/${ulid(now)}/${name}`;
  const { bytes } = await deps.blobs.putStream(key, lines(), { contentType: 'text/csv; charset=utf-8', downloadName: name });
  return { url: await deps.blobs.presignGet(key, ANALYTICS_EXPORT_LINK_SECONDS, { downloadName: name }), expires_in: ANALYTICS_EXPORT_LINK_SECONDS, bytes, rows: items.length };
}

import type { NetworkMetrics } from '../../ports/networks';
import type { MetricsReading } from '../../domain/analytics';
import { request } from '../http';
import { isRecord } from '../../domain/values';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';
import { bearer } from './oauth';

const METRICS = 'IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK';
const DAY = 86_400_000;
/** Pinterest answers at most 90 days back from today: 89 keeps clear of the edge in every time zone. */
const WINDOW_DAYS = 89;

const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * Pinterest Pin figures (scope pins:read): `GET /v5/pins/{pin_id}/analytics?start_date=<today − 89 d>&end_date=<today>
 * &metric_types=IMPRESSION,SAVE,PIN_CLICK,OUTBOUND_CLICK&app_types=ALL`, one Pin a request. The answer's
 * `all.summary_metrics` over the window (which covers the whole life of a post the sweep still reads, ≤ 30 days):
 * IMPRESSION → impressions, SAVE → saves, PIN_CLICK → clicks (no likes, comments, reach or shares: null;
 * OUTBOUND_CLICK is asked but has no figure of ours). 404 → gone. Pinterest reports with a delay of about a day,
 * so a new Pin's figures start at 0.
 */
export function pinterestMetrics(api: string): NetworkMetrics {
  return {
    batch: 1, spacingMs: 1000,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.access_token ?? '').trim();
      const readings: Record<string, MetricsReading | 'gone'> = {};
      const today = ctx.now();
      for (const r of refs) {
        const params = new URLSearchParams({ start_date: ymd(today - WINDOW_DAYS * DAY), end_date: ymd(today), metric_types: METRICS, app_types: 'ALL' });
        const res = await request(ctx, `${api}/v5/pins/${encodeURIComponent(r.id)}/analytics?${params}`, { headers: bearer(token) });
        if (res.status === 404) { readings[r.id] = 'gone'; continue; }
        if (res.status !== 200 || !isRecord(res.json)) return metricsFailure('pinterest', res);
        const all = isRecord(res.json.all) ? res.json.all : {};
        const s = isRecord(all.summary_metrics) ? all.summary_metrics : {};
        readings[r.id] = reading([['impressions', 'IMPRESSION', s.IMPRESSION], ['saves', 'SAVE', s.SAVE], ['clicks', 'PIN_CLICK', s.PIN_CLICK]]);
      }
      return { ok: true, readings };
    }),
  };
}

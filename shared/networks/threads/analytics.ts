import type { NetworkMetrics } from '../../ports/networks';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';
import { insightValues } from '../insights-values';
import { threadsGet } from './oauth';

/**
 * Threads post analytics (threads_manage_insights): `GET /v1.0/{media-id}/insights?metric=views,likes,replies,reposts,
 * quotes` per post. views → impressions, likes, replies → comments, reposts → shares, quotes (no reach, saves or
 * clicks per post: null). 400/404 on a deleted post → gone. Meta's Threads limit is per profile and generous for
 * reads; one call every 500 ms keeps far below it.
 */
export function threadsMetrics(api: string): NetworkMetrics {
  return {
    batch: 1, spacingMs: 500,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.access_token ?? '').trim();
      const readings: Record<string, ReturnType<typeof reading> | 'gone'> = {};
      for (const r of refs) {
        const res = await threadsGet(ctx, api, `/${encodeURIComponent(r.id)}/insights`, token, { metric: 'views,likes,replies,reposts,quotes' });
        if (res.status === 404) { readings[r.id] = 'gone'; continue; }
        if (res.status !== 200) return metricsFailure('threads', res);
        const v = insightValues(res.json);
        readings[r.id] = reading([['impressions', 'views', v.views], ['likes', 'likes', v.likes], ['comments', 'replies', v.replies], ['shares', 'reposts', v.reposts], ['quotes', 'quotes', v.quotes]]);
      }
      return { ok: true, readings };
    }),
  };
}

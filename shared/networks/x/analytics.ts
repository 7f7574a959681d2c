import type { NetworkMetrics } from '../../ports/networks';
import { request } from '../http';
import { isRecord } from '../../domain/values';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';

/**
 * X post analytics: `GET /2/tweets?ids=<up to 100>&tweet.fields=public_metrics` with the user's token. public_metrics:
 * impression_count → impressions, like_count → likes, reply_count → comments, retweet_count → shares,
 * quote_count → quotes, bookmark_count → saves (reach, clicks and video views are not public metrics: null).
 * A post X no longer has comes back in `errors` (resource-not-found) → gone. Tweet lookup allows 900 requests per
 * 15 minutes per user: one a second.
 */
export function xMetrics(api: string): NetworkMetrics {
  return {
    batch: 100, spacingMs: 1000,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.access_token ?? '').trim();
      const params = new URLSearchParams({ ids: refs.map((r) => r.id).join(','), 'tweet.fields': 'public_metrics' });
      const res = await request(ctx, `${api}/2/tweets?${params}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      if (res.status !== 200 || !isRecord(res.json)) return metricsFailure('x', res);
      const readings: Record<string, ReturnType<typeof reading> | 'gone'> = {};
      for (const t of Array.isArray(res.json.data) ? res.json.data : []) {
        if (!isRecord(t) || typeof t.id !== 'string') continue;
        const m = isRecord(t.public_metrics) ? t.public_metrics : {};
        readings[t.id] = reading([
          ['impressions', 'impression_count', m.impression_count], ['likes', 'like_count', m.like_count], ['comments', 'reply_count', m.reply_count],
          ['shares', 'retweet_count', m.retweet_count], ['quotes', 'quote_count', m.quote_count], ['saves', 'bookmark_count', m.bookmark_count],
        ]);
      }
      for (const e of Array.isArray(res.json.errors) ? res.json.errors : []) {
        if (isRecord(e) && typeof e.resource_id === 'string' && String(e.type ?? '').endsWith('resource-not-found')) readings[e.resource_id] = 'gone';
      }
      return { ok: true, readings };
    }),
  };
}

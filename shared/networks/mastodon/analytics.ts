import type { NetworkMetrics } from '../../ports/networks';
import { request } from '../http';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';
import { field, normaliseInstanceUrl } from './rules';

/**
 * Mastodon post analytics (counts only; Mastodon has no impressions or reach): `GET /api/v1/statuses/:id` per post.
 * favourites_count → likes, replies_count → comments, reblogs_count → shares, quotes_count → quotes (servers from
 * 4.5 on; null before). 404 → gone. Mastodon allows 300 requests per 5 minutes per account: one a second.
 */
export const mastodonMetrics: NetworkMetrics = {
  batch: 1, spacingMs: 1000,
  read: (refs, ctx) => readingMetrics(async () => {
    const base = normaliseInstanceUrl(ctx.credentials.instance_url);
    const token = (ctx.credentials.access_token ?? '').trim();
    if (!base || !token) return { ok: false, kind: 'reauth', error: 'mastodon: the connection has no instance_url or access_token' };
    const readings: Record<string, ReturnType<typeof reading> | 'gone'> = {};
    for (const r of refs) {
      const res = await request(ctx, `${base}/api/v1/statuses/${encodeURIComponent(r.id)}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      if (res.status === 404) { readings[r.id] = 'gone'; continue; }
      if (res.status !== 200) return metricsFailure('mastodon', res);
      const s = res.json;
      readings[r.id] = reading([
        ['likes', 'favourites_count', field(s, 'favourites_count')], ['comments', 'replies_count', field(s, 'replies_count')],
        ['shares', 'reblogs_count', field(s, 'reblogs_count')], ['quotes', 'quotes_count', field(s, 'quotes_count')],
      ]);
    }
    return { ok: true, readings };
  }),
};

import type { NetworkMetrics } from '../../ports/networks';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';
import { insightValues } from '../insights-values';
import { graphGet } from '../facebook/graph';

/**
 * Instagram media insights (instagram_manage_insights): `GET /{media-id}/insights?metric=views,reach,likes,comments,
 * shares,saved` per post. `views` replaced impressions and plays (deprecated for all versions on 21 April 2025), so
 * views → impressions; reach, likes, comments, shares, saved → saves (no quotes or clicks: null). 404 → gone.
 * Page-token calls count against the Business Use Case limit (4,800 × the account's daily impressions per 24 h):
 * one call a second per connection (86,400 a day) stays within it for any account seen 18 times a day; a 429 or
 * error 4/17/32/613 answer is rate_limited and the post is looked at again at its next due time.
 */
export function instagramMetrics(apiBase: string): NetworkMetrics {
  return {
    batch: 1, spacingMs: 1000,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.page_access_token ?? '').trim() || (ctx.credentials.access_token ?? '').trim();
      const readings: Record<string, ReturnType<typeof reading> | 'gone'> = {};
      for (const r of refs) {
        const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(r.id)}/insights`, token, { metric: 'views,reach,likes,comments,shares,saved' });
        if (res.status === 404) { readings[r.id] = 'gone'; continue; }
        if (res.status !== 200) return metricsFailure('instagram', res);
        const v = insightValues(res.json);
        readings[r.id] = reading([['impressions', 'views', v.views], ['reach', 'reach', v.reach], ['likes', 'likes', v.likes], ['comments', 'comments', v.comments], ['shares', 'shares', v.shares], ['saves', 'saved', v.saved]]);
      }
      return { ok: true, readings };
    }),
  };
}

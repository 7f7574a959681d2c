import type { NetworkMetrics } from '../../ports/networks';
import { isRecord } from '../../domain/values';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';
import { insightValues } from '../insights-values';
import { graphGet } from './graph';

const FIELDS = 'shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),insights.metric(post_media_view,post_total_media_view_unique,post_clicks)';

/**
 * Facebook Page post analytics (pages_read_engagement + read_insights): `GET /{post-id}?fields=shares,reactions.summary(
 * total_count).limit(0),comments.summary(total_count).limit(0),insights.metric(post_media_view,post_total_media_view_unique,
 * post_clicks)` with the Page token. The 2025 renames: post_impressions → post_media_view (views) → impressions,
 * post_impressions_unique → post_total_media_view_unique → reach; post_clicks → clicks; reactions → likes;
 * comments; shares.count → shares (Facebook leaves `shares` out when nobody shared: null, not a made-up 0).
 * 404 on a deleted post → gone. Page-token calls count against the Business Use Case limit (4,800 × the Page's
 * daily engaged users per 24 h): one call a second per Page (86,400 a day) stays within it from 18 engaged users a day.
 */
export function facebookMetrics(apiBase: string): NetworkMetrics {
  return {
    batch: 1, spacingMs: 1000,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.page_access_token ?? '').trim();
      const readings: Record<string, ReturnType<typeof reading> | 'gone'> = {};
      for (const r of refs) {
        const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(r.id)}`, token, { fields: FIELDS });
        if (res.status === 404) { readings[r.id] = 'gone'; continue; }
        if (res.status !== 200 || !isRecord(res.json)) return metricsFailure('facebook', res);
        const p = res.json;
        const summary = (k: string) => (isRecord(p[k]) && isRecord((p[k] as Record<string, unknown>).summary) ? ((p[k] as Record<string, unknown>).summary as Record<string, unknown>).total_count : undefined);
        const v = insightValues(p.insights);
        readings[r.id] = reading([
          ['impressions', 'post_media_view', v.post_media_view], ['reach', 'post_total_media_view_unique', v.post_total_media_view_unique],
          ['clicks', 'post_clicks', v.post_clicks], ['likes', 'reactions', summary('reactions')], ['comments', 'comments', summary('comments')],
          ['shares', 'shares', isRecord(p.shares) ? p.shares.count : undefined],
        ]);
      }
      return { ok: true, readings };
    }),
  };
}

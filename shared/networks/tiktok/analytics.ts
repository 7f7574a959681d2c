import type { NetworkMetrics } from '../../ports/networks';
import type { MetricsReading } from '../../domain/analytics';
import { request } from '../http';
import { isRecord } from '../../domain/values';
import { reading, readingMetrics } from '../metrics-support';
import { tiktokJson } from './oauth';
import { succeeded, tiktokFailure } from './rules';

const FIELDS = 'id,view_count,like_count,comment_count,share_count';

/**
 * TikTok video figures (scope video.list): `POST /v2/video/query/?fields=id,view_count,like_count,comment_count,
 * share_count` {filters: {video_ids: [≤ 20]}} with the user's token. view_count → video_views, like_count → likes,
 * comment_count → comments, share_count → shares (no impressions, reach, saves or clicks: null). Only published
 * videos are asked: a photo post (its link says /photo/) or a publish still known by its publish_id (not all digits)
 * gets no figures. A video the answer leaves out gets none either (TikTok lists the user's videos it can show, so
 * absence is not proof of deletion): the sweep records it as failed and looks again at its next due time.
 * TikTok allows 600 video queries a minute per app (sliding window): one every 100 ms for the whole installation.
 */
export function tiktokMetrics(api: string): NetworkMetrics {
  return {
    batch: 20, spacingMs: 1000, appSpacingMs: 100,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.access_token ?? '').trim();
      const videos = refs.filter((r) => /^\d{1,25}$/.test(r.id) && !/\/photo\//.test(r.url ?? ''));
      const readings: Record<string, MetricsReading | 'gone'> = {};
      if (!videos.length) return { ok: true, readings };
      const res = await request(ctx, `${api}/v2/video/query/?fields=${FIELDS}`, tiktokJson({ filters: { video_ids: videos.map((r) => r.id) } }, token));
      if (!succeeded(res)) return tiktokFailure(res, 'video query', ctx.now());
      const data = isRecord(res.json) && isRecord(res.json.data) ? res.json.data : {};
      for (const v of Array.isArray(data.videos) ? data.videos : []) {
        if (!isRecord(v) || typeof v.id !== 'string') continue;
        readings[v.id] = reading([['video_views', 'view_count', v.view_count], ['likes', 'like_count', v.like_count], ['comments', 'comment_count', v.comment_count], ['shares', 'share_count', v.share_count]]);
      }
      return { ok: true, readings };
    }),
  };
}

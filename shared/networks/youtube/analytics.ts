import type { NetworkMetrics } from '../../ports/networks';
import { request } from '../http';
import { isRecord } from '../../domain/values';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';

/**
 * YouTube video figures (youtube.readonly): `GET /youtube/v3/videos?part=statistics&id=<up to 50>` (1 quota unit a
 * call). statistics.viewCount → video_views, likeCount → likes, commentCount → comments (strings of digits; a count
 * the owner hid is absent: null). A video missing from `items` was deleted → gone. The default quota is 10,000
 * units a day per project, shared with uploads (about 1,600 a video): the whole installation's reads are spaced
 * 8.64 s apart, so analytics alone can never pass 10,000 calls a day (50 videos a call).
 */
export function youtubeMetrics(api: string): NetworkMetrics {
  return {
    batch: 50, spacingMs: 200, appSpacingMs: 8_640,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.access_token ?? '').trim();
      const params = new URLSearchParams({ part: 'statistics', id: refs.map((r) => r.id).join(','), maxResults: '50' });
      const res = await request(ctx, `${api}/youtube/v3/videos?${params}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      if (res.status !== 200 || !isRecord(res.json)) return metricsFailure('youtube', res);
      const readings: Record<string, ReturnType<typeof reading> | 'gone'> = Object.fromEntries(refs.map((r) => [r.id, 'gone' as const]));
      for (const v of Array.isArray(res.json.items) ? res.json.items : []) {
        if (!isRecord(v) || typeof v.id !== 'string') continue;
        const s = isRecord(v.statistics) ? v.statistics : {};
        readings[v.id] = reading([['video_views', 'viewCount', s.viewCount], ['likes', 'likeCount', s.likeCount], ['comments', 'commentCount', s.commentCount]]);
      }
      return { ok: true, readings };
    }),
  };
}

import type { NetworkMetrics } from '../../ports/networks';
import { request } from '../http';
import { isRecord } from '../../domain/values';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';

const PAGE = 1000;

/**
 * dev.to article figures: `GET /api/articles/me/all?per_page=1000&page=N` (api-key header) lists the author's
 * articles with page_views_count → impressions (views), public_reactions_count → likes, comments_count → comments
 * (no reach, shares or saves: null). Pages are read until every asked article is found or a page comes back short;
 * an article that is not listed was deleted → gone. One call a second per key (Forem's limit is about 30 per 30 s).
 */
export function devtoMetrics(base: string): NetworkMetrics {
  return {
    batch: 200, spacingMs: 1000,
    read: (refs, ctx) => readingMetrics(async () => {
      const apiKey = (ctx.credentials.api_key ?? '').trim();
      const wanted = new Set(refs.map((r) => r.id));
      const readings: Record<string, ReturnType<typeof reading> | 'gone'> = {};
      for (let page = 1; page <= 20 && wanted.size; page++) {
        const res = await request(ctx, `${base}/api/articles/me/all?per_page=${PAGE}&page=${page}`, { headers: { 'api-key': apiKey, accept: 'application/vnd.forem.api-v1+json' } });
        if (res.status !== 200 || !Array.isArray(res.json)) return metricsFailure('devto', res);
        for (const a of res.json) {
          if (!isRecord(a) || !wanted.has(String(a.id))) continue;
          wanted.delete(String(a.id));
          readings[String(a.id)] = reading([['impressions', 'page_views_count', a.page_views_count], ['likes', 'public_reactions_count', a.public_reactions_count], ['comments', 'comments_count', a.comments_count]]);
        }
        if (res.json.length < PAGE) break;
      }
      for (const id of wanted) readings[id] = 'gone';
      return { ok: true, readings };
    }),
  };
}

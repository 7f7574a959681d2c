import type { NetworkMetrics } from '../../ports/networks';
import { request } from '../http';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';
import { field, openSession, str, type SessionCache } from './xrpc';

/**
 * Bluesky post analytics (counts only; Bluesky has no impressions or reach): a session, then
 * `GET /xrpc/app.bsky.feed.getPosts?uris=<at-uri>&uris=…` (up to 25). likeCount → likes, replyCount → comments,
 * repostCount → shares, quoteCount → quotes. A uri missing from the answer is a deleted post → gone. The PDS allows
 * 3,000 requests per 5 minutes: one every 100 ms.
 */
export function blueskyMetrics(base: string, sessions: SessionCache): NetworkMetrics {
  return {
    batch: 25, spacingMs: 100,
    read: (refs, ctx) => readingMetrics(async () => {
      const session = await openSession(ctx, base, sessions);
      if (!session.ok) return session;
      const params = new URLSearchParams();
      for (const r of refs) params.append('uris', r.id);
      const res = await request(ctx, `${base}/xrpc/app.bsky.feed.getPosts?${params}`, { headers: { authorization: `Bearer ${session.accessJwt}`, accept: 'application/json' } });
      const posts = field(res.json, 'posts');
      if (res.status !== 200 || !Array.isArray(posts)) return metricsFailure('bluesky', res);
      const readings: Record<string, ReturnType<typeof reading> | 'gone'> = Object.fromEntries(refs.map((r) => [r.id, 'gone' as const]));
      for (const p of posts) {
        const uri = str(field(p, 'uri'));
        if (!uri) continue;
        readings[uri] = reading([
          ['likes', 'likeCount', field(p, 'likeCount')], ['comments', 'replyCount', field(p, 'replyCount')],
          ['shares', 'repostCount', field(p, 'repostCount')], ['quotes', 'quoteCount', field(p, 'quoteCount')],
        ]);
      }
      return { ok: true, readings };
    }),
  };
}

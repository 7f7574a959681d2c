import type { NetworkMetrics } from '../../ports/networks';
import { request } from '../http';
import { isRecord } from '../../domain/values';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';

/**
 * Reddit post figures (read scope): `GET /api/info?id=t3_a,t3_b` (up to 100 fullnames) on oauth.reddit.com.
 * score → likes (Reddit shows the net score, not separate up and down votes: `source` says so), num_comments →
 * comments; nothing else is offered (null). A post missing from the listing or marked removed_by_category is gone.
 * Reddit allows 100 queries a minute per OAuth client id: one every 600 ms, for the whole installation.
 */
export function redditMetrics(apiBase: string, userAgent: string): NetworkMetrics {
  return {
    batch: 100, spacingMs: 600, appSpacingMs: 600,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.access_token ?? '').trim();
      const ids = refs.map((r) => (r.id.startsWith('t3_') ? r.id : `t3_${r.id}`));
      const res = await request(ctx, `${apiBase}/api/info?${new URLSearchParams({ id: ids.join(','), raw_json: '1' })}`, {
        headers: { authorization: `Bearer ${token}`, 'user-agent': userAgent, accept: 'application/json' },
      });
      const children = isRecord(res.json) && isRecord(res.json.data) && Array.isArray(res.json.data.children) ? res.json.data.children : undefined;
      if (res.status !== 200 || !children) return metricsFailure('reddit', res);
      const byName = new Map<string, Record<string, unknown>>();
      for (const c of children) if (isRecord(c) && isRecord(c.data) && typeof c.data.name === 'string') byName.set(c.data.name, c.data);
      const readings: Record<string, ReturnType<typeof reading> | 'gone'> = {};
      refs.forEach((r, i) => {
        const d = byName.get(ids[i]);
        readings[r.id] = !d || d.removed_by_category ? 'gone' : reading([['likes', 'score', d.score], ['comments', 'num_comments', d.num_comments]]);
      });
      return { ok: true, readings };
    }),
  };
}

import type { NetworkMetrics } from '../../ports/networks';
import type { MetricsReading } from '../../domain/analytics';
import { isRecord } from '../../domain/values';
import { reading, readingMetrics } from '../metrics-support';
import { gql, gqlFailure } from './gql';

/** The figures query for posts p0…pN (aliases of `post(id:)`, ids as variables): one request for a batch. */
function postFiguresQuery(count: number): string {
  const vars = Array.from({ length: count }, (_, i) => `$p${i}: ID!`).join(', ');
  const fields = Array.from({ length: count }, (_, i) => `p${i}: post(id: $p${i}) { id views reactionCount responseCount }`).join(' ');
  return `query PostFigures(${vars}) { ${fields} }`;
}

/**
 * Hashnode post figures (the account's Personal Access Token): one GraphQL query with an alias per post,
 * `pN: post(id: $pN) { id views reactionCount responseCount }` (schema of Hashnode/gql-skill: Post.views Int (nullable),
 * reactionCount Int!, responseCount Int!). views → impressions, reactionCount → likes, responseCount → comments (no
 * reach, shares, saves or clicks: null). A post the query answers null for was deleted → gone. Drafts (published as
 * https://hashnode.com/draft/<id>) have no figures and are not asked. Hashnode publishes targets of 20,000
 * queries a minute and does not enforce them; one query a second per token.
 */
export function hashnodeMetrics(apiBase: string): NetworkMetrics {
  return {
    batch: 20, spacingMs: 1000,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.token ?? '').trim();
      const posts = refs.filter((r) => /^[0-9a-f]{24}$/i.test(r.id) && !/hashnode\.com\/draft\//.test(r.url ?? ''));
      const readings: Record<string, MetricsReading | 'gone'> = {};
      if (!posts.length) return { ok: true, readings };
      const answer = await gql(apiBase, ctx, token, postFiguresQuery(posts.length), Object.fromEntries(posts.map((r, i) => [`p${i}`, r.id])));
      if (answer.res.status !== 200 || answer.errors.length || !answer.data) return gqlFailure(answer, 'the post figures query');
      posts.forEach((r, i) => {
        const p = answer.data![`p${i}`];
        readings[r.id] = isRecord(p)
          ? reading([['impressions', 'views', p.views], ['likes', 'reactionCount', p.reactionCount], ['comments', 'responseCount', p.responseCount]])
          : 'gone';
      });
      return { ok: true, readings };
    }),
  };
}

import type { MetricsAnswer, NetworkContext, NetworkMetrics, PublishedRef } from '../../ports/networks';
import type { MetricName, MetricsReading } from '../../domain/analytics';
import { request, type HttpResult } from '../http';
import { isRecord } from '../../domain/values';
import { metricsFailure, reading, readingMetrics } from '../metrics-support';

/** memberCreatorPostAnalytics query types read per member post, and the figure each fills. */
const MEMBER_METRICS: Array<[MetricName, string]> = [
  ['impressions', 'IMPRESSION'], ['reach', 'MEMBERS_REACHED'], ['likes', 'REACTION'], ['comments', 'COMMENT'], ['shares', 'RESHARE'], ['saves', 'POST_SAVE'],
];

/** The `entity` of a member post: a Rest.li union keyed by the URN's type (share or ugcPost), the URN encoded. */
function entityParam(urn: string): string | undefined {
  const type = /^urn:li:(share|ugcPost):\d+$/.exec(urn)?.[1];
  return type ? `(${type}:${encodeURIComponent(urn)})` : undefined;
}

const sumCounts = (body: unknown): number | undefined => {
  const elements = isRecord(body) && Array.isArray(body.elements) ? body.elements : undefined;
  if (!elements) return undefined;
  let total = 0;
  for (const e of elements) {
    if (!isRecord(e) || typeof e.count !== 'number' || !Number.isFinite(e.count)) return undefined;
    total += e.count;
  }
  return total;
};

/**
 * LinkedIn post analytics, by the connection's author:
 * - a member (`urn:li:person:…`, scope r_member_postAnalytics, asked only with LINKEDIN_POST_ANALYTICS: without it
 *   a member's posts are not_offered, no call made): `GET /rest/memberCreatorPostAnalytics?q=entity&entity=
 *   (share:<urn>)&queryType=<metric>&aggregation=TOTAL`, one request per metric (IMPRESSION → impressions,
 *   MEMBERS_REACHED → reach, REACTION → likes, COMMENT → comments, RESHARE → shares, POST_SAVE → saves; clicks and
 *   quotes are not offered: null); a metric LinkedIn answers without a count stays null;
 * - a page (`urn:li:organization:…`, rw_organization_admin): `GET /rest/organizationalEntityShareStatistics?q=
 *   organizationalEntity&organizationalEntity=<org>&shares=List(…)&ugcPosts=List(…)` for up to 20 posts at once,
 *   totalShareStatistics impressionCount → impressions, uniqueImpressionsCount → reach, clickCount → clicks,
 *   likeCount → likes, commentCount → comments, shareCount → shares.
 * Headers as for a publish (Bearer, LinkedIn-Version, X-Restli-Protocol-Version 2.0.0). 404 on a post → gone.
 */
export function linkedinMetrics(apiBase: string, version: string, memberAnalytics: boolean): NetworkMetrics {
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0', accept: 'application/json' });

  async function member(refs: PublishedRef[], ctx: NetworkContext, token: string): Promise<MetricsAnswer> {
    const readings: Record<string, MetricsReading | 'gone' | 'not_offered'> = {};
    for (const r of refs) {
      const entity = entityParam(r.id);
      if (!entity) continue;
      const triples: Array<[MetricName, string, unknown]> = [];
      let gone = false;
      for (const [ours, theirs] of MEMBER_METRICS) {
        const res: HttpResult = await request(ctx, `${apiBase}/rest/memberCreatorPostAnalytics?q=entity&entity=${entity}&queryType=${theirs}&aggregation=TOTAL`, { headers: headers(token) });
        if (res.status === 404) { gone = true; break; }
        if (res.status !== 200) return metricsFailure('linkedin', res);
        triples.push([ours, theirs, sumCounts(res.json)]);
      }
      readings[r.id] = gone ? 'gone' : reading(triples);
    }
    return { ok: true, readings };
  }

  async function organization(refs: PublishedRef[], ctx: NetworkContext, token: string, org: string): Promise<MetricsAnswer> {
    const list = (type: string) => refs.filter((r) => r.id.startsWith(`urn:li:${type}:`)).map((r) => encodeURIComponent(r.id));
    const shares = list('share');
    const ugcPosts = list('ugcPost');
    const params = [`q=organizationalEntity`, `organizationalEntity=${encodeURIComponent(org)}`];
    if (shares.length) params.push(`shares=List(${shares.join(',')})`);
    if (ugcPosts.length) params.push(`ugcPosts=List(${ugcPosts.join(',')})`);
    const res = await request(ctx, `${apiBase}/rest/organizationalEntityShareStatistics?${params.join('&')}`, { headers: headers(token) });
    if (res.status !== 200 || !isRecord(res.json)) return metricsFailure('linkedin', res);
    const readings: Record<string, MetricsReading | 'gone' | 'not_offered'> = {};
    for (const e of Array.isArray(res.json.elements) ? res.json.elements : []) {
      if (!isRecord(e)) continue;
      const id = typeof e.share === 'string' ? e.share : typeof e.ugcPost === 'string' ? e.ugcPost : undefined;
      const s = isRecord(e.totalShareStatistics) ? e.totalShareStatistics : undefined;
      if (!id || !s) continue;
      readings[id] = reading([
        ['impressions', 'impressionCount', s.impressionCount], ['reach', 'uniqueImpressionsCount', s.uniqueImpressionsCount], ['clicks', 'clickCount', s.clickCount],
        ['likes', 'likeCount', s.likeCount], ['comments', 'commentCount', s.commentCount], ['shares', 'shareCount', s.shareCount],
      ]);
    }
    return { ok: true, readings };
  }

  return {
    batch: 10, spacingMs: 5000,
    read: (refs, ctx) => readingMetrics(async () => {
      const token = (ctx.credentials.access_token ?? '').trim();
      const author = (ctx.credentials.author_urn ?? '').trim();
      if (author.startsWith('urn:li:organization:')) return organization(refs, ctx, token, author);
      if (!memberAnalytics) return { ok: true, readings: Object.fromEntries(refs.map((r) => [r.id, 'not_offered' as const])) };
      return member(refs, ctx, token);
    }),
  };
}

import { testContext } from '../networks/context';
import { ManualClock } from '../support/clock';
import { normalise } from '../../shared/domain/analytics';
import type { MetricsAnswer, NetworkMetrics } from '../../shared/ports/networks';
import { xMetrics } from '../../shared/networks/x/analytics';
import { mastodonMetrics } from '../../shared/networks/mastodon/analytics';
import { threadsMetrics } from '../../shared/networks/threads/analytics';
import { instagramMetrics } from '../../shared/networks/instagram/analytics';
import { facebookMetrics } from '../../shared/networks/facebook/analytics';
import { youtubeMetrics } from '../../shared/networks/youtube/analytics';
import { redditMetrics } from '../../shared/networks/reddit/analytics';
import { devtoMetrics } from '../../shared/networks/devto/analytics';
import { blueskyMetrics } from '../../shared/networks/bluesky/analytics';
import { linkedinMetrics } from '../../shared/networks/linkedin/analytics';
import { tiktokMetrics } from '../../shared/networks/tiktok/analytics';
import { pinterestMetrics } from '../../shared/networks/pinterest/analytics';
import { hashnodeMetrics } from '../../shared/networks/hashnode/analytics';
import { SessionCache } from '../../shared/networks/bluesky/xrpc';
import { buildRegistry } from '../../shared/networks/registry';
import { parseConfig } from '../../shared/config';

/**
 * Each network's metrics read against a fake of its API (a recording fetch answering the network's own shapes):
 * the exact request, and the normalised figures with null where the network does not offer one.
 */
interface Seen { method: string; url: string; headers: Record<string, string>; body?: unknown }

function headersOf(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h).forEach((v, k) => { out[k] = v; });
  return out;
}

function fakeNetwork(answer: (url: URL) => { status?: number; body: unknown }) {
  const seen: Seen[] = [];
  const fetch = (async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    seen.push({ method: init?.method ?? 'GET', url: url.toString(), headers: headersOf(init?.headers), ...(typeof init?.body === 'string' ? { body: JSON.parse(init.body) as unknown } : {}) });
    const a = answer(url);
    return new Response(JSON.stringify(a.body), { status: a.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { seen, fetch };
}

async function read(m: NetworkMetrics, credentials: Record<string, string>, ids: Array<string | { id: string; url: string }>, answer: (url: URL) => { status?: number; body: unknown }, now?: number) {
  const net = fakeNetwork(answer);
  const { ctx } = testContext(credentials, now === undefined ? {} : { clock: new ManualClock(now, { sleeps: 'instant' }) });
  ctx.fetch = net.fetch;
  const out = await m.read(ids.map((id) => (typeof id === 'string' ? { id } : id)), ctx);
  return { out, seen: net.seen };
}

const figures = (out: MetricsAnswer, id: string) => {
  if (!out.ok) throw new Error(`failed: ${out.error}`);
  const r = out.readings[id];
  if (typeof r === 'string' || !r) return r;
  return normalise(r);
};

describe('post analytics per network: the request and the normalised figures', () => {
  it('x: GET /2/tweets?ids&tweet.fields=public_metrics, one request for many posts; a missing post is gone', async () => {
    const { out, seen } = await read(xMetrics('https://api.x.test'), { access_token: 'tok' }, ['11', '12'], () => ({
      body: {
        data: [{ id: '11', text: 'hi', public_metrics: { retweet_count: 2, reply_count: 3, like_count: 40, quote_count: 1, bookmark_count: 5, impression_count: 900 } }],
        errors: [{ resource_id: '12', type: 'https://api.twitter.com/2/problems/resource-not-found' }],
      },
    }));
    expect(seen).toEqual([{ method: 'GET', url: 'https://api.x.test/2/tweets?ids=11%2C12&tweet.fields=public_metrics', headers: expect.objectContaining({ authorization: 'Bearer tok' }) }]);
    expect(figures(out, '11')).toEqual({
      metrics: { impressions: 900, reach: null, likes: 40, comments: 3, shares: 2, quotes: 1, saves: 5, clicks: null, video_views: null },
      source: { impressions: 'impression_count', likes: 'like_count', comments: 'reply_count', shares: 'retweet_count', quotes: 'quote_count', saves: 'bookmark_count' },
    });
    expect(figures(out, '12')).toBe('gone');
  });

  it('bluesky: a session, then app.bsky.feed.getPosts?uris=…; counts only (no impressions: null)', async () => {
    const uri = 'at://did:plc:alice/app.bsky.feed.post/rkey1';
    const { out, seen } = await read(blueskyMetrics('https://pds.test', new SessionCache()), { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' }, [uri, `${uri}x`], (url) =>
      url.pathname.endsWith('createSession')
        ? { body: { did: 'did:plc:alice', handle: 'alice.test', accessJwt: 'jwt', refreshJwt: 'r' } }
        : { body: { posts: [{ uri, likeCount: 7, repostCount: 2, replyCount: 1, quoteCount: 0 }] } });
    expect(seen[1]).toEqual({ method: 'GET', url: `https://pds.test/xrpc/app.bsky.feed.getPosts?uris=${encodeURIComponent(uri)}&uris=${encodeURIComponent(`${uri}x`)}`, headers: expect.objectContaining({ authorization: 'Bearer jwt' }) });
    expect(figures(out, uri)).toEqual({
      metrics: { impressions: null, reach: null, likes: 7, comments: 1, shares: 2, quotes: 0, saves: null, clicks: null, video_views: null },
      source: { likes: 'likeCount', comments: 'replyCount', shares: 'repostCount', quotes: 'quoteCount' },
    });
    expect(figures(out, `${uri}x`)).toBe('gone');
  });

  it('mastodon: GET /api/v1/statuses/:id; quotes_count absent on older servers stays null; 404 is gone', async () => {
    const { out, seen } = await read(mastodonMetrics, { instance_url: 'https://m.test', access_token: 'tok' }, ['5', '6'], (url) =>
      url.pathname.endsWith('/6') ? { status: 404, body: { error: 'Record not found' } } : { body: { id: '5', favourites_count: 9, reblogs_count: 4, replies_count: 2 } });
    expect(seen.map((s) => s.url)).toEqual(['https://m.test/api/v1/statuses/5', 'https://m.test/api/v1/statuses/6']);
    expect(seen[0].headers.authorization).toBe('Bearer tok');
    expect(figures(out, '5')).toEqual({ metrics: expect.objectContaining({ likes: 9, shares: 4, comments: 2, quotes: null, impressions: null }), source: { likes: 'favourites_count', shares: 'reblogs_count', comments: 'replies_count' } });
    expect(figures(out, '6')).toBe('gone');
  });

  it('threads: GET /v1.0/{id}/insights?metric=views,likes,replies,reposts,quotes', async () => {
    const { out, seen } = await read(threadsMetrics('https://graph.threads.test'), { access_token: 'tok', threads_user_id: 'u1' }, ['t1'], () => ({
      body: { data: [{ name: 'views', period: 'lifetime', values: [{ value: 120 }] }, { name: 'likes', values: [{ value: 8 }] }, { name: 'replies', values: [{ value: 2 }] }, { name: 'reposts', values: [{ value: 1 }] }, { name: 'quotes', values: [{ value: 0 }] }] },
    }));
    expect(seen[0].url).toBe('https://graph.threads.test/v1.0/t1/insights?metric=views%2Clikes%2Creplies%2Creposts%2Cquotes&access_token=tok');
    expect(figures(out, 't1')).toEqual({
      metrics: { impressions: 120, reach: null, likes: 8, comments: 2, shares: 1, quotes: 0, saves: null, clicks: null, video_views: null },
      source: { impressions: 'views', likes: 'likes', comments: 'replies', shares: 'reposts', quotes: 'quotes' },
    });
  });

  it('instagram: GET /{media}/insights?metric=views,reach,likes,comments,shares,saved (views replaced impressions and plays)', async () => {
    const { out, seen } = await read(instagramMetrics('https://graph.fb.test'), { page_access_token: 'ptok', ig_user_id: '1' }, ['m1'], () => ({
      body: { data: ['views', 'reach', 'likes', 'comments', 'shares', 'saved'].map((name, i) => ({ name, period: 'lifetime', values: [{ value: 100 - i }] })) },
    }));
    expect(seen[0].url).toMatch(/^https:\/\/graph\.fb\.test\/v\d+\.0\/m1\/insights\?metric=views%2Creach%2Clikes%2Ccomments%2Cshares%2Csaved&access_token=ptok$/);
    expect(figures(out, 'm1')).toEqual({
      metrics: { impressions: 100, reach: 99, likes: 98, comments: 97, shares: 96, quotes: null, saves: 95, clicks: null, video_views: null },
      source: { impressions: 'views', reach: 'reach', likes: 'likes', comments: 'comments', shares: 'shares', saves: 'saved' },
    });
  });

  it('facebook: the post with reactions, comments, shares and the 2025 view insights; shares left out by Facebook stays null', async () => {
    const { out, seen } = await read(facebookMetrics('https://graph.fb.test'), { page_access_token: 'ptok', page_id: 'p' }, ['p_1'], () => ({
      body: {
        id: 'p_1', reactions: { data: [], summary: { total_count: 12 } }, comments: { data: [], summary: { total_count: 3 } },
        insights: { data: [{ name: 'post_media_view', values: [{ value: 500 }] }, { name: 'post_total_media_view_unique', values: [{ value: 410 }] }, { name: 'post_clicks', values: [{ value: 30 }] }] },
      },
    }));
    const url = new URL(seen[0].url);
    expect(url.pathname).toMatch(/^\/v\d+\.0\/p_1$/);
    expect(url.searchParams.get('fields')).toBe('shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),insights.metric(post_media_view,post_total_media_view_unique,post_clicks)');
    expect(url.searchParams.get('access_token')).toBe('ptok');
    expect(figures(out, 'p_1')).toEqual({
      metrics: { impressions: 500, reach: 410, likes: 12, comments: 3, shares: null, quotes: null, saves: null, clicks: 30, video_views: null },
      source: { impressions: 'post_media_view', reach: 'post_total_media_view_unique', likes: 'reactions', comments: 'comments', clicks: 'post_clicks' },
    });
  });

  it('youtube: GET /youtube/v3/videos?part=statistics&id=a,b; counts as strings; a hidden like count stays null; a missing video is gone', async () => {
    const { out, seen } = await read(youtubeMetrics('https://yt.test'), { access_token: 'tok' }, ['v1', 'v2'], () => ({
      body: { items: [{ id: 'v1', statistics: { viewCount: '1234', commentCount: '5', favoriteCount: '0' } }] },
    }));
    expect(seen[0].url).toBe('https://yt.test/youtube/v3/videos?part=statistics&id=v1%2Cv2&maxResults=50');
    expect(figures(out, 'v1')).toEqual({ metrics: expect.objectContaining({ video_views: 1234, comments: 5, likes: null, impressions: null }), source: { video_views: 'viewCount', comments: 'commentCount' } });
    expect(figures(out, 'v2')).toBe('gone');
  });

  it('reddit: GET /api/info?id=t3_… (score → likes, num_comments → comments); a removed post is gone', async () => {
    const { out, seen } = await read(redditMetrics('https://oauth.reddit.test', 'ua/1.0'), { access_token: 'tok' }, ['t3_a', 't3_b'], () => ({
      body: { kind: 'Listing', data: { children: [{ kind: 't3', data: { name: 't3_a', score: 17, num_comments: 4 } }, { kind: 't3', data: { name: 't3_b', score: 1, removed_by_category: 'moderator' } }] } },
    }));
    expect(seen[0]).toEqual({ method: 'GET', url: 'https://oauth.reddit.test/api/info?id=t3_a%2Ct3_b&raw_json=1', headers: expect.objectContaining({ authorization: 'Bearer tok', 'user-agent': 'ua/1.0' }) });
    expect(figures(out, 't3_a')).toEqual({ metrics: expect.objectContaining({ likes: 17, comments: 4, impressions: null, shares: null }), source: { likes: 'score', comments: 'num_comments' } });
    expect(figures(out, 't3_b')).toBe('gone');
  });

  it('devto: GET /api/articles/me/all (views, reactions, comments); an article not listed is gone', async () => {
    const { out, seen } = await read(devtoMetrics('https://dev.test'), { api_key: 'k' }, ['42', '43'], () => ({
      body: [{ id: 42, page_views_count: 300, public_reactions_count: 12, comments_count: 2 }],
    }));
    expect(seen).toEqual([{ method: 'GET', url: 'https://dev.test/api/articles/me/all?per_page=1000&page=1', headers: expect.objectContaining({ 'api-key': 'k' }) }]);
    expect(figures(out, '42')).toEqual({ metrics: expect.objectContaining({ impressions: 300, likes: 12, comments: 2, shares: null, saves: null }), source: { impressions: 'page_views_count', likes: 'public_reactions_count', comments: 'comments_count' } });
    expect(figures(out, '43')).toBe('gone');
  });

  it('linkedin member: memberCreatorPostAnalytics per metric (q=entity, aggregation=TOTAL, version headers); a metric without a count stays null; 404 is gone', async () => {
    const urn = 'urn:li:share:7000000000000001';
    const counts: Record<string, unknown> = { IMPRESSION: 1200, MEMBERS_REACHED: 800, REACTION: 40, COMMENT: 6, RESHARE: 3 };
    const { out, seen } = await read(linkedinMetrics('https://li.test', '202607', true), { access_token: 'tok', author_urn: 'urn:li:person:abc' }, [urn, 'urn:li:share:7000000000000002'], (url) => {
      if (url.searchParams.get('entity')?.includes('7000000000000002')) return { status: 404, body: { status: 404, message: 'Not found' } };
      const q = url.searchParams.get('queryType')!;
      return { body: { paging: { start: 0, count: 10 }, elements: q in counts ? [{ count: counts[q], metricType: { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': q } }] : [{}] } };
    });
    expect(seen.slice(0, 6).map((s) => s.url)).toEqual(['IMPRESSION', 'MEMBERS_REACHED', 'REACTION', 'COMMENT', 'RESHARE', 'POST_SAVE'].map((q) =>
      `https://li.test/rest/memberCreatorPostAnalytics?q=entity&entity=(share:${encodeURIComponent(urn)})&queryType=${q}&aggregation=TOTAL`));
    expect(seen[0].headers).toMatchObject({ authorization: 'Bearer tok', 'linkedin-version': '202607', 'x-restli-protocol-version': '2.0.0' });
    expect(figures(out, urn)).toEqual({
      metrics: { impressions: 1200, reach: 800, likes: 40, comments: 6, shares: 3, quotes: null, saves: null, clicks: null, video_views: null },
      source: { impressions: 'IMPRESSION', reach: 'MEMBERS_REACHED', likes: 'REACTION', comments: 'COMMENT', shares: 'RESHARE' },
    });
    expect(figures(out, 'urn:li:share:7000000000000002')).toBe('gone');
  });

  it('linkedin page: one organizationalEntityShareStatistics request for the batch (shares and ugcPosts lists)', async () => {
    const share = 'urn:li:share:7000000000000003';
    const ugc = 'urn:li:ugcPost:7000000000000004';
    const { out, seen } = await read(linkedinMetrics('https://li.test', '202607', true), { access_token: 'tok', author_urn: 'urn:li:organization:42' }, [share, ugc], () => ({
      body: { elements: [
        { organizationalEntity: 'urn:li:organization:42', share, totalShareStatistics: { impressionCount: 500, uniqueImpressionsCount: 410, clickCount: 12, likeCount: 30, commentCount: 4, shareCount: 2, engagement: 0.09 } },
        { organizationalEntity: 'urn:li:organization:42', ugcPost: ugc, totalShareStatistics: { impressionCount: 90, likeCount: 1 } },
      ] },
    }));
    expect(seen.map((s) => s.url)).toEqual([`https://li.test/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeURIComponent('urn:li:organization:42')}&shares=List(${encodeURIComponent(share)})&ugcPosts=List(${encodeURIComponent(ugc)})`]);
    expect(figures(out, share)).toEqual({
      metrics: { impressions: 500, reach: 410, likes: 30, comments: 4, shares: 2, quotes: null, saves: null, clicks: 12, video_views: null },
      source: { impressions: 'impressionCount', reach: 'uniqueImpressionsCount', clicks: 'clickCount', likes: 'likeCount', comments: 'commentCount', shares: 'shareCount' },
    });
    expect(figures(out, ugc)).toEqual({ metrics: expect.objectContaining({ impressions: 90, likes: 1, reach: null, comments: null }), source: { impressions: 'impressionCount', likes: 'likeCount' } });
  });

  it('linkedin member without LINKEDIN_POST_ANALYTICS: not offered, no call made', async () => {
    const { out, seen } = await read(linkedinMetrics('https://li.test', '202607', false), { access_token: 'tok', author_urn: 'urn:li:person:abc' }, ['urn:li:share:7000000000000001'], () => ({ body: {} }));
    expect(seen).toEqual([]);
    expect(out).toEqual({ ok: true, readings: { 'urn:li:share:7000000000000001': 'not_offered' } });
  });

  it('tiktok: POST /v2/video/query/ with the video ids; counts to video_views/likes/comments/shares; photos and publish ids are not asked; a video left out gets no figures', async () => {
    const { out, seen } = await read(tiktokMetrics('https://tt.test'), { access_token: 'act.1' }, ['7077642457847991554', '7080217258529737986', 'v_pub_url~1', { id: '7100000000000000001', url: 'https://www.tiktok.com/@a/photo/7100000000000000001' }], () => ({
      body: { data: { videos: [{ id: '7077642457847991554', view_count: 5000, like_count: 300, comment_count: 12, share_count: 7 }] }, error: { code: 'ok', message: '', log_id: 'x' } },
    }));
    expect(seen).toEqual([{ method: 'POST', url: 'https://tt.test/v2/video/query/?fields=id,view_count,like_count,comment_count,share_count', headers: expect.objectContaining({ authorization: 'Bearer act.1' }), body: { filters: { video_ids: ['7077642457847991554', '7080217258529737986'] } } }]);
    expect(figures(out, '7077642457847991554')).toEqual({
      metrics: { impressions: null, reach: null, likes: 300, comments: 12, shares: 7, quotes: null, saves: null, clicks: null, video_views: 5000 },
      source: { video_views: 'view_count', likes: 'like_count', comments: 'comment_count', shares: 'share_count' },
    });
    expect(figures(out, '7080217258529737986')).toBeUndefined();
    expect(figures(out, 'v_pub_url~1')).toBeUndefined();
  });

  it('tiktok: a refused token (error code access_token_invalid) is reauth', async () => {
    const { out } = await read(tiktokMetrics('https://tt.test'), { access_token: 'bad' }, ['7077642457847991554'], () => ({
      status: 401, body: { data: {}, error: { code: 'access_token_invalid', message: 'The access token is invalid or not found in the request.', log_id: 'x' } },
    }));
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('pinterest: GET /v5/pins/{id}/analytics over the last 89 days; IMPRESSION/SAVE/PIN_CLICK of all.summary_metrics; 404 is gone', async () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    const { out, seen } = await read(pinterestMetrics('https://pin.test'), { access_token: 'pina_1' }, ['813', '814'], (url) =>
      url.pathname.includes('/814/') ? { status: 404, body: { code: 50, message: 'Pin not found.' } } : {
        body: { all: { daily_metrics: [{ date: '2026-11-26', data_status: 'READY', metrics: { IMPRESSION: 20 } }], summary_metrics: { IMPRESSION: 240, SAVE: 20, PIN_CLICK: 37, OUTBOUND_CLICK: 5 } } },
      }, now);
    expect(seen[0]).toEqual({ method: 'GET', url: 'https://pin.test/v5/pins/813/analytics?start_date=2026-08-30&end_date=2026-11-27&metric_types=IMPRESSION%2CSAVE%2CPIN_CLICK%2COUTBOUND_CLICK&app_types=ALL', headers: expect.objectContaining({ authorization: 'Bearer pina_1' }) });
    expect(figures(out, '813')).toEqual({
      metrics: { impressions: 240, reach: null, likes: null, comments: null, shares: null, quotes: null, saves: 20, clicks: 37, video_views: null },
      source: { impressions: 'IMPRESSION', saves: 'SAVE', clicks: 'PIN_CLICK' },
    });
    expect(figures(out, '814')).toBe('gone');
  });

  it('hashnode: one GraphQL query with an alias per post (ids as variables); views null stays null; a null post is gone; drafts are not asked', async () => {
    const a = '65f1a2b3c4d5e6f708192a3b';
    const b = '65f1a2b3c4d5e6f708192a3c';
    const { out, seen } = await read(hashnodeMetrics('https://gql.hn.test'), { token: 'pat' }, [a, b, { id: '65f1a2b3c4d5e6f708192a3d', url: 'https://hashnode.com/draft/65f1a2b3c4d5e6f708192a3d' }], () => ({
      body: { data: { p0: { id: a, views: null, reactionCount: 9, responseCount: 2 }, p1: null } },
    }));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: 'https://gql.hn.test/', headers: expect.objectContaining({ authorization: 'pat' }) });
    expect(seen[0].body).toEqual({
      query: 'query PostFigures($p0: ID!, $p1: ID!) { p0: post(id: $p0) { id views reactionCount responseCount } p1: post(id: $p1) { id views reactionCount responseCount } }',
      variables: { p0: a, p1: b },
    });
    expect(figures(out, a)).toEqual({ metrics: expect.objectContaining({ impressions: null, likes: 9, comments: 2, shares: null }), source: { likes: 'reactionCount', comments: 'responseCount' } });
    expect(figures(out, b)).toBe('gone');
  });

  it('a refused token is reauth, a 429 is rate_limited: never figures', async () => {
    const refused = await read(xMetrics('https://api.x.test'), { access_token: 'bad' }, ['1'], () => ({ status: 401, body: { title: 'Unauthorized' } }));
    expect(refused.out).toMatchObject({ ok: false, kind: 'reauth' });
    const limited = await read(mastodonMetrics, { instance_url: 'https://m.test', access_token: 'tok' }, ['1'], () => ({ status: 429, body: {} }));
    expect(limited.out).toMatchObject({ ok: false, kind: 'rate_limited' });
  });

  it('the networks without post analytics have no metrics member (their figures stay null, status not_offered)', () => {
    const registry = buildRegistry(parseConfig({}));
    const offered = Object.values(registry).filter((a) => a?.metrics).map((a) => a!.name).sort();
    expect(offered).toEqual(['bluesky', 'devto', 'facebook', 'hashnode', 'instagram', 'linkedin', 'mastodon', 'pinterest', 'reddit', 'threads', 'tiktok', 'x', 'youtube']);
  });
});

import { startTestTable, type TestTable } from '../support/deps';
import { DynamoAnalyticsStore } from '../../shared/adapters/dynamodb/analytics';
import { emptyMetrics, type Metrics, type PostAnalytics } from '../../shared/domain/analytics';
import { newId } from '../../shared/domain/ids';
import { queryAnalytics } from '../../shared/app/analytics/query-analytics';
import type { BrandStore } from '../../shared/ports/store';

let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => ({ table, stop } = await startTestTable()));
afterAll(() => stop());

const T0 = Date.UTC(2026, 10, 1, 9, 0, 0);
const HOUR = 3600_000;

function item(accountId: string, publishedMs: number, over: Partial<PostAnalytics> = {}): PostAnalytics {
  return {
    post_id: newId('pst', publishedMs), account_id: accountId, brand_id: 'brd_A', platform: 'mastodon',
    network_post_id: '1', published_at: new Date(publishedMs).toISOString(), metrics: emptyMetrics(), source: {}, status: 'pending', ...over,
  };
}
const m = (over: Partial<Metrics>): Metrics => ({ ...emptyMetrics(), ...over });

describe('analytics store (embedded DynamoDB)', () => {
  it('tracks a post once: a second track keeps the figures already read', async () => {
    const store = new DynamoAnalyticsStore(table);
    const a = item('acc_once', T0);
    await store.track(a, T0 + HOUR);
    await store.saveFetch(a.account_id, a.post_id, a.platform, { status: 'synced', metrics: m({ likes: 4 }), source: { likes: 'favourites_count' }, fetched_at: new Date(T0 + HOUR).toISOString(), next_sync_at: T0 + 2 * HOUR });
    await store.track(a, T0 + HOUR);
    const [got] = await store.forPost(a.account_id, a.post_id);
    expect(got).toMatchObject({ status: 'synced', metrics: { likes: 4, impressions: null }, source: { likes: 'favourites_count' }, next_sync_at: new Date(T0 + 2 * HOUR).toISOString() });
  });

  it('claims a fetch once among concurrent callers, and again only after the interval', async () => {
    const store = new DynamoAnalyticsStore(table);
    const a = item('acc_claim', T0);
    await store.track(a, T0 + HOUR);
    const now = T0 + 2 * HOUR;
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claimFetch(a.account_id, a.post_id, a.platform, now, now - 15 * 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.claimFetch(a.account_id, a.post_id, a.platform, now + 14 * 60_000, now + 14 * 60_000 - 15 * 60_000)).toBeUndefined();
    expect(await store.claimFetch(a.account_id, a.post_id, a.platform, now + 15 * 60_000, now)).toMatchObject({ attempted_at: now + 15 * 60_000 });
    expect(await store.claimFetch(a.account_id, 'pst_untracked', a.platform, now, now)).toBeUndefined();
  });

  it('lists what is due, earliest first, and a post taken off the index is never due again', async () => {
    const store = new DynamoAnalyticsStore(table);
    const posts = [item('acc_due', T0), item('acc_due', T0 + 1), item('acc_due', T0 + 2)];
    await store.track(posts[0], T0 + 3 * HOUR);
    await store.track(posts[1], T0 + 1 * HOUR);
    await store.track(posts[2], T0 + 2 * HOUR);
    const ours = async (before: number) => (await store.due(before, 100)).filter((d) => d.account_id === 'acc_due').map((d) => d.post_id);
    expect(await ours(T0 + 2 * HOUR)).toEqual([posts[1].post_id, posts[2].post_id]);
    await store.saveFetch('acc_due', posts[1].post_id, 'mastodon', { status: 'synced', metrics: emptyMetrics(), next_sync_at: undefined });
    expect(await ours(T0 + 10 * HOUR)).toEqual([posts[2].post_id, posts[0].post_id]);
    const [gone] = await store.forPost('acc_due', posts[1].post_id);
    expect(gone.next_sync_at).toBeUndefined();
  });

  it('GET /api/analytics: totals that keep null where no network offers a figure, a daily series by network and brand, top posts', async () => {
    const store = new DynamoAnalyticsStore(table);
    const acc = 'acc_query';
    const day1 = Date.UTC(2026, 10, 3, 10);
    const day2 = Date.UTC(2026, 10, 4, 23, 59);
    const p1 = item(acc, day1, { platform: 'mastodon', metrics: m({ likes: 5, shares: 2, comments: 1 }), status: 'synced' });
    const p1x = { ...p1, platform: 'x' as const, metrics: m({ likes: 10, impressions: 300, quotes: 1 }) };
    const p2 = item(acc, day2, { platform: 'mastodon', brand_id: 'brd_B', metrics: m({ likes: 1 }), status: 'synced' });
    const before = item(acc, Date.UTC(2026, 10, 2, 23, 59), { metrics: m({ likes: 99 }) });
    const after = item(acc, Date.UTC(2026, 10, 5, 0, 0), { metrics: m({ likes: 99 }) });
    for (const a of [p1, p1x, p2, before, after]) await store.track(a, day2 + HOUR);
    const brands = { list: async () => [{ id: 'brd_A', name: 'Acme', account_id: acc, timezone: 'UTC', slots: [], created_at: '' }] } as unknown as BrandStore;

    const s = await queryAnalytics({ analytics: store, brands }, acc, { from: '2026-11-03', to: '2026-11-04' });

    expect(s).toMatchObject({ posts: 2, publications: 3 });
    expect(s.totals).toEqual(m({ likes: 16, shares: 2, comments: 1, impressions: 300, quotes: 1 }));
    expect(s.totals.saves).toBeNull();
    expect(s.by_network).toEqual([
      { platform: 'mastodon', posts: 2, metrics: m({ likes: 6, shares: 2, comments: 1 }) },
      { platform: 'x', posts: 1, metrics: m({ likes: 10, impressions: 300, quotes: 1 }) },
    ]);
    expect(s.by_brand).toEqual([
      { brand_id: 'brd_A', brand_name: 'Acme', posts: 1, metrics: m({ likes: 15, shares: 2, comments: 1, impressions: 300, quotes: 1 }) },
      { brand_id: 'brd_B', brand_name: null, posts: 1, metrics: m({ likes: 1 }) },
    ]);
    expect(s.daily.map((d) => [d.date, d.platform, d.brand_id, d.posts, d.metrics.likes])).toEqual([
      ['2026-11-03', 'mastodon', 'brd_A', 1, 5], ['2026-11-03', 'x', 'brd_A', 1, 10], ['2026-11-04', 'mastodon', 'brd_B', 1, 1],
    ]);
    expect(s.top_posts.map((p) => [p.post_id, p.engagement, p.platforms])).toEqual([[p1.post_id, 19, ['mastodon', 'x']], [p2.post_id, 1, ['mastodon']]]);

    const onlyX = await queryAnalytics({ analytics: store, brands }, acc, { from: '2026-11-03', to: '2026-11-04', platform: 'x' });
    expect(onlyX.totals).toEqual(m({ likes: 10, impressions: 300, quotes: 1 }));
    const brandB = await queryAnalytics({ analytics: store, brands }, acc, { from: '2026-11-01', to: '2026-11-30', brand_id: 'brd_B' });
    expect(brandB.publications).toBe(1);
  });
});

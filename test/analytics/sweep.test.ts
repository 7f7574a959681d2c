import { startTestTable, testDeps, type TestTable } from '../support/deps';
import { ManualClock } from '../support/clock';
import { newId } from '../../shared/domain/ids';
import { connectionContext } from '../../shared/app/security/contexts';
import { sweepAnalytics } from '../../shared/app/analytics/analytics-sweep';
import { trackPublished } from '../../shared/app/analytics/collect-metrics';
import { getPostAnalytics } from '../../shared/app/analytics/post-analytics';
import type { MetricsAnswer, NetworkAdapter, PublishedRef, Registry } from '../../shared/ports/networks';
import type { PostRecord } from '../../shared/ports/publishing';
import type { Deps } from '../../shared/app/deps';

let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => ({ table, stop } = await startTestTable()));
afterAll(() => stop());

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A network whose metrics read records each call and answers growing likes (and no impressions: not offered). */
function countingNetwork() {
  const reads: Array<{ at: number; ids: string[] }> = [];
  /** Posts this connection cannot have figures for (the adapter answers not_offered). */
  const notOffered = new Set<string>();
  let clock: ManualClock;
  const adapter = {
    name: 'mastodon',
    metrics: {
      batch: 100, spacingMs: 1000,
      read: async (refs: PublishedRef[]): Promise<MetricsAnswer> => {
        reads.push({ at: clock.now(), ids: refs.map((r) => r.id) });
        return { ok: true, readings: Object.fromEntries(refs.map((r) => [r.id, notOffered.has(r.id) ? 'not_offered' as const : { metrics: { likes: reads.length }, source: { likes: 'favourites_count' } }])) };
      },
    },
  } as unknown as NetworkAdapter;
  return { reads, notOffered, adapter, registry: { mastodon: adapter } as Registry, setClock: (c: ManualClock) => { clock = c; } };
}

async function world(startMs: number) {
  const net = countingNetwork();
  const clock = new ManualClock(startMs);
  net.setClock(clock);
  const { deps } = testDeps(table, { networks: net.registry, clock });
  const account_id = `acc_${newId('acc', startMs).slice(4)}`;
  const brand_id = 'brd_main';
  await deps.connections.put({
    id: newId('con', startMs), account_id, brand_id, platform: 'mastodon', handle: '@alice', label: 'alice', status: 'active', connected_at: new Date(startMs).toISOString(),
    credentials_enc: await deps.cipher.encrypt(JSON.stringify({ instance_url: 'https://m.test', access_token: 'tok' }), connectionContext({ account_id, brand_id, platform: 'mastodon' }, 'credentials')),
  });
  const post = (id = newId('pst', clock.now())): PostRecord => ({
    id, account_id, brand_id, brand_name: 'Main', source: 'api', idempotency_key: null, platforms: ['mastodon'],
    payload: { text: 'hello', media: [], per_platform: {} }, created_at: new Date(clock.now()).toISOString(),
  });
  return { deps: deps as Deps, clock, reads: net.reads, notOffered: net.notOffered, metrics: net.adapter.metrics!, account_id, post };
}

describe('the analytics sweep (manual clock)', () => {
  it('reads a post hourly for its first 48 hours, then daily until 30 days, then never', async () => {
    const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
    const w = await world(T0);
    const p = w.post();
    await trackPublished(w.deps, p, { platform: 'mastodon', ok: true, status: 'published', id: '777', url: 'https://m.test/@alice/777' });
    const sweep = () => sweepAnalytics(w.deps);

    w.clock.ms = T0 + 59 * 60_000;
    await sweep();
    expect(w.reads).toHaveLength(0);

    // from due time to due time (the due index says when), with a look just before each daily read
    const nextDue = async () => (await w.deps.analytics.due(T0 + 365 * DAY, 1000)).find((d) => d.post_id === p.id)?.due_at;
    for (let due = await nextDue(), n = 0; due !== undefined && n < 100; due = await nextDue(), n++) {
      if (due - T0 > 48 * HOUR && n % 7 === 0) {
        w.clock.ms = due - HOUR;
        const before = w.reads.length;
        await sweep();
        expect(w.reads).toHaveLength(before);
      }
      w.clock.ms = due;
      await sweep();
    }
    const at = w.reads.map((r) => (r.at - T0) / HOUR);
    expect(at.slice(0, 48)).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
    expect(at.slice(48)).toEqual(Array.from({ length: 28 }, (_, i) => 72 + 24 * i));
    expect(at.at(-1)).toBe(30 * 24);
    w.clock.ms = T0 + 40 * DAY;
    await sweep();
    expect(w.reads).toHaveLength(76);
    const [stored] = await w.deps.analytics.forPost(w.account_id, p.id);
    expect(stored).toMatchObject({ status: 'synced', metrics: { likes: 76, impressions: null }, source: { likes: 'favourites_count' } });
    expect(stored.next_sync_at).toBeUndefined();
    expect(w.reads.every((r) => r.ids.length === 1 && r.ids[0] === '777')).toBe(true);
  }, 60_000);

  it('reads many posts of one connection in one request per batch, and leaves what is over its time budget for the next run', async () => {
    const T0 = Date.UTC(2026, 1, 5, 10, 0, 0);
    const w = await world(T0);
    for (let i = 0; i < 30; i++) {
      await trackPublished(w.deps, w.post(), { platform: 'mastodon', ok: true, status: 'published', id: `p${i}` });
    }
    w.clock.ms = T0 + HOUR;
    const first = await sweepAnalytics(w.deps);
    expect(first).toMatchObject({ due: 30, read: 30, batches: 1 });
    expect(w.reads).toHaveLength(1);
    expect(w.reads[0].ids).toHaveLength(30);
    w.clock.ms = T0 + 2 * HOUR;
    const overBudget = await sweepAnalytics(w.deps, { budgetMs: 0 });
    expect(overBudget).toMatchObject({ due: 30, read: 0, skipped: 30 });
    expect((await w.deps.analytics.due(w.clock.now(), 100)).filter((d) => d.account_id === w.account_id)).toHaveLength(30);
  });

  it('a post the connection cannot have figures for becomes not_offered, with no next look', async () => {
    const T0 = Date.UTC(2026, 1, 9, 10, 0, 0);
    const w = await world(T0);
    const p = w.post();
    w.notOffered.add('n1');
    await trackPublished(w.deps, p, { platform: 'mastodon', ok: true, status: 'published', id: 'n1' });
    w.clock.ms = T0 + HOUR;
    await sweepAnalytics(w.deps);
    const mine = () => w.reads.filter((r) => r.ids.includes('n1'));
    expect(mine()).toHaveLength(1);
    const [stored] = await w.deps.analytics.forPost(w.account_id, p.id);
    expect(stored).toMatchObject({ status: 'not_offered', metrics: { likes: null, impressions: null } });
    expect(stored.next_sync_at).toBeUndefined();
    w.clock.ms = T0 + 2 * DAY;
    await sweepAnalytics(w.deps);
    expect(mine()).toHaveLength(1);
  });

  it('a network limited per app spaces the reads of all connections by its app spacing, besides each connection\'s own', async () => {
    // before the other tests' leftovers fall due (they share the table), so this sweep reads only these two posts
    const T0 = Date.UTC(2026, 0, 20, 10, 0, 0);
    const w = await world(T0);
    w.metrics.appSpacingMs = 40;
    // a second connection of the same account (another brand): its own pacing key, the same app key
    const brand_id = 'brd_two';
    await w.deps.connections.put({
      id: newId('con', T0 + 1), account_id: w.account_id, brand_id, platform: 'mastodon', handle: '@bob', label: 'bob', status: 'active', connected_at: new Date(T0).toISOString(),
      credentials_enc: await w.deps.cipher.encrypt(JSON.stringify({ instance_url: 'https://m.test', access_token: 'tok2' }), connectionContext({ account_id: w.account_id, brand_id, platform: 'mastodon' }, 'credentials')),
    });
    await trackPublished(w.deps, w.post(), { platform: 'mastodon', ok: true, status: 'published', id: 'a1' });
    await trackPublished(w.deps, { ...w.post(), brand_id }, { platform: 'mastodon', ok: true, status: 'published', id: 'b1' });
    const slots: Array<[string, number]> = [];
    const reserve = w.deps.pace.reserve.bind(w.deps.pace);
    w.deps.pace.reserve = async (key, spacing, now) => { const slot = await reserve(key, spacing, now); slots.push([key, slot]); return slot; };
    w.clock.ms = T0 + HOUR;
    await sweepAnalytics(w.deps);
    expect(w.reads.filter((r) => r.ids.includes('a1') || r.ids.includes('b1'))).toHaveLength(2);
    const app = slots.filter(([k]) => k === 'analytics:mastodon:app').map(([, at]) => at - (T0 + HOUR));
    expect(app).toEqual([0, 40]);
    expect(slots.filter(([k]) => k !== 'analytics:mastodon:app').map(([, at]) => at - (T0 + HOUR))).toEqual([0, 0]);
  });

  it('refresh=1 fetches now, at most once per 15 minutes per post and network; a post published before analytics is tracked on first read', async () => {
    const T0 = Date.UTC(2026, 2, 5, 10, 0, 0);
    const w = await world(T0);
    const p = w.post();
    await w.deps.posts.create(p, [{ post_id: p.id, account_id: w.account_id, platform: 'mastodon', state: 'done', deferrals: 0, reserved: true,
      result: { platform: 'mastodon', ok: true, status: 'published', id: '901', url: 'https://m.test/@alice/901' } }]);
    w.clock.ms = T0 + 5 * 60_000;

    const stored = await getPostAnalytics(w.deps, w.account_id, p.id);
    expect(stored.networks).toEqual([expect.objectContaining({ platform: 'mastodon', status: 'pending', refreshed: false, fetched_at: null, published_at: new Date(T0).toISOString() })]);
    expect(stored.networks[0].metrics.likes).toBeNull();

    const fresh = await getPostAnalytics(w.deps, w.account_id, p.id, { refresh: true });
    expect(fresh.networks[0]).toMatchObject({ status: 'synced', refreshed: true, fetched_at: new Date(T0 + 5 * 60_000).toISOString(), refresh_after: new Date(T0 + 20 * 60_000).toISOString() });
    expect(fresh.networks[0].metrics).toMatchObject({ likes: 1, impressions: null });

    w.clock.ms = T0 + 19 * 60_000;
    const again = await getPostAnalytics(w.deps, w.account_id, p.id, { refresh: true });
    expect(again.networks[0]).toMatchObject({ refreshed: false, fetched_at: new Date(T0 + 5 * 60_000).toISOString(), refresh_after: new Date(T0 + 20 * 60_000).toISOString() });
    expect(w.reads).toHaveLength(1);

    w.clock.ms = T0 + 20 * 60_000;
    const later = await getPostAnalytics(w.deps, w.account_id, p.id, { refresh: true });
    expect(later.networks[0]).toMatchObject({ refreshed: true, metrics: expect.objectContaining({ likes: 2 }) });
    expect(w.reads).toHaveLength(2);

    await expect(getPostAnalytics(w.deps, 'acc_someone_else', p.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

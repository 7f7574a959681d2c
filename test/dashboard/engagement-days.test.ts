import { startTestTable, testDeps, type TestTable } from '../support/deps';
import { ManualClock } from '../support/clock';
import { newId } from '../../shared/domain/ids';
import { connectionContext } from '../../shared/app/security/contexts';
import { sweepAnalytics } from '../../shared/app/analytics/analytics-sweep';
import { trackPublished } from '../../shared/app/analytics/collect-metrics';
import { engagementSeries, overviewCharts } from '../../shared/app/dashboard/overview-charts';
import type { MetricsAnswer, NetworkAdapter, PublishedRef, Registry } from '../../shared/ports/networks';
import type { Deps } from '../../shared/app/deps';

/** The Overview's engagement days, written by the analytics sweep, over the embedded table (the real adapters). */
let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => ({ table, stop } = await startTestTable()));
afterAll(() => stop());

const HOUR = 3600_000;

it('each sweep run sums up the publishing days of the posts it read; the Overview reads them as stored', async () => {
  const T0 = Date.UTC(2026, 0, 5, 10, 0, 0);
  const clock = new ManualClock(T0);
  let reads = 0;
  const mastodon = {
    name: 'mastodon',
    metrics: {
      batch: 100, spacingMs: 1000,
      read: async (refs: PublishedRef[]): Promise<MetricsAnswer> => {
        reads++;
        return { ok: true, readings: Object.fromEntries(refs.map((r) => [r.id, { metrics: { likes: 10 * reads, comments: Number(r.id) % 10 }, source: { likes: 'favourites_count', comments: 'replies_count' } }])) };
      },
    },
  } as unknown as NetworkAdapter;
  const deps = testDeps(table, { networks: { mastodon } as Registry, clock }).deps as Deps;
  const account_id = `acc_${newId('acc', T0).slice(4)}`;
  const brand_id = 'brd_main';
  await deps.connections.put({
    id: newId('con', T0), account_id, brand_id, platform: 'mastodon', handle: '@alice', label: 'alice', status: 'active', connected_at: new Date(T0).toISOString(),
    credentials_enc: await deps.cipher.encrypt(JSON.stringify({ instance_url: 'https://m.test', access_token: 'tok' }), connectionContext({ account_id, brand_id, platform: 'mastodon' }, 'credentials')),
  });
  for (const id of ['701', '702']) {
    const post = {
      id: newId('pst', clock.now()), account_id, brand_id, brand_name: 'Main', source: 'api' as const, idempotency_key: null, platforms: ['mastodon' as const],
      payload: { text: 'hello', media: [], per_platform: {} }, created_at: new Date(clock.now()).toISOString(),
    };
    await trackPublished(deps, post, { platform: 'mastodon', ok: true, status: 'published', id, url: `https://m.test/@alice/${id}` });
  }
  const view = async () => (await engagementSeries(deps, account_id, await overviewCharts(deps, account_id, 7))).series.map((s) => [s.name, s.values.at(-1)]);

  expect(await view()).toEqual([]); // tracked, nothing read yet: no figures
  expect(await deps.daySummaries.listEngagement(account_id, '2026-01-05', '2026-01-05')).toEqual([
    { day: '2026-01-05', publications: 2, metrics: expect.objectContaining({ likes: null, comments: null }) },
  ]);

  clock.ms = T0 + HOUR;
  await sweepAnalytics(deps);
  expect(await deps.daySummaries.listEngagement(account_id, '2026-01-05', '2026-01-05')).toEqual([
    { day: '2026-01-05', publications: 2, metrics: expect.objectContaining({ likes: 20, comments: 3, saves: null }) },
  ]);
  expect(await view()).toEqual([['Likes', 20], ['Comments', 3]]);

  clock.ms = T0 + 2 * HOUR;
  await sweepAnalytics(deps);
  expect(await view()).toEqual([['Likes', 40], ['Comments', 3]]);
  expect(reads).toBe(2);
});

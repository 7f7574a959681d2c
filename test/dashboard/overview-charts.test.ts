import { engagementSeries, overviewCharts } from '../../shared/app/dashboard/overview-charts';
import { emptyMetrics, type Metrics, type PostAnalytics } from '../../shared/domain/analytics';
import type { AnalyticsStore } from '../../shared/ports/analytics';
import { refreshEngagementDays } from '../../shared/app/analytics/engagement-days';
import { chartsSection } from '../../shared/http/dashboard/overview-views';
import { niceScale } from '../../shared/http/dashboard/charts-svg';
import { newId } from '../../shared/domain/ids';
import type { DaySummary, DaySummaryStore, EngagementDay } from '../../shared/ports/day-summaries';
import type { NetworkRecord, PostRecord, PostStore } from '../../shared/ports/publishing';
import type { PlatformName } from '../../shared/domain/platforms';
import { ManualClock } from '../support/clock';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

type Outcome = 'ok' | `fail:${string}` | 'pending';

/** An in-memory post store (newest first by id, as the table's index answers) that counts the posts whose networks were read. */
function postStore() {
  const posts: PostRecord[] = [];
  const nets = new Map<string, NetworkRecord[]>();
  const reads = { networks: 0 };
  const add = (at: number, results: Array<[PlatformName, Outcome]>) => {
    const id = newId('pst', at);
    posts.push({ id, account_id: 'acc_1', brand_id: 'brd_1', brand_name: 'Default', source: 'api', idempotency_key: null, platforms: results.map(([p]) => p), payload: { text: 'x', media: [], per_platform: {} }, created_at: new Date(at).toISOString() });
    nets.set(id, results.map(([platform, o]): NetworkRecord => ({
      post_id: id, account_id: 'acc_1', platform, deferrals: 0, reserved: false,
      state: o === 'pending' ? 'queued' : 'done',
      result: o === 'pending' ? undefined : o === 'ok' ? { platform, ok: true, status: 'published' } : { platform, ok: false, status: 'failed', code: o.slice(5) },
    })));
    return id;
  };
  const settle = (id: string, platform: PlatformName) => {
    const n = nets.get(id)!.find((x) => x.platform === platform)!;
    Object.assign(n, { state: 'done', result: { platform, ok: true, status: 'published' } });
  };
  const store = {
    list: async (_acc: string, limit: number, before?: string) => [...posts].sort((a, b) => (a.id < b.id ? 1 : -1)).filter((p) => !before || p.id < before).slice(0, limit),
    networksOf: async (wanted: Array<{ id: string }>) => { reads.networks += wanted.length; return new Map(wanted.map(({ id }) => [id, nets.get(id) ?? []])); },
  } as unknown as PostStore;
  return { store, add, settle, reads };
}

function summaryStore() {
  const items = new Map<string, DaySummary>();
  const engagement = new Map<string, EngagementDay>();
  const store: DaySummaryStore = {
    list: async (_acc, from, to) => [...items.values()].filter((s) => s.day >= from && s.day <= to).sort((a, b) => a.day.localeCompare(b.day)).map((s) => structuredClone(s)),
    putAll: async (_acc, all) => { for (const s of all) items.set(s.day, structuredClone(s)); },
    listEngagement: async (_acc, from, to) => [...engagement.values()].filter((d) => d.day >= from && d.day <= to).sort((a, b) => a.day.localeCompare(b.day)).map((d) => structuredClone(d)),
    putEngagement: async (_acc, all) => { for (const d of all) engagement.set(d.day, structuredClone(d)); },
  };
  return { store, items, engagement };
}

describe('Overview charts: posts and results by day and network, failures by code', () => {
  it('sums each day by network and outcome, and failures by code over the range', async () => {
    const posts = postStore();
    const sums = summaryStore();
    const clock = new ManualClock(NOW);
    posts.add(NOW - 2 * DAY, [['telegram', 'ok'], ['bluesky', 'fail:rate_limited']]);
    posts.add(NOW - 2 * DAY + 1000, [['telegram', 'ok']]);
    posts.add(NOW - DAY, [['bluesky', 'fail:rate_limited'], ['mastodon', 'fail:auth_failed']]);
    posts.add(NOW - 1000, [['telegram', 'pending']]);
    posts.add(NOW - 40 * DAY, [['telegram', 'ok']]); // outside the 30 days

    const c = await overviewCharts({ posts: posts.store, daySummaries: sums.store, clock }, 'acc_1', 30);
    expect([c.from, c.to, c.days.length]).toEqual(['2026-10-23', '2026-11-21', 30]);
    expect(c.days.find((d) => d.day === '2026-11-19')).toEqual({ day: '2026-11-19', posts: 2, networks: { telegram: { published: 2, failed: 0, pending: 0 }, bluesky: { published: 0, failed: 1, pending: 0 } }, failures: { rate_limited: 1 } });
    expect(c.days.find((d) => d.day === '2026-11-21')!.networks).toEqual({ telegram: { published: 0, failed: 0, pending: 1 } });
    expect(c.totals).toEqual({ posts: 4, published: 2, failed: 3, pending: 1 });
    expect(c.failures).toEqual([{ code: 'rate_limited', count: 2 }, { code: 'auth_failed', count: 1 }]);
    expect(c.networks).toEqual(['telegram', 'bluesky', 'mastodon']);
  });

  it('a finished, settled day is stored once and then read as one summary; today and unsettled days are summed up each time', async () => {
    const posts = postStore();
    const sums = summaryStore();
    const clock = new ManualClock(NOW);
    for (let i = 0; i < 5; i++) posts.add(NOW - 3 * DAY + i * 1000, [['telegram', 'ok']]);
    const late = posts.add(NOW - DAY, [['discord', 'pending']]);
    for (let i = 0; i < 3; i++) posts.add(NOW - 1000 * (i + 1), [['telegram', 'ok']]);
    const deps = { posts: posts.store, daySummaries: sums.store, clock };

    const first = await overviewCharts(deps, 'acc_1', 7);
    expect(first.computedDays).toBe(7);
    // stored: the past days without anything waiting (empty ones too); not today, not the day still waiting
    expect([...sums.items.keys()].sort()).toEqual(['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19']);

    posts.reads.networks = 0;
    const second = await overviewCharts(deps, 'acc_1', 7);
    expect(second.computedDays).toBe(2);
    expect(posts.reads.networks).toBe(4); // today's 3 posts and the one still waiting, never the 5 stored ones
    expect(second.days).toEqual(first.days);

    posts.settle(late, 'discord');
    clock.advance(DAY); // today is over
    const third = await overviewCharts(deps, 'acc_1', 7);
    expect(sums.items.get('2026-11-20')!.networks).toEqual({ discord: { published: 1, failed: 0, pending: 0 } });
    expect(sums.items.get('2026-11-21')!.posts).toBe(3);
    expect([third.from, third.totals]).toEqual(['2026-11-16', { posts: 9, published: 9, failed: 0, pending: 0 }]);
    posts.reads.networks = 0;
    expect((await overviewCharts(deps, 'acc_1', 7)).computedDays).toBe(1);
    expect(posts.reads.networks).toBe(0);
  });

  it('renders labelled SVG charts with a legend and the figures as a table; no posts says so in words', async () => {
    const posts = postStore();
    const sums = summaryStore();
    const clock = new ManualClock(NOW);
    posts.add(NOW - DAY, [['telegram', 'ok'], ['bluesky', 'fail:content_rejected']]);
    const html = chartsSection(await overviewCharts({ posts: posts.store, daySummaries: sums.store, clock }, 'acc_1', 7), 7);
    for (const id of ['chart-results', 'chart-outcomes', 'chart-failures']) {
      expect(html).toContain(`<svg viewBox`);
      expect(html).toMatch(new RegExp(`id="${id}".*?role="img" aria-labelledby="${id}-svg-title ${id}-svg-desc"`));
      expect(html).toContain(`<table id="${id}-table">`);
    }
    expect(html).toContain('<th scope="row">2026-11-20</th><td>1</td><td>1</td><td>1</td><td>2</td>'); // posts, telegram, bluesky, total
    expect(html).toContain('<th scope="row">content_rejected</th><td>1</td>');
    expect(html).toMatch(/<li><span class="swatch" style="background:#[0-9a-f]{6}"><\/span>bluesky<\/li>/);
    expect(html).not.toMatch(/<script|on\w+=/);
    const empty = chartsSection(await overviewCharts({ posts: postStore().store, daySummaries: summaryStore().store, clock }, 'acc_1', 30), 30);
    expect(empty).toContain('No posts in these 30 days yet');
    expect(empty).not.toContain('<svg');
  });

  it('engagement over time: each day sums the latest figures of the posts published that day; figures no network offers add nothing', async () => {
    const clock = new ManualClock(NOW);
    const c = await overviewCharts({ posts: postStore().store, daySummaries: summaryStore().store, clock }, 'acc_1', 7);
    const m = (over: Partial<Metrics>): Metrics => ({ ...emptyMetrics(), ...over });
    const at = (ms: number, platform: PostAnalytics['platform'], metrics: Metrics): PostAnalytics => ({
      post_id: newId('pst', ms), account_id: 'acc_1', brand_id: 'brd_1', platform, network_post_id: '1', published_at: new Date(ms).toISOString(), metrics, source: {}, status: 'synced',
    });
    const items = [
      at(NOW - 2 * DAY, 'mastodon', m({ likes: 4, comments: 1, shares: 2 })),
      at(NOW - 2 * DAY + 5000, 'bluesky', m({ likes: 6, comments: 0, shares: 1, quotes: 1 })), // saves: null (Bluesky has none)
      at(NOW - 1000, 'x', m({ likes: 10, comments: 3, shares: 0, quotes: 0, impressions: 500 })),
      at(NOW - 9 * DAY, 'x', m({ likes: 99 })), // before the range
    ];
    const asked: Array<[number, number]> = [];
    const analytics = { listPublished: async (_acc: string, from: number, to: number) => { asked.push([from, to]); return items.filter((a) => Date.parse(a.published_at) >= from && Date.parse(a.published_at) <= to); } } as unknown as AnalyticsStore;
    const sums = summaryStore();
    const deps = { analytics, daySummaries: sums.store };
    const e = await engagementSeries(deps, 'acc_1', c);
    expect(asked).toEqual([[Date.UTC(2026, 10, 15), Date.UTC(2026, 10, 22) - 1]]);
    expect(e.days).toEqual(c.days.map((d) => d.day));
    expect(e.series).toEqual([
      { name: 'Likes', values: [0, 0, 0, 0, 10, 0, 10] },
      { name: 'Comments', values: [0, 0, 0, 0, 1, 0, 3] },
      { name: 'Shares and quotes', values: [0, 0, 0, 0, 4, 0, 0] },
    ]); // no Saves series: no network offered a save
    expect(sums.engagement.get('2026-11-19')).toMatchObject({ publications: 2, metrics: { likes: 10, saves: null } });
    const html = chartsSection(c, 7, e);
    expect(html).toMatch(/id="chart-engagement".*?role="img"/);
    expect(html).toContain('<th scope="row">2026-11-19</th><td>10</td><td>1</td><td>4</td>');
    expect(chartsSection(c, 7, { days: e.days, series: [] })).toContain('no likes, comments, shares or saves collected for these days yet');

    // the next view reads the stored days only (no analytics read)
    expect(await engagementSeries(deps, 'acc_1', c)).toEqual(e);
    expect(asked).toHaveLength(1);

    // a sweep that read today's x post and one of 2 days ago sums up those days again, each run of days in one read
    items[2]!.metrics.likes = 25;
    items[1]!.metrics.saves = 2;
    await refreshEngagementDays(deps, [items[2]!, items[1]!]);
    expect(asked.slice(1)).toEqual([[Date.UTC(2026, 10, 19), Date.UTC(2026, 10, 20) - 1], [Date.UTC(2026, 10, 21), Date.UTC(2026, 10, 22) - 1]]);
    expect((await engagementSeries(deps, 'acc_1', c)).series).toEqual([
      { name: 'Likes', values: [0, 0, 0, 0, 10, 0, 25] },
      { name: 'Comments', values: [0, 0, 0, 0, 1, 0, 3] },
      { name: 'Shares and quotes', values: [0, 0, 0, 0, 4, 0, 0] },
      { name: 'Saves', values: [0, 0, 0, 0, 2, 0, 0] },
    ]);
    expect(asked).toHaveLength(3);
  });

  it('axes end on a round number above the largest value', () => {
    expect(niceScale(0)).toEqual({ top: 4, step: 1 });
    expect(niceScale(3)).toEqual({ top: 3, step: 1 });
    expect(niceScale(37)).toEqual({ top: 40, step: 10 });
    expect(niceScale(111)).toEqual({ top: 150, step: 50 });
  });
});

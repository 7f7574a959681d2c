import { calendarPage } from '../../shared/app/dashboard/calendar';
import { calendarBody } from '../../shared/http/dashboard/calendar-views';
import { newId } from '../../shared/domain/ids';
import type { Account, Brand, BrandStore } from '../../shared/ports/store';
import type { RecurringRecord, RecurringStore, ScheduleRecord, ScheduleStore, SlotStore } from '../../shared/ports/schedules';
import type { NetworkRecord, PostRecord, PostStore } from '../../shared/ports/publishing';
import type { ApprovalStore } from '../../shared/ports/approvals';
import { ManualClock } from '../support/clock';

// Friday 27 November 2026, 09:30 in Berlin (UTC+1)
const NOW = Date.UTC(2026, 10, 27, 8, 30, 0);
const account = { id: 'acc_1', email: 'a@example.com', plan: 'pro' } as Account;
const brand: Brand = { id: 'brd_1', account_id: 'acc_1', name: 'Acme', timezone: 'Europe/Berlin', slots: ['09:00', '13:00', '17:30'], created_at: '2026-01-01T00:00:00Z' };
const other: Brand = { ...brand, id: 'brd_2', name: 'Other', timezone: 'UTC', slots: [] };

const schedule = (id: string, runAt: string, extra: Partial<ScheduleRecord> = {}): ScheduleRecord => ({
  id, account_id: 'acc_1', brand_id: 'brd_1', status: 'scheduled', run_at: runAt, platforms: ['telegram'], request: { platform: 'telegram', text: `Post ${id}` },
  counted: true, created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z', ...extra,
});

function deps(opts: { schedules: ScheduleRecord[]; recurring?: RecurringRecord[]; taken?: string[]; posts?: Array<{ at: number; brand?: string; ok: boolean }> }) {
  const posts: PostRecord[] = (opts.posts ?? []).map((p) => ({
    id: newId('pst', p.at), account_id: 'acc_1', brand_id: p.brand ?? 'brd_1', brand_name: 'Acme', source: 'api', idempotency_key: null, platforms: ['telegram'],
    payload: { text: `Made at ${new Date(p.at).toISOString()}`, media: [], per_platform: {} }, created_at: new Date(p.at).toISOString(),
  }));
  const ok = new Map((opts.posts ?? []).map((p, i) => [posts[i].id, p.ok]));
  return {
    clock: new ManualClock(NOW),
    brands: { list: async () => [brand, other] } as unknown as BrandStore,
    schedules: {
      list: async (_acc: string, q: { brand_id?: string; from?: string; to?: string }) => ({
        items: opts.schedules.filter((s) => (!q.brand_id || s.brand_id === q.brand_id) && (!q.from || s.run_at >= q.from) && (!q.to || s.run_at <= q.to)).sort((a, b) => a.run_at.localeCompare(b.run_at)),
      }),
    } as unknown as ScheduleStore,
    recurring: { list: async () => opts.recurring ?? [] } as unknown as RecurringStore,
    slots: { taken: async () => new Set(opts.taken ?? []) } as unknown as SlotStore,
    posts: {
      list: async (_acc: string, limit: number, before?: string) => [...posts].sort((a, b) => (a.id < b.id ? 1 : -1)).filter((p) => !before || p.id < before).slice(0, limit),
      networksOf: async (wanted: Array<{ id: string }>) => new Map(wanted.map(({ id }): [string, NetworkRecord[]] => [id, [{
        post_id: id, account_id: 'acc_1', platform: 'telegram', state: 'done', deferrals: 0, reserved: false,
        result: ok.get(id) ? { platform: 'telegram', ok: true, status: 'published' } : { platform: 'telegram', ok: false, status: 'failed', code: 'rejected' },
      }]])),
    } as unknown as PostStore,
    approvals: { list: async () => [] } as unknown as ApprovalStore,
  };
}

describe('Calendar: a brand’s week or month on its own clock', () => {
  it('places scheduled posts, coming recurring runs and posts made on the brand’s local days, with the slots still to come', async () => {
    const d = deps({
      schedules: [
        schedule('sch_a', '2026-11-27T12:00:00.000Z'), // Fri 13:00 Berlin, in its slot
        schedule('sch_b', '2026-11-29T23:30:00.000Z'), // Mon 30 00:30 Berlin: next week
        schedule('sch_c', '2026-11-28T16:30:00.000Z', { deferred: true }), // a network's rate-limit wait: shown, not movable
        schedule('sch_d', '2026-11-28T08:00:00.000Z', { brand_id: 'brd_2' }), // another brand
      ],
      recurring: [{ id: 'rec_1', account_id: 'acc_1', brand_id: 'brd_1', platforms: ['bluesky'], request: { text: 'Weekly digest' }, cron: '0 10 * * 0', timezone: 'Europe/Berlin', status: 'active', counted: true, created_at: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z' }],
      taken: ['2026-11-27T12:00:00.000Z'],
      posts: [{ at: NOW - 3_600_000, ok: true }, { at: Date.UTC(2026, 10, 24, 23, 30), ok: false }, { at: NOW - 60_000, brand: 'brd_2', ok: true }],
    });
    const c = await calendarPage(d, account, { brand: 'brd_1', view: 'week' });
    expect(c.title).toBe('Week of 23 November 2026');
    expect(c.weeks).toHaveLength(1);
    const day = (date: string) => c.weeks.flat().find((x) => x.date === date)!;
    expect(c.weeks[0].map((x) => x.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(day('2026-11-27').today).toBe(true);
    expect(day('2026-11-27').items.map((i) => [i.kind, i.time, i.status, i.movable])).toEqual([['post', '08:30', 'published', false], ['scheduled', '13:00', 'scheduled', true]]);
    expect(day('2026-11-25').items.map((i) => [i.kind, i.time, i.status])).toEqual([['post', '00:30', 'failed']]); // 23:30 UTC on the 24th
    expect(day('2026-11-28').items.map((i) => [i.schedule_id, i.movable])).toEqual([['sch_c', false]]);
    expect(day('2026-11-29').items.map((i) => [i.kind, i.time, i.text])).toEqual([['recurring', '10:00', 'Weekly digest']]);
    expect(c.weeks.flat().flatMap((x) => x.items).some((i) => i.schedule_id === 'sch_b' || i.schedule_id === 'sch_d')).toBe(false);
    // slots: none in the past (Friday 09:00 has gone by), the one held by sch_a is taken
    expect(day('2026-11-26').slots).toEqual([]);
    expect(day('2026-11-27').slots.map((s) => [s.time, s.taken])).toEqual([['13:00', true], ['17:30', false]]);
    // move targets: the free slots ahead, never the taken one
    expect(c.moveTargets.slice(0, 3).map((t) => t.label)).toEqual(['Fri 27 Nov, 17:30', 'Sat 28 Nov, 09:00', 'Sat 28 Nov, 13:00']);
    expect(c.moveTargets.some((t) => t.at === '2026-11-27T12:00:00.000Z')).toBe(false);

    const html = calendarBody(c, 'csrf-token');
    expect(html).toContain('<form method="post" action="/dashboard/calendar/move"><input type="hidden" name="csrf" value="csrf-token"><input type="hidden" name="schedule_id" value="sch_a">');
    expect(html.match(/action="\/dashboard\/calendar\/move"/g)).toHaveLength(1); // only sch_a can move
    expect(html).toContain('<option value="2026-11-27T16:30:00.000Z">Fri 27 Nov, 17:30</option>');
    expect(html).toMatch(/<a href="\/dashboard\/posts\/pst_[0-9A-Z]+">Made at/);
  });

  it('a month is whole weeks, Monday first; days of the next and previous months are marked outside', async () => {
    const c = await calendarPage(deps({ schedules: [] }), account, { view: 'month', date: '2026-02-10' });
    expect(c.title).toBe('February 2026');
    expect([c.weeks.length, c.weeks[0][0].date, c.weeks[4][6].date]).toEqual([5, '2026-01-26', '2026-03-01']); // 1 February 2026 is a Sunday
    expect(c.weeks.flat().filter((x) => !x.inRange).map((x) => x.date)).toEqual(['2026-01-26', '2026-01-27', '2026-01-28', '2026-01-29', '2026-01-30', '2026-01-31', '2026-03-01']);
    expect([c.prev, c.next]).toEqual(['2026-01-01', '2026-03-01']);
    await expect(calendarPage(deps({ schedules: [] }), account, { brand: 'brd_unknown' })).rejects.toMatchObject({ status: 404, code: 'brand_not_found' });
  });
});

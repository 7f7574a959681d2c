import { publishingWorld } from '../support/publishing';
import { bulkSchedule } from '../../shared/app/schedule/create';
import { parseBulkCsv } from '../../shared/app/schedule/csv';
import { getSchedule, listSchedules } from '../../shared/app/schedule/manage';
import { createRecurring, deleteRecurring, getRecurring, listRecurring } from '../../shared/app/schedule/recurring';
import { occurrenceScheduleId } from '../../shared/app/schedule/common';
import { RecurringRequestSchema, type RecurringRequest } from '../../shared/app/schedule/request';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { getPost } from '../../shared/app/publish/queries';
import { updateBrand } from '../../shared/app/brands';
import { AppError } from '../../shared/domain/errors';
import { usageKeys } from '../../shared/domain/usage';
import type { Account } from '../../shared/ports/store';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());
beforeEach(() => { w.telegram.reset(); w.discord.reset(); });

const discordSends = () => w.discord.requests.filter((r) => r.method === 'POST').length;
const rejection = async (p: Promise<unknown>) => {
  try { await p; } catch (err) { return err as AppError; }
  throw new Error('expected a rejection');
};

describe('POST /api/bulk', () => {
  it('JSON: valid rows are scheduled, invalid ones reported with row numbers and codes; next_slot rows fill successive free slots', async () => {
    const acc = await w.discordAccount();
    const brand = (await w.deps.brands.list(acc.id))[0];
    await updateBrand(w.deps, acc.id, brand.id, { timezone: 'Europe/Berlin', slots: ['09:00', '18:00'] });
    w.clock.ms = Date.parse('2026-10-23T12:00:00Z'); // Friday 14:00 CEST; Sunday 25 Oct clocks go back
    const res = await bulkSchedule(w.deps, acc, { posts: [
      { platform: 'discord', text: 'one' },
      { platform: 'discord', text: 'two', run_at: 'next_slot' },
      { platform: 'telegram', text: 'not connected' },
      { platform: 'discord', text: 'explicit', run_at: '2026-12-24T18:00:00+01:00' },
      'not an object',
      { platform: 'discord', text: 'past', run_at: '2020-01-01T00:00:00Z' },
      { platform: 'discord', text: '' },
      { platform: 'discord', text: 'three' },
      { platform: 'discord', text: 'four', run_at: 'next_slot' },
    ] });
    expect(res).toMatchObject({ total: 9, accepted: 5, rejected: 4 });
    expect(res.errors.map((e) => [e.row, e.code])).toEqual([[3, 'not_connected'], [5, 'invalid_request'], [6, 'invalid_run_at'], [7, 'empty_text']]);
    expect(res.errors[0]).toMatchObject({ platforms: ['telegram'], error: expect.any(String) });
    expect(res.scheduled.map((s) => [s.row, s.run_at])).toEqual([
      [1, '2026-10-23T16:00:00.000Z'], // Fri 18:00 CEST
      [2, '2026-10-24T07:00:00.000Z'], // Sat 09:00 CEST
      [4, '2026-12-24T17:00:00.000Z'],
      [8, '2026-10-24T16:00:00.000Z'], // Sat 18:00 CEST
      [9, '2026-10-25T08:00:00.000Z'], // Sun 09:00 CET (after the change)
    ]);
    expect(w.scheduler.scheduled.size).toBe(0);
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(5);
  });

  it('CSV: quoted commas and line breaks, BOM, CRLF, ;-lists; row errors by row number; over the plan cap per row', async () => {
    const acc = await w.discordAccount('free');
    const csv = '\ufeffplatforms,text,run_at\r\n' +
      'discord,"Hello, world\r\nline two",2030-01-01T09:00:00Z\r\n' +
      '\r\n' +
      'discord;slack,needs slack,2030-01-01T10:00:00Z\r\n' +
      Array.from({ length: 10 }, (_, i) => `discord,post ${i},2030-01-02T0${i}:00:00Z`).join('\r\n') + '\r\n';
    const res = await bulkSchedule(w.deps, acc, { csv: parseBulkCsv(csv) });
    expect(res).toMatchObject({ total: 12, accepted: 10, rejected: 2 });
    expect(res.errors.map((e) => [e.row, e.code])).toEqual([[2, 'not_connected'], [12, 'scheduled_limit_reached']]);
    expect(res.errors[1]).toMatchObject({ upgrade_url: expect.stringContaining('plan=starter') });
    const first = await getSchedule(w.deps, acc.id, res.scheduled[0].schedule_id);
    expect(first).toMatchObject({ text: 'Hello, world\nline two', run_at: '2030-01-01T09:00:00.000Z' });
  });

  it('501 rows are refused as a whole (too_many_rows), nothing scheduled', async () => {
    const acc = await w.discordAccount();
    const err = await rejection(bulkSchedule(w.deps, acc, { posts: Array.from({ length: 501 }, (_, i) => ({ platform: 'discord', text: `p${i}` })) }));
    expect(err).toMatchObject({ status: 400, code: 'too_many_rows', details: { limit: 500, rows: 501 } });
    expect((await listSchedules(w.deps, acc.id, { limit: 10 })).schedules).toHaveLength(0);
  });
});

describe('POST /api/recurring', () => {
  const recurring = (acc: Account, body: Partial<RecurringRequest>) => createRecurring(w.deps, acc, RecurringRequestSchema.parse(body));

  it('creates a cron alarm in the timezone; each occurrence publishes once with its own schedule, results and events', async () => {
    const acc = await w.discordAccount();
    w.clock.ms = Date.parse('2026-06-01T06:00:00Z');
    const r = await recurring(acc, { platform: 'discord', text: 'weekly', cron: '0 9 * * 1', timezone: 'Europe/Berlin', ends_at: '2026-06-16T00:00:00Z' });
    expect(r).toMatchObject({ recurring_id: expect.stringMatching(/^rec_/), status: 'active', cron: '0 9 * * 1', timezone: 'Europe/Berlin', next_run_at: '2026-06-01T07:00:00.000Z' });
    const alarm = w.scheduler.crons.get(`r-${r.recurring_id}`)!;
    expect(alarm).toMatchObject({ cron: '0 9 * * 1', timezone: 'Europe/Berlin', endsAt: new Date('2026-06-16T00:00:00Z'), input: { kind: 'recurring', recurring_id: r.recurring_id, occurrence: '<aws.scheduler.scheduled-time>' } });
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(1);

    const firing = (time: string) => DispatchInput.parse({ ...alarm.input, occurrence: time });
    w.clock.ms = Date.parse('2026-06-01T07:00:01Z');
    await Promise.all([dispatch(w.deps, firing('2026-06-01T07:00:00Z')), dispatch(w.deps, firing('2026-06-01T07:00:00Z'))]);
    await w.queue.drain();
    expect(discordSends()).toBe(1);
    const occId = occurrenceScheduleId(r.recurring_id, Date.parse('2026-06-01T07:00:00Z'));
    const occ = await getSchedule(w.deps, acc.id, occId);
    expect(occ).toMatchObject({ status: 'published', recurring_id: r.recurring_id, occurrence: '2026-06-01T07:00:00.000Z', results: [{ platform: 'discord', ok: true }] });
    const post = await getPost(w.deps, acc.id, occ.post_id!);
    expect(post.events.map((e) => [e.type, e.data.source, e.data.schedule_id, e.data.idempotency_key]))
      .toEqual([['post.published', 'schedule', occId, null]]);
    // the occurrence's duplicate key is the service's own: never shown in events
    expect(JSON.stringify(post)).not.toContain('rec:');

    w.clock.ms = Date.parse('2026-06-08T07:00:01Z');
    await dispatch(w.deps, firing('2026-06-08T07:00:00Z'));
    await w.queue.drain();
    expect(discordSends()).toBe(2);
    expect((await getRecurring(w.deps, acc.id, r.recurring_id))).toMatchObject({ status: 'active', last_run_at: '2026-06-08T07:00:00.000Z', next_run_at: '2026-06-15T07:00:00.000Z' });
    // the last occurrence of the window ends it and gives back its place
    w.clock.ms = Date.parse('2026-06-15T07:00:01Z');
    await dispatch(w.deps, firing('2026-06-15T07:00:00Z'));
    await w.queue.drain();
    expect(discordSends()).toBe(3);
    expect(await getRecurring(w.deps, acc.id, r.recurring_id)).toMatchObject({ status: 'ended', next_run_at: null });
    expect(w.scheduler.crons.has(`r-${r.recurring_id}`)).toBe(false);
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(0);
    expect((await listSchedules(w.deps, acc.id, { limit: 10 })).schedules.map((s) => s.recurring_id)).toEqual([r.recurring_id, r.recurring_id, r.recurring_id]);
  });

  it('DELETE stops it: a firing after that publishes nothing; a second delete is 409', async () => {
    const acc = await w.discordAccount();
    w.clock.ms = Date.parse('2026-06-01T06:00:00Z');
    const r = await recurring(acc, { platform: 'discord', text: 'daily', cron: '30 8 * * *' });
    const input = w.scheduler.crons.get(`r-${r.recurring_id}`)!.input;
    expect(await deleteRecurring(w.deps, acc.id, r.recurring_id)).toMatchObject({ status: 'canceled', next_run_at: null });
    expect(w.scheduler.crons.has(`r-${r.recurring_id}`)).toBe(false);
    await dispatch(w.deps, DispatchInput.parse({ ...input, occurrence: '2026-06-01T08:30:00Z' }));
    await w.queue.drain();
    expect(discordSends()).toBe(0);
    expect(await rejection(deleteRecurring(w.deps, acc.id, r.recurring_id))).toMatchObject({ status: 409, code: 'recurring_not_active' });
    expect(await rejection(getRecurring(w.deps, acc.id, 'rec_nope'))).toMatchObject({ status: 404 });
    expect((await listRecurring(w.deps, acc.id)).recurring.map((x) => x.status)).toEqual(['canceled']);
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(0);
  });

  it.each([
    [{ cron: '0 9 * *' }, 'invalid_cron'],
    [{ cron: '0 9 1 * 1' }, 'invalid_cron'],
    [{ cron: '0 0 30 2 *' }, 'invalid_cron'],
    [{ cron: '0 9 * * *', timezone: 'Mars/Base' }, 'invalid_timezone'],
    [{ cron: '0 9 * * *', ends_at: '2020-01-01T00:00:00Z' }, 'invalid_run_at'],
    [{ cron: '0 9 * * *', starts_at: '2031-01-02T00:00:00Z', ends_at: '2031-01-01T00:00:00Z' }, 'invalid_run_at'],
    [{ cron: '0 9 * * *', starts_at: '2031-01-01T10:00:00Z', ends_at: '2031-01-02T08:00:00Z' }, 'invalid_cron'],
    [{ cron: '0 9 * * *', platform: 'telegram' }, 'not_connected'],
  ])('refuses %j: %s', async (fields, code) => {
    const acc = await w.discordAccount();
    expect(await rejection(recurring(acc, { platform: 'discord', text: 'x', ...fields }))).toMatchObject({ status: 400, code });
  });
});

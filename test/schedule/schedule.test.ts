import { networkLimits } from '../../shared/networks/descriptor-limits';
import { publishingWorld } from '../support/publishing';
import { createSchedule } from '../../shared/app/schedule/create';
import { cancelSchedule, getSchedule, listSchedules, patchSchedule } from '../../shared/app/schedule/manage';
import { fireScheduled } from '../../shared/app/schedule/fire';
import { STALE_RUN_MS } from '../../shared/app/schedule/common';
import { ScheduleRequestSchema, type ScheduleRequest } from '../../shared/app/schedule/request';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { getPost } from '../../shared/app/publish/queries';
import { updateBrand } from '../../shared/app/brands';
import { usage } from '../../shared/app/usage';
import { AppError } from '../../shared/domain/errors';
import { usageKeys } from '../../shared/domain/usage';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { Account } from '../../shared/ports/store';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());
beforeEach(() => { w.telegram.reset(); w.discord.reset(); });

const inMinutes = (m: number) => new Date(w.clock.now() + m * 60_000).toISOString();
const schedule = (acc: Account, body: Partial<ScheduleRequest>) => createSchedule(w.deps, acc, ScheduleRequestSchema.parse(body));
const discordSends = () => w.discord.requests.filter((r) => r.method === 'POST').length;
const timerOf = (id: string) => w.scheduler.scheduled.get(`s-${id}`);
/** The fire worker gets the schedule's fire message (queued by the per-minute fan-out: test/schedule/due-fan-out.test.ts). */
const fire = async (id: string) => { await fireScheduled(w.deps, id); };
/** The due index's markers of a schedule (what the fan-out reads), as run_at times. */
const dueTimes = async (id: string) => (await w.deps.schedules.due('2000-01-01T00:00:00.000Z', '9999-01-01T00:00:00.000Z', 100_000)).filter((m) => m.schedule_id === id).map((m) => m.run_at);
const at = (iso: string) => { w.clock.ms = Date.parse(iso) + 10; };
const rejection = async (p: Promise<unknown>) => {
  try { await p; } catch (err) { return err as AppError; }
  throw new Error('expected a rejection');
};

describe('POST /api/schedule: everything checkable is checked now', () => {
  it('schedules: the item and its due marker (no alarm of its own), and a place on the plan counter', async () => {
    const acc = await w.discordAccount('free');
    const runAt = inMinutes(90);
    const res = await schedule(acc, { platform: 'discord', text: 'later', run_at: runAt });
    expect(res).toMatchObject({ schedule_id: expect.stringMatching(/^sch_/), run_at: new Date(Math.ceil(Date.parse(runAt) / 1000) * 1000).toISOString(), status: 'scheduled', platforms: ['discord'] });
    expect(timerOf(res.schedule_id)).toBeUndefined();
    expect(await dueTimes(res.schedule_id)).toEqual([res.run_at]);
    expect((await usage(w.deps, acc, 'key_test')).scheduled_at_a_time).toMatchObject({ limit: 10, used: 1, remaining: 9 });
    expect(discordSends()).toBe(0);
  });

  it.each([
    ['no offset', '2030-01-01T09:00:00', 'invalid_run_at'],
    ['in the past', '2020-01-01T09:00:00Z', 'invalid_run_at'],
    ['not a date', 'tomorrow', 'invalid_run_at'],
    ['not a real day', '2030-02-30T09:00:00Z', 'invalid_run_at'],
  ])('run_at %s: 400 %s', async (_, runAt, code) => {
    const acc = await w.discordAccount();
    const err = await rejection(schedule(acc, { platform: 'discord', text: 'x', run_at: runAt }));
    expect([err.status, err.code]).toEqual([400, code]);
  });

  it('network not connected, media rules, empty text, unknown network: 400 with the code, nothing scheduled', async () => {
    const acc = await w.discordAccount();
    const notConnected = await rejection(schedule(acc, { platforms: ['discord', 'telegram'], text: 'x', run_at: inMinutes(60) }));
    expect(notConnected).toMatchObject({ status: 400, code: 'not_connected', details: { platforms: ['telegram'] } });
    const media = await rejection(schedule(acc, { platform: 'discord', text: 'x', media: [{ url: 'https://x.test/a.jpg' }, { url: 'https://x.test/b.jpg' }], run_at: inMinutes(60) }));
    expect(media).toMatchObject({ status: 400, code: 'bad_media' });
    expect(await rejection(schedule(acc, { platform: 'discord', text: '  ', run_at: inMinutes(60) }))).toMatchObject({ status: 400, code: 'empty_text' });
    expect(await rejection(schedule(acc, { platform: 'myspace', text: 'x', run_at: inMinutes(60) }))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await rejection(schedule(acc, { platform: 'discord', text: 'x', brand_id: 'brd_nope', run_at: inMinutes(60) }))).toMatchObject({ status: 404, code: 'brand_not_found' });
    expect((await listSchedules(w.deps, acc.id, { limit: 50 })).schedules).toHaveLength(0);
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(0);
  });

  it('the plan caps scheduled posts at a time: Free holds 10; the 11th is 400 scheduled_limit_reached; a cancel frees a place', async () => {
    const acc = await w.discordAccount('free');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await schedule(acc, { platform: 'discord', text: `p${i}`, run_at: inMinutes(60 + i) })).schedule_id);
    const over = await rejection(schedule(acc, { platform: 'discord', text: 'p10', run_at: inMinutes(80) }));
    expect(over).toMatchObject({ status: 400, code: 'scheduled_limit_reached', details: { limit: 10, upgrade_url: 'https://api.test/dashboard/plan?plan=starter' } });
    await cancelSchedule(w.deps, acc.id, ids[0]);
    expect((await schedule(acc, { platform: 'discord', text: 'p10', run_at: inMinutes(80) })).status).toBe('scheduled');
  });

  it('an idempotency_key schedules once in 24 hours (409 duplicate_post naming the schedule)', async () => {
    const acc = await w.discordAccount();
    const first = await schedule(acc, { platform: 'discord', text: 'k', idempotency_key: 'launch-1', run_at: inMinutes(60) });
    const again = await rejection(schedule(acc, { platform: 'discord', text: 'k', idempotency_key: 'launch-1', run_at: inMinutes(61) }));
    expect(again).toMatchObject({ status: 409, code: 'duplicate_post', details: { schedule_id: first.schedule_id } });
  });
});

describe('the dispatcher: fires through the publishing core, at most once', () => {
  it('publishes when due with source schedule and the schedule_id; results on GET; the counter place is given back', async () => {
    const acc = await w.discordAccount();
    const s = await schedule(acc, { platform: 'discord', text: 'on time', run_at: inMinutes(30) });
    at(s.run_at);
    await fire(s.schedule_id);
    await w.queue.drain();
    expect(discordSends()).toBe(1);
    const got = await getSchedule(w.deps, acc.id, s.schedule_id);
    expect(got).toMatchObject({ status: 'published', post_id: expect.stringMatching(/^pst_/), results: [{ platform: 'discord', ok: true, status: 'published' }] });
    const post = await getPost(w.deps, acc.id, got.post_id!);
    expect(post).toMatchObject({ source: 'schedule', schedule_id: s.schedule_id });
    expect(post.events.map((e) => [e.type, e.data.source, e.data.schedule_id])).toEqual([['post.published', 'schedule', s.schedule_id]]);
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(0);
    expect(await w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()))).toBe(1);
  });

  it('two fires at once (a double delivery, a retry) publish once', async () => {
    const acc = await w.discordAccount();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await schedule(acc, { platform: 'discord', text: `race ${i}`, run_at: inMinutes(10) })).schedule_id);
    at(inMinutes(10));
    await Promise.all(ids.flatMap((id) => [fire(id), fire(id), fire(id)]));
    await w.queue.drain();
    expect(discordSends()).toBe(5);
    for (const id of ids) expect((await getSchedule(w.deps, acc.id, id)).status).toBe('published');
  });

  it('a fire racing a cancel: exactly one wins, and a canceled post is never published', async () => {
    const acc = await w.discordAccount();
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push((await schedule(acc, { platform: 'discord', text: `fire or cancel ${i}`, run_at: inMinutes(10) })).schedule_id);
    at(inMinutes(10));
    const outcomes = await Promise.all(ids.map(async (id) => {
      const [, cancel] = await Promise.allSettled([fire(id), cancelSchedule(w.deps, acc.id, id)]);
      return cancel.status === 'fulfilled' ? 'canceled' : (cancel.reason as AppError).code;
    }));
    await w.queue.drain();
    const statuses = await Promise.all(ids.map(async (id) => (await getSchedule(w.deps, acc.id, id)).status));
    outcomes.forEach((o, i) => {
      if (o === 'canceled') expect(statuses[i]).toBe('canceled');
      else expect([statuses[i], ['schedule_publishing', 'schedule_not_pending'].includes(o)]).toEqual(['published', true]);
    });
    expect(discordSends()).toBe(statuses.filter((s) => s === 'published').length);
    // a fire after the cancel does nothing
    for (const id of ids.filter((_, i) => statuses[i] === 'canceled')) await fireScheduled(w.deps, id);
    await w.queue.drain();
    expect(discordSends()).toBe(statuses.filter((s) => s === 'published').length);
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(0);
  });

  it('an early fire (message or previous-release alarm) publishes nothing, arms nothing, and leaves it in the due index', async () => {
    const acc = await w.discordAccount();
    const s = await schedule(acc, { platform: 'discord', text: 'not yet', run_at: inMinutes(30) });
    await dispatch(w.deps, DispatchInput.parse({ v: 1, kind: 'scheduled', schedule_id: s.schedule_id }));
    await fireScheduled(w.deps, s.schedule_id);
    expect(discordSends()).toBe(0);
    expect((await getSchedule(w.deps, acc.id, s.schedule_id)).status).toBe('scheduled');
    expect(timerOf(s.schedule_id)).toBeUndefined();
    expect(await dueTimes(s.schedule_id)).toEqual([s.run_at]);
  });

  it('a dispatcher that died after its claim: taken over after the stale time; a post it already made is linked, not resent', async () => {
    const acc = await w.discordAccount();
    const a = await schedule(acc, { platform: 'discord', text: 'died before publishing', run_at: inMinutes(5) });
    const b = await schedule(acc, { platform: 'discord', text: 'died after publishing', run_at: inMinutes(5) });
    at(a.run_at);
    expect(await w.deps.schedules.claim(a.schedule_id, inMinutes(1), w.clock.now())).toBeDefined();
    expect(await w.deps.schedules.claim(b.schedule_id, inMinutes(1), w.clock.now())).toBeDefined();
    // b's dead run got as far as publishing (same key as the dispatcher uses), then died before recording the post
    const made = await publishPost(w.deps, acc, { ...validatePost({ platform: 'discord', text: 'died after publishing' }, networkLimits()), duplicate_key: `sch:${b.schedule_id}` }, { source: 'schedule', schedule_id: b.schedule_id, wait: false });
    await w.queue.drain();
    expect(discordSends()).toBe(1);
    await fire(a.schedule_id); await fire(b.schedule_id); // retries within the stale time: nothing
    expect((await getSchedule(w.deps, acc.id, a.schedule_id)).status).toBe('publishing');
    w.clock.advance(STALE_RUN_MS + 1000);
    await fire(a.schedule_id); await fire(b.schedule_id);
    await w.queue.drain();
    expect(discordSends()).toBe(2);
    expect(await getSchedule(w.deps, acc.id, a.schedule_id)).toMatchObject({ status: 'published' });
    expect(await getSchedule(w.deps, acc.id, b.schedule_id)).toMatchObject({ status: 'published', post_id: made.post_id });
  });
});

describe('GET, PATCH and DELETE /api/schedule', () => {
  it('PATCH moves run_at in the due index only; a fire (or previous-release alarm) at the old time publishes nothing', async () => {
    const acc = await w.discordAccount();
    const s = await schedule(acc, { platform: 'discord', text: 'v1', run_at: inMinutes(10) });
    const moved = await patchSchedule(w.deps, acc, s.schedule_id, { run_at: inMinutes(120), text: 'v2' });
    expect(moved).toMatchObject({ status: 'scheduled', text: 'v2' });
    expect(await dueTimes(s.schedule_id)).toEqual([moved.run_at]);
    expect(timerOf(s.schedule_id)).toBeUndefined();
    at(inMinutes(10));
    await dispatch(w.deps, DispatchInput.parse({ v: 1, kind: 'scheduled', schedule_id: s.schedule_id }));
    await fire(s.schedule_id);
    expect(discordSends()).toBe(0);
    at(moved.run_at);
    await fire(s.schedule_id);
    await w.queue.drain();
    expect(w.discord.requests.filter((r) => r.method === 'POST').map((r) => (r.json as { content: string }).content)).toEqual(['v2']);
  });

  it('PATCH content is checked again; a PATCH or cancel of one that is publishing or ran is 409', async () => {
    const acc = await w.discordAccount();
    const s = await schedule(acc, { platform: 'discord', text: 'x', run_at: inMinutes(10) });
    expect(await rejection(patchSchedule(w.deps, acc, s.schedule_id, { platform: 'telegram' }))).toMatchObject({ status: 400, code: 'not_connected' });
    expect(await rejection(patchSchedule(w.deps, acc, s.schedule_id, { run_at: '2001-01-01T00:00:00Z' }))).toMatchObject({ status: 400, code: 'invalid_run_at' });
    at(s.run_at);
    expect(await w.deps.schedules.claim(s.schedule_id, inMinutes(1), w.clock.now())).toBeDefined(); // the dispatcher is on it
    expect(await rejection(patchSchedule(w.deps, acc, s.schedule_id, { text: 'too late' }))).toMatchObject({ status: 409, code: 'schedule_publishing' });
    expect(await rejection(cancelSchedule(w.deps, acc.id, s.schedule_id))).toMatchObject({ status: 409, code: 'schedule_publishing' });
    const done = await schedule(acc, { platform: 'discord', text: 'y', run_at: inMinutes(5) });
    at(done.run_at);
    await fire(done.schedule_id);
    await w.queue.drain();
    expect(await rejection(cancelSchedule(w.deps, acc.id, done.schedule_id))).toMatchObject({ status: 409, code: 'schedule_not_pending', details: { status: 'published' } });
    expect(await rejection(patchSchedule(w.deps, acc, done.schedule_id, { text: 'z' }))).toMatchObject({ status: 409 });
  });

  it('a refused PATCH or cancel (409 on a published or canceled schedule) writes nothing: updated_at stays', async () => {
    const acc = await w.discordAccount();
    const done = await schedule(acc, { platform: 'discord', text: 'ran', run_at: inMinutes(5) });
    at(done.run_at);
    await fire(done.schedule_id);
    await w.queue.drain();
    w.clock.advance(60_000);
    const seen = await getSchedule(w.deps, acc.id, done.schedule_id);
    expect(seen.status).toBe('published');
    const stored = await w.deps.schedules.get(done.schedule_id);
    expect(seen.updated_at).toBe(stored!.updated_at);
    w.clock.advance(60_000);
    expect(await rejection(patchSchedule(w.deps, acc, done.schedule_id, { text: 'z' }))).toMatchObject({ status: 409, code: 'schedule_not_pending' });
    expect(await rejection(cancelSchedule(w.deps, acc.id, done.schedule_id))).toMatchObject({ status: 409, code: 'schedule_not_pending' });
    expect(await w.deps.schedules.get(done.schedule_id)).toEqual(stored);
    expect((await getSchedule(w.deps, acc.id, done.schedule_id)).updated_at).toBe(seen.updated_at);

    const canceled = await schedule(acc, { platform: 'discord', text: 'gone', run_at: inMinutes(30) });
    await cancelSchedule(w.deps, acc.id, canceled.schedule_id);
    const before = await w.deps.schedules.get(canceled.schedule_id);
    w.clock.advance(60_000);
    expect(await rejection(patchSchedule(w.deps, acc, canceled.schedule_id, { run_at: inMinutes(90) }))).toMatchObject({ status: 409 });
    expect(await w.deps.schedules.get(canceled.schedule_id)).toEqual(before);
  });

  it('a PATCH or cancel before anyone read the outcome of a run writes nothing either', async () => {
    const acc = await w.discordAccount();
    const done = await schedule(acc, { platform: 'discord', text: 'ran unseen', run_at: inMinutes(5) });
    at(done.run_at);
    await fire(done.schedule_id);
    await w.queue.drain();
    const stored = await w.deps.schedules.get(done.schedule_id);
    w.clock.advance(60_000);
    expect(await rejection(patchSchedule(w.deps, acc, done.schedule_id, { text: 'z' }))).toMatchObject({ status: 409, code: 'schedule_not_pending', details: { status: 'published' } });
    expect(await w.deps.schedules.get(done.schedule_id)).toEqual(stored);
  });

  it("cancel: the item is canceled, its due marker dropped, the place given back; another account's or a malformed id is 404", async () => {
    const acc = await w.discordAccount();
    const other = await w.discordAccount();
    const s = await schedule(acc, { platform: 'discord', text: 'x', run_at: inMinutes(10) });
    expect(await rejection(cancelSchedule(w.deps, other.id, s.schedule_id))).toMatchObject({ status: 404 });
    expect(await rejection(getSchedule(w.deps, acc.id, 'sch_nope'))).toMatchObject({ status: 404 });
    expect(await cancelSchedule(w.deps, acc.id, s.schedule_id)).toMatchObject({ status: 'canceled', canceled_at: expect.any(String) });
    expect(await dueTimes(s.schedule_id)).toEqual([]);
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(0);
    expect(await rejection(cancelSchedule(w.deps, acc.id, s.schedule_id))).toMatchObject({ status: 409, code: 'schedule_not_pending' });
  });

  it('next_slot: the first free brand slot after now in the brand timezone; slots and timezone from PATCH /api/brands', async () => {
    const acc = await w.discordAccount();
    const brand = (await w.deps.brands.list(acc.id))[0];
    await updateBrand(w.deps, acc.id, brand.id, { timezone: 'America/New_York', slots: ['10:30'] });
    w.clock.ms = Date.parse('2026-03-06T16:00:00Z'); // Friday 11:00 EST
    const a = await schedule(acc, { platform: 'discord', text: 'a', run_at: 'next_slot' });
    const b = await schedule(acc, { platform: 'discord', text: 'b', run_at: 'next_slot' });
    const c = await schedule(acc, { platform: 'discord', text: 'c', run_at: '2026-03-09T10:30:00-04:00' }); // explicitly on a slot
    const d = await schedule(acc, { platform: 'discord', text: 'd', run_at: 'next_slot' });
    // Sat 10:30 EST, Sun 10:30 EDT (DST began at 02:00 on Sunday), Monday taken by c, so Tuesday
    expect([a, b, c, d].map((x) => x.run_at)).toEqual(['2026-03-07T15:30:00.000Z', '2026-03-08T14:30:00.000Z', '2026-03-09T14:30:00.000Z', '2026-03-10T14:30:00.000Z']);
    expect(a).toMatchObject({ next_slot: true });
    await cancelSchedule(w.deps, acc.id, b.schedule_id);
    expect((await schedule(acc, { platform: 'discord', text: 'e', run_at: 'next_slot' })).run_at).toBe('2026-03-08T14:30:00.000Z');
  });

  it('lists by run_at with filters (status, brand, date range) and a cursor; rate-limit deferrals show with deferred: true', async () => {
    const acc = await w.newAccount('pro');
    await w.connectDiscord(w.deps, acc);
    await w.connectTelegram(w.deps, acc);
    const ids = [];
    for (const m of [50, 10, 40, 20, 30]) ids.push((await schedule(acc, { platform: 'discord', text: `m${m}`, run_at: inMinutes(m) })).schedule_id);
    await cancelSchedule(w.deps, acc.id, ids[2]); // the one at +40
    const all = await listSchedules(w.deps, acc.id, { limit: 2 });
    expect(all.schedules.map((s) => s.text)).toEqual(['m10', 'm20']);
    const page2 = await listSchedules(w.deps, acc.id, { limit: 2, cursor: all.next_cursor! });
    expect(page2.schedules.map((s) => s.text)).toEqual(['m30', 'm40']);
    const page3 = await listSchedules(w.deps, acc.id, { limit: 2, cursor: page2.next_cursor! });
    expect(page3.schedules.map((s) => s.text)).toEqual(['m50']);
    expect((await listSchedules(w.deps, acc.id, { limit: 10, status: 'scheduled' })).schedules.map((s) => s.text)).toEqual(['m10', 'm20', 'm30', 'm50']);
    expect((await listSchedules(w.deps, acc.id, { limit: 10, status: 'canceled' })).schedules.map((s) => s.text)).toEqual(['m40']);
    expect((await listSchedules(w.deps, acc.id, { limit: 10, from: inMinutes(15), to: inMinutes(35) })).schedules.map((s) => s.text)).toEqual(['m20', 'm30']);
    expect((await listSchedules(w.deps, acc.id, { limit: 10, brand_id: 'brd_01ZZZZZZZZZZZZZZZZZZZZZZZZ' })).schedules).toEqual([]);
    expect(await rejection(listSchedules(w.deps, acc.id, { limit: 10, from: '2026-01-01' }))).toMatchObject({ status: 400 });

    w.telegram.failNext(TelegramFake.error(429, 'Too Many Requests: retry after 120', { retry_after: 120 }));
    const res = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'busy chat' }, networkLimits()), { source: 'api', wait: true });
    const deferredId = res.results[0].schedule_id!;
    const deferred = (await listSchedules(w.deps, acc.id, { limit: 10, deferred: true })).schedules;
    expect(deferred).toEqual([expect.objectContaining({ schedule_id: deferredId, deferred: true, status: 'scheduled', platforms: ['telegram'], post_id: res.post_id, run_at: res.results[0].run_at })]);
    expect((await listSchedules(w.deps, acc.id, { limit: 10, deferred: false })).schedules.every((s) => !s.deferred)).toBe(true);
    expect(await rejection(cancelSchedule(w.deps, acc.id, deferredId))).toMatchObject({ status: 409, code: 'schedule_deferred' });
    const timer = [...w.scheduler.scheduled.values()].find((t) => t.input.schedule_id === deferredId)!;
    await dispatch(w.deps, DispatchInput.parse(timer.input));
    await w.queue.drain();
    expect(await getSchedule(w.deps, acc.id, deferredId)).toMatchObject({ status: 'published', deferred: true, results: [{ platform: 'telegram', ok: true, status: 'published' }] });
    expect((await listSchedules(w.deps, acc.id, { limit: 10, status: 'published' })).schedules.map((s) => s.schedule_id)).toEqual([deferredId]);
  });
});

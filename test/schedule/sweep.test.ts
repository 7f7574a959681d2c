import { publishingWorld } from '../support/publishing';
import { MemoryScheduler } from '../support/deps';
import { createSchedule } from '../../shared/app/schedule/create';
import { cancelSchedule, getSchedule, patchSchedule } from '../../shared/app/schedule/manage';
import { fireScheduled } from '../../shared/app/schedule/fire';
import { recordDeferral } from '../../shared/app/publish/deferral';
import { SCHEDULE_SWEEP, SWEEP_GRACE_MS, sweepSchedules } from '../../shared/app/schedule/sweep';
import { SWEEP_SCHEDULES } from '../../infra/sweep-schedules';
import { SchedulePatchSchema, ScheduleRequestSchema, type ScheduleRequest } from '../../shared/app/schedule/request';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../shared/app/deps';
import type { Account } from '../../shared/ports/store';
import type { ScheduledInvocation } from '../../shared/ports/scheduler';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());
beforeEach(() => { w.discord.reset(); });

/**
 * A scheduler whose one-time alarms never happen (a near-term post's alarm, or one of the previous release, lost); no
 * fan-out runs in these tests either, so every fire message is lost too: only the sweep is left.
 */
class AlarmLostScheduler extends MemoryScheduler {
  override async scheduleOnce(_inv: ScheduledInvocation) { /* the process died here */ }
}
const crashing = (): Deps => ({ ...w.deps, scheduler: new AlarmLostScheduler() });

let n = 0;
const unique = (label: string) => `${label} ${++n} ${Date.now()}`;
const inMinutes = (m: number) => new Date(w.clock.now() + m * 60_000).toISOString();
const schedule = (deps: Deps, acc: Account, body: Partial<ScheduleRequest>) => createSchedule(deps, acc, ScheduleRequestSchema.parse(body));
const sendsOf = (text: string) => w.discord.requests.filter((r) => r.method === 'POST' && r.text.includes(text)).length;
/** The sweep's timer fires: the dispatcher gets its input, as EventBridge Scheduler (or the local poller) sends it. */
const sweepTimer = async () => {
  const timer = SWEEP_SCHEDULES.find((t) => t.name === SCHEDULE_SWEEP.name);
  expect(timer).toBeDefined();
  await dispatch(w.deps, DispatchInput.parse(timer!.input));
  await w.queue.drain();
};
const dueMarker = async (id: string, runAt: string) =>
  (await w.table.doc.send(new GetCommand({ TableName: w.table.tableName, Key: keys.scheduleDue(id, runAt) }))).Item;

describe('schedule sweep: a schedule whose alarm and fire messages were all lost is still published, once', () => {
  it('publishes it through the dispatcher once it is more than the grace past run_at; a second sweep and the late alarm do nothing', async () => {
    const acc = await w.discordAccount();
    const lost = crashing();
    const text = unique('alarm lost');
    const s = await schedule(lost, acc, { platform: 'discord', text, run_at: inMinutes(10) });
    expect((lost.scheduler as MemoryScheduler).scheduled.size).toBe(0);
    expect(await dueMarker(s.schedule_id, s.run_at)).toMatchObject({ schedule_id: s.schedule_id, run_at: s.run_at });

    // due, but within the grace (its alarm may still be on its way): left alone
    w.clock.ms = Date.parse(s.run_at) + SWEEP_GRACE_MS - 5_000;
    await sweepTimer();
    expect(sendsOf(text)).toBe(0);
    expect((await getSchedule(w.deps, acc.id, s.schedule_id)).status).toBe('scheduled');

    w.clock.ms = Date.parse(s.run_at) + SWEEP_GRACE_MS + 5_000;
    await sweepTimer();
    expect(sendsOf(text)).toBe(1);
    const after = await getSchedule(w.deps, acc.id, s.schedule_id);
    expect(after).toMatchObject({ status: 'published', post_id: expect.stringMatching(/^pst_/) });
    expect(await dueMarker(s.schedule_id, s.run_at)).toBeUndefined();

    // a second sweep, and the real alarm arriving late, lose the claim
    await sweepTimer();
    await fireScheduled(w.deps, s.schedule_id);
    await dispatch(w.deps, DispatchInput.parse({ kind: 'scheduled', schedule_id: s.schedule_id }));
    await w.queue.drain();
    expect(sendsOf(text)).toBe(1);
    expect((await getSchedule(w.deps, acc.id, s.schedule_id)).post_id).toBe(after.post_id);
  });

  it('a sweep racing the late alarm still publishes once', async () => {
    const acc = await w.discordAccount();
    const text = unique('race');
    const s = await schedule(crashing(), acc, { platform: 'discord', text, run_at: inMinutes(10) });
    w.clock.ms = Date.parse(s.run_at) + SWEEP_GRACE_MS + 1_000;
    await Promise.all([sweepSchedules(w.deps), sweepSchedules(w.deps), fireScheduled(w.deps, s.schedule_id)]);
    await w.queue.drain();
    expect(sendsOf(text)).toBe(1);
  });
});

describe('schedule sweep: leaves alone what it must not fire', () => {
  it('canceled, future, already publishing and deferral items are not touched', async () => {
    const acc = await w.discordAccount();
    const lost = crashing();
    const texts = { canceled: unique('canceled'), future: unique('future'), publishing: unique('publishing') };
    const canceled = await schedule(w.deps, acc, { platform: 'discord', text: texts.canceled, run_at: inMinutes(5) });
    await cancelSchedule(w.deps, acc.id, canceled.schedule_id);
    const future = await schedule(lost, acc, { platform: 'discord', text: texts.future, run_at: inMinutes(120) });
    const publishing = await schedule(lost, acc, { platform: 'discord', text: texts.publishing, run_at: inMinutes(5) });
    const deferralId = `sch_${'0'.repeat(10)}${'D'.repeat(16)}`;
    await recordDeferral(w.deps, {
      schedule_id: deferralId, account_id: acc.id, brand_id: canceled.brand_id, post_id: `pst_${'0'.repeat(26)}`, platform: 'discord',
      run_at: new Date(w.clock.now() + 5 * 60_000),
    });
    expect(await dueMarker(canceled.schedule_id, canceled.run_at)).toBeUndefined();

    w.clock.ms = Date.parse(publishing.run_at) + SWEEP_GRACE_MS + 30_000;
    // another dispatcher has just claimed it (its run is in progress, younger than STALE_RUN_MS)
    expect(await w.deps.schedules.claim(publishing.schedule_id, publishing.run_at, w.clock.now())).toBeDefined();

    w.clock.ms = Date.parse(publishing.run_at) + SWEEP_GRACE_MS + 60_000;
    await sweepSchedules(w.deps);
    await w.queue.drain();
    expect(Object.values(texts).map(sendsOf)).toEqual([0, 0, 0]);
    expect((await w.deps.schedules.get(canceled.schedule_id))?.status).toBe('canceled');
    expect((await w.deps.schedules.get(future.schedule_id))).toMatchObject({ status: 'scheduled' });
    expect((await w.deps.schedules.get(publishing.schedule_id))).toMatchObject({ status: 'publishing' });
    expect((await w.deps.schedules.get(publishing.schedule_id))?.post_id).toBeUndefined();
    expect((await w.deps.schedules.get(deferralId))).toMatchObject({ status: 'scheduled', deferred: true });

    // the future one is fired once it too is past the grace
    w.clock.ms = Date.parse(future.run_at) + SWEEP_GRACE_MS + 1_000;
    await sweepSchedules(w.deps);
    await w.queue.drain();
    expect(sendsOf(texts.future)).toBe(1);
    expect((await w.deps.schedules.get(deferralId))).toMatchObject({ status: 'scheduled', deferred: true });
  });

  it('a schedule moved by PATCH is found at its new time only', async () => {
    const acc = await w.discordAccount();
    const lost = crashing();
    const text = unique('moved');
    const s = await schedule(lost, acc, { platform: 'discord', text, run_at: inMinutes(5) });
    const moved = await patchSchedule(lost, acc, s.schedule_id, SchedulePatchSchema.parse({ run_at: inMinutes(60) }));
    expect(await dueMarker(s.schedule_id, s.run_at)).toBeUndefined();
    expect(await dueMarker(s.schedule_id, moved.run_at)).toBeDefined();

    w.clock.ms = Date.parse(s.run_at) + SWEEP_GRACE_MS + 1_000;
    await sweepSchedules(w.deps);
    await w.queue.drain();
    expect(sendsOf(text)).toBe(0);
    w.clock.ms = Date.parse(moved.run_at) + SWEEP_GRACE_MS + 1_000;
    await sweepSchedules(w.deps);
    await w.queue.drain();
    expect(sendsOf(text)).toBe(1);
  });

  it('bounds one sweep to `limit` schedules, oldest first; the next sweep takes the rest', async () => {
    const acc = await w.discordAccount();
    const lost = crashing();
    const texts = [unique('bounded a'), unique('bounded b'), unique('bounded c')];
    const made = [];
    for (const [i, text] of texts.entries()) made.push(await schedule(lost, acc, { platform: 'discord', text, run_at: inMinutes(5 + i) }));
    w.clock.ms = Date.parse(made[2].run_at) + SWEEP_GRACE_MS + 1_000;
    expect(await sweepSchedules(w.deps, 2)).toEqual({ fired: 2, failed: 0 });
    await w.queue.drain();
    expect(texts.map(sendsOf)).toEqual([1, 1, 0]);
    await sweepSchedules(w.deps, 2);
    await w.queue.drain();
    expect(texts.map(sendsOf)).toEqual([1, 1, 1]);
  });
});

describe('schedule sweep timer', () => {
  it('is part of the deployment (infra/sweep-schedules.ts), not armed by scheduling posts', async () => {
    const acc = await w.discordAccount();
    const scheduler = new MemoryScheduler();
    const crons: string[] = [];
    const counting = Object.assign(scheduler, {
      scheduleCron: async (inv: Parameters<MemoryScheduler['scheduleCron']>[0]) => { crons.push(inv.name); scheduler.crons.set(inv.name, inv); },
    });
    const deps: Deps = { ...w.deps, scheduler: counting };
    await schedule(deps, acc, { platform: 'discord', text: unique('arm 1'), run_at: inMinutes(30) });
    await schedule(deps, acc, { platform: 'discord', text: unique('arm 2'), run_at: inMinutes(31) });
    expect(crons).toEqual([]);
    expect(SCHEDULE_SWEEP).toEqual({ name: 'schedule-sweep', cron: '* * * * *', timezone: 'UTC' });
    expect(DispatchInput.parse({ kind: 'schedule-sweep' })).toEqual({ v: 1, kind: 'schedule-sweep' });
  });
});

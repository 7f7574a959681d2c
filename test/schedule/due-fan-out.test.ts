import { publishingWorld } from '../support/publishing';
import { fireDue, ManualClock } from '../support/deps';
import { bulkSchedule, createSchedule } from '../../shared/app/schedule/create';
import { cancelSchedule, getSchedule, patchSchedule } from '../../shared/app/schedule/manage';
import { fanOutDue, FireMessage } from '../../shared/app/schedule/due-fan-out';
import { fireScheduled } from '../../shared/app/schedule/fire';
import { ScheduleRequestSchema } from '../../shared/app/schedule/request';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { usageKeys } from '../../shared/domain/usage';
import type { Account } from '../../shared/ports/store';
import type { Deps } from '../../shared/app/deps';

let w: Awaited<ReturnType<typeof publishingWorld>>;
let deps: Deps;
const clock = new ManualClock(Date.UTC(2031, 0, 1, 9, 0, 0));
beforeAll(async () => {
  w = await publishingWorld();
  deps = w.rebuild({ clock });
});
afterAll(() => w.stop());

/** Each test works in its own hour of 2031, so what earlier tests left in the (global) due index is long past. */
let hour = 0;
let M = 0;
beforeEach(() => {
  w.discord.reset();
  hour += 1;
  M = Date.UTC(2031, 0, 1, 9 + hour, 0, 0);
  clock.ms = M - 30 * 60_000;
});

const iso = (ms: number) => new Date(ms).toISOString();
const schedule = (acc: Account, text: string, runAt: number) => createSchedule(deps, acc, ScheduleRequestSchema.parse({ platform: 'discord', text, run_at: iso(runAt) }));
const sentTexts = () => w.discord.requests.filter((r) => r.method === 'POST').map((r) => String((r.json as { content?: string }).content)).sort();
/** The fire messages the fan-out run by `fn` queued. */
async function queuedBy(fn: () => Promise<unknown>) {
  const before = w.queue.sent.length;
  await fn();
  return w.queue.sent.slice(before).filter((s) => s.queueUrl === deps.settings.fireQueueUrl).map((s) => ({ ...s.message, body: FireMessage.parse(s.message.body) }));
}

describe('the per-minute fan-out of scheduled posts', () => {
  it("queues this minute's posts delayed to their second, in the account's group, and the two minutes before; not later ones", async () => {
    const a = await w.discordAccount();
    const b = await w.discordAccount();
    const inMinute = await schedule(a, 'at M+30s', M + 30_000);
    const atStart = await schedule(b, 'at M', M);
    const next = await schedule(a, 'at M+60s', M + 60_000);
    const lost = await schedule(b, 'at M-90s', M - 90_000);
    const old = await schedule(b, 'at M-3min', M - 3 * 60_000);
    clock.ms = M + 200;
    const queued = await queuedBy(() => dispatch(deps, DispatchInput.parse({ v: 1, kind: 'schedule-fan-out' })));
    const byId = new Map(queued.map((m) => [m.body.schedule_id, m]));
    expect([...byId.keys()].sort()).toEqual([inMinute.schedule_id, atStart.schedule_id, lost.schedule_id].sort());
    expect(queued).toHaveLength(3);
    expect(byId.get(inMinute.schedule_id)).toMatchObject({ group: a.id, delaySeconds: 30, body: { v: 1, schedule_id: inMinute.schedule_id } });
    expect(byId.get(atStart.schedule_id)!.delaySeconds).toBeUndefined();
    expect(byId.get(lost.schedule_id)).toMatchObject({ group: b.id });
    expect(byId.has(next.schedule_id) || byId.has(old.schedule_id)).toBe(false);
  });

  it('scheduled posts fire within their minute through the fire worker; the counter places are given back', async () => {
    const acc = await w.discordAccount();
    const res = await bulkSchedule(deps, acc, { posts: [0, 15, 59].map((s) => ({ platform: 'discord', text: `second ${s}`, run_at: iso(M + s * 1000) })) });
    expect(res.accepted).toBe(3);
    expect(w.scheduler.scheduled.size).toBe(0);
    clock.ms = M + 59_500; // the messages' delays have run out
    expect(await fireDue(deps, w.queue)).toBe(3);
    await w.queue.drain();
    expect(sentTexts()).toEqual(['second 0', 'second 15', 'second 59']);
    for (const s of res.scheduled) expect((await getSchedule(deps, acc.id, s.schedule_id)).status).toBe('published');
    expect(await deps.counters.get(usageKeys.scheduled(acc.id))).toBe(0);
    // the next minute's fan-out finds nothing left to fire (the runs that recorded their post left the due index)
    clock.ms = M + 60_000 + 100;
    expect(await fireDue(deps, w.queue)).toBe(0);
    await w.queue.drain();
    expect(sentTexts()).toHaveLength(3);
  });

  it("a fire message that was lost (or came early) is queued again by the next minute's fan-out, and the post publishes once", async () => {
    const acc = await w.discordAccount();
    const s = await schedule(acc, 'lost once', M + 40_000);
    clock.ms = M + 100;
    // the minute's message is lost: queued, never delivered
    expect((await queuedBy(() => fanOutDue(deps))).map((m) => m.body.schedule_id)).toEqual([s.schedule_id]);
    // delivered 40 s too early instead: not due, nothing published, still waiting in the due index
    await fireScheduled(deps, s.schedule_id);
    expect((await getSchedule(deps, acc.id, s.schedule_id)).status).toBe('scheduled');
    clock.ms = M + 60_000 + 100;
    expect(await fireDue(deps, w.queue)).toBe(1);
    await w.queue.drain();
    expect(sentTexts()).toEqual(['lost once']);
    clock.ms = M + 120_000 + 100;
    expect(await fireDue(deps, w.queue)).toBe(0);
  });

  it('a canceled post is not queued; a moved one is queued in its new minute only', async () => {
    const acc = await w.discordAccount();
    const canceled = await schedule(acc, 'canceled', M + 10_000);
    const moved = await schedule(acc, 'moved', M + 20_000);
    await cancelSchedule(deps, acc.id, canceled.schedule_id);
    await patchSchedule(deps, acc, moved.schedule_id, { run_at: iso(M + 5 * 60_000 + 20_000) });
    clock.ms = M + 100;
    expect(await queuedBy(() => fanOutDue(deps))).toEqual([]);
    clock.ms = M + 5 * 60_000 + 30_000;
    expect((await queuedBy(() => fanOutDue(deps))).map((m) => m.body.schedule_id)).toEqual([moved.schedule_id]);
  });

  it('posts with an alarm of the previous release: the alarm and the fan-out both fire them, at the same time, twice each; each publishes once', async () => {
    const acc = await w.discordAccount();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await schedule(acc, `upgraded ${i}`, M + 30_000)).schedule_id);
    // the alarms the previous release armed for them (EventBridge Scheduler keeps them across the deploy)
    const alarms = ids.map((id) => DispatchInput.parse({ v: 1, kind: 'scheduled', schedule_id: id }));
    clock.ms = M + 30_000;
    const queued = await queuedBy(() => fanOutDue(deps));
    expect(queued).toHaveLength(6);
    // real concurrency on the embedded table: every alarm and every fire message, each delivered twice, at once
    await Promise.all([
      ...alarms.flatMap((a) => [dispatch(deps, a), dispatch(deps, a)]),
      ...queued.flatMap((m) => [fireScheduled(deps, m.body.schedule_id), fireScheduled(deps, m.body.schedule_id)]),
    ]);
    await w.queue.drain();
    expect(sentTexts()).toEqual(ids.map((_, i) => `upgraded ${i}`).sort());
    const states = await Promise.all(ids.map((id) => getSchedule(deps, acc.id, id)));
    expect(states.map((s) => s.status)).toEqual(ids.map(() => 'published'));
    expect(new Set(states.map((s) => s.post_id)).size).toBe(6);
  });

  it('a post due before the next fan-out (less than a minute ahead) also gets a one-time alarm; later ones and moves to later times do not', async () => {
    const acc = await w.discordAccount();
    clock.ms = M + 10_000; // this minute's fan-out ran at M
    const soon = await schedule(acc, 'soon', M + 40_000);
    const later = await schedule(acc, 'later', M + 60_000);
    expect(w.scheduler.scheduled.get(`s-${soon.schedule_id}`)).toEqual({ name: `s-${soon.schedule_id}`, runAt: new Date(soon.run_at), input: { v: 1, kind: 'scheduled', schedule_id: soon.schedule_id } });
    expect(w.scheduler.scheduled.has(`s-${later.schedule_id}`)).toBe(false);
    await patchSchedule(deps, acc, later.schedule_id, { run_at: iso(M + 50_000) });
    expect(w.scheduler.scheduled.get(`s-${later.schedule_id}`)?.runAt).toEqual(new Date(M + 50_000));
    // the alarms fire them at their second; the next fan-out finds them published (their markers gone): once each
    clock.ms = M + 50_000;
    for (const id of [soon.schedule_id, later.schedule_id]) await dispatch(deps, DispatchInput.parse(w.scheduler.scheduled.get(`s-${id}`)!.input));
    await w.queue.drain();
    clock.ms = M + 60_000 + 100;
    expect(await fireDue(deps, w.queue)).toBe(0);
    await w.queue.drain();
    expect(sentTexts()).toEqual(['later', 'soon']);
  });

  it('the fan-out stops at its limit; the rest are queued by the next minute', async () => {
    const acc = await w.discordAccount();
    for (let i = 0; i < 5; i++) await schedule(acc, `many ${i}`, M + 10_000);
    clock.ms = M + 100;
    expect(await queuedBy(() => fanOutDue(deps, 3))).toHaveLength(3);
    clock.ms = M + 60_000 + 100;
    expect(await queuedBy(() => fanOutDue(deps))).toHaveLength(5);
  });
});

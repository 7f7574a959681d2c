import { publishingWorld } from '../support/publishing';
import { TableScheduler } from '../../shared/adapters/dynamodb/table-scheduler';
import { startTimerPoller } from '../../infra/local/timer-poller';
import { createSchedule } from '../../shared/app/schedule/create';
import { getSchedule } from '../../shared/app/schedule/manage';
import { ScheduleRequestSchema } from '../../shared/app/schedule/request';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import type { Deps } from '../../shared/app/deps';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());

const DUE = 24;

describe('the local timer poller: many schedules due at once, two pollers on one table', () => {
  // scheduled posts are fired by the per-minute fan-out now; the one-time alarms here are those the previous release
  // armed per post (still in the table at an upgrade), and deferrals and approval expiries use the same poller
  it(`${DUE} previous-release alarms due at the same second: each timer fires once across two pollers, and each post is published once even when every firing is delivered twice`, async () => {
    const scheduler = new TableScheduler(w.table, w.clock);
    const deps: Deps = { ...w.deps, scheduler };
    const acc = await w.discordAccount('pro');
    // a whole second, as run_at is kept (rounded up otherwise)
    const runAt = new Date(Math.ceil((w.clock.now() + 60_000) / 1000) * 1000).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < DUE; i++) {
      const s = await createSchedule(deps, acc, ScheduleRequestSchema.parse({ platform: 'discord', text: `due together ${i}`, run_at: runAt }));
      expect(s.run_at).toBe(runAt);
      ids.push(s.schedule_id);
      await scheduler.scheduleOnce({ name: `s-${s.schedule_id}`, runAt: new Date(runAt), input: { v: 1, kind: 'scheduled', schedule_id: s.schedule_id } });
    }
    expect(await scheduler.due(new Date(w.clock.now()), 1_000)).toHaveLength(0);
    w.clock.ms = Date.parse(runAt) + 500;
    expect((await scheduler.due(new Date(w.clock.now()), 1_000)).filter((t) => t.input.kind === 'scheduled')).toHaveLength(DUE);

    const fired: string[] = [];
    let allFired!: () => void;
    const done = new Promise<void>((resolve) => { allFired = resolve; });
    const errors: unknown[] = [];
    // at-least-once delivery: every firing reaches the dispatcher twice, at the same time
    const fire = async (input: Record<string, unknown>) => {
      const parsed = DispatchInput.parse(input);
      if (parsed.kind !== 'scheduled') return;
      fired.push(parsed.schedule_id);
      await Promise.all([dispatch(deps, parsed), dispatch(deps, parsed)]);
      if (fired.length === DUE) allFired();
    };
    const pollers = [1, 2].map(() => startTimerPoller(scheduler, fire, { intervalMs: 10, concurrency: 8, clock: w.clock, onError: (e) => errors.push(e) }));
    await done;
    await Promise.all(pollers.map((p) => p.stop()));
    await w.queue.drain();

    expect(errors).toEqual([]);
    expect([...fired].sort()).toEqual([...ids].sort());
    const sent = w.discord.requests.filter((r) => r.method === 'POST').map((r) => String((r.json as { content?: string })?.content));
    expect(sent.sort()).toEqual(Array.from({ length: DUE }, (_, i) => `due together ${i}`).sort());
    const states = await Promise.all(ids.map((id) => getSchedule(w.deps, acc.id, id)));
    expect(states.every((s) => s.status === 'published')).toBe(true);
    expect(new Set(states.map((s) => s.post_id)).size).toBe(DUE);
  }, 90_000);
});

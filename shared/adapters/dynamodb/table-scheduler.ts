import { SCHEDULED_TIME, type CronInvocation, type ScheduledInvocation, type Scheduler } from '../../ports/scheduler';
import { nextOccurrence } from '../../domain/cron';
import { systemClock, type Clock } from '../../ports/clock';
import type { TableRef } from './client';
import { and, cond } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';

export interface DueTimer {
  name: string;
  runAt: string;
  input: Record<string, unknown>;
}

/** A timer as stored: when it fires next and with what input; a recurring one also its rule and window's end. */
interface Timer {
  name: string;
  run_at: string;
  input: Record<string, unknown>;
  cron?: string;
  timezone?: string;
  ends_at?: string;
}

const timerEntity = entity({
  key: keys.timer,
  keyOf: (t: Timer) => keys.timer(t.name),
  indexOf: (t: Timer) => keys.timerDue(t.name, t.run_at),
});

/**
 * The local stand-in for EventBridge Scheduler: each timer is an item in the table (so timers survive a restart),
 * indexed by due time; the local runtime's poller lists due timers and claims each with a conditional delete, so a
 * timer fires once even with two pollers.
 */
export class TableScheduler implements Scheduler {
  private readonly timers: Bound<typeof timerEntity>;
  constructor(t: TableRef, private readonly clock: Clock = systemClock) {
    this.timers = timerEntity.on(t);
  }

  async scheduleOnce(inv: ScheduledInvocation) {
    await this.timers.put({ name: inv.name, run_at: inv.runAt.toISOString(), input: inv.input });
  }

  /**
   * A recurring timer: one item whose run_at is the next occurrence (cron-parser, in the timezone); claiming a firing
   * moves it to the following occurrence in the same conditional write, or deletes it after the last one.
   */
  async scheduleCron(inv: CronInvocation) {
    const after = Math.max(this.clock.now(), (inv.startsAt?.getTime() ?? 0) - 1);
    const first = nextOccurrence(inv.cron, inv.timezone, new Date(after), inv.endsAt);
    if (!first) {
      await this.cancel(inv.name);
      return;
    }
    await this.timers.put({
      name: inv.name, run_at: first.toISOString(), input: inv.input,
      cron: inv.cron, timezone: inv.timezone, ...(inv.endsAt ? { ends_at: inv.endsAt.toISOString() } : {}),
    });
  }

  async cancel(name: string) {
    await this.timers.delete([name]);
  }

  /** Timers due at or before `now`, oldest first. */
  async due(now: Date, limit = 100): Promise<DueTimer[]> {
    const { items } = await this.timers.page({ gsi1pk: keys.timersDue, upTo: `${now.toISOString()}#~` }, { limit });
    return items.map((t) => ({ name: t.name, runAt: t.run_at, input: withScheduledTime(t.input, t.run_at) }));
  }

  /**
   * Takes this firing of the timer; true for exactly one caller. A one-time timer is removed; a recurring one moves
   * on to its next occurrence after both the firing and `nowMs` (occurrences missed while the runtime was down fire
   * once, as this firing), or is removed after its last.
   */
  async claim(name: string, runAt: string, nowMs: number = this.clock.now()): Promise<boolean> {
    // still the same firing (not rescheduled meanwhile) of a one-time timer
    const once = { if: and(cond.present, 'run_at = :runAt', 'attribute_not_exists(cron)'), values: { ':runAt': runAt } };
    if (await conditional(this.timers.delete([name], once))) return true;
    const timer = await this.timers.get(name);
    if (!timer || timer.run_at !== runAt || typeof timer.cron !== 'string') return false;
    const next = nextOccurrence(timer.cron, timer.timezone as string, new Date(Math.max(Date.parse(runAt), nowMs)), timer.ends_at ? new Date(timer.ends_at) : undefined);
    // still this firing: exactly one claimer re-arms it, or removes it after its last occurrence
    const thisFiring = { if: and(cond.present, 'run_at = :runAt'), values: { ':runAt': runAt } };
    if (!next) return conditional(this.timers.delete([name], thisFiring));
    return conditional(this.timers.update([name], { set: { run_at: next.toISOString(), gsi1sk: keys.timerDue(name, next.toISOString()).gsi1sk } }, thisFiring));
  }
}

/** The input of a firing: SCHEDULED_TIME replaced by its time, formatted as EventBridge Scheduler does (no ms). */
function withScheduledTime(input: Record<string, unknown>, runAt: string): Record<string, unknown> {
  const text = JSON.stringify(input);
  if (!text.includes(SCHEDULED_TIME)) return input;
  return JSON.parse(text.split(SCHEDULED_TIME).join(runAt.replace(/\.\d{3}Z$/, 'Z'))) as Record<string, unknown>;
}

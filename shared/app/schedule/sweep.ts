import * as z from 'zod';
import { formatVersion } from '../../ports/format-version';
import { errorFields, log } from '../../log';
import { fireScheduled, type FireDeps } from './fire';
import { iso } from './common';
import { mapLimit } from '../../domain/map-limit';

/**
 * The reconciliation sweep of scheduled posts (decisions.md "Scheduling"): a crash between writing a schedule item
 * and arming its one-time alarm (or an alarm lost otherwise) would leave the post never published. Every minute
 * the sweep fires, through the dispatcher's own path (fireScheduled: the conditional claim scheduled → publishing),
 * the schedules still `scheduled` whose run_at is more than SWEEP_GRACE_MS past. A late real alarm, a second sweep
 * or a racing cancel loses the claim, so a post is still published at most once. It also hands runs still
 * `publishing` without a post to fireScheduled, which takes over the ones older than STALE_RUN_MS (a dispatcher that
 * died mid-run): so no schedule stays `publishing` longer than STALE_RUN_MS + one sweep period (3 minutes).
 */

/** A schedule this long past its run_at and still waiting lost its alarm (the alarm normally fires within seconds). */
export const SWEEP_GRACE_MS = 2 * 60_000;
/** Schedules fired per sweep (one Lambda invocation); the rest wait for the next sweep, oldest first. */
export const SWEEP_LIMIT = 200;
/** Fired at once within a sweep. */
const SWEEP_CONCURRENCY = 8;

/** The dispatcher input of the sweep's recurring timer. */
export const ScheduleSweepInput = z.object({ v: formatVersion, kind: z.literal('schedule-sweep') });

/**
 * The recurring timer that runs the sweep: every minute, through the dispatcher. It is part of the deployment
 * (infra/sweep-schedules.ts: a schedule of the CDK API stack; the local runtime arms its own timer at start).
 */
export const SCHEDULE_SWEEP = { name: 'schedule-sweep', cron: '* * * * *', timezone: 'UTC' } as const;

/**
 * One sweep:
 * 1. Read up to `limit` schedules still `scheduled` with run_at ≤ now − SWEEP_GRACE_MS (the due index across
 *    accounts; deferrals, future, canceled and started schedules are not in it).
 * 2. Fire each exactly as its alarm would (fireScheduled); one that fails is logged and left to the next sweep.
 */
export async function sweepSchedules(deps: FireDeps, limit = SWEEP_LIMIT, opts: { startup?: boolean } = {}): Promise<{ fired: number; failed: number }> {
  const now = deps.clock.now();
  // at the local runtime's start every alarm that came due is judged now: the previous process may have taken its
  // timer and died before claiming the schedule
  const due = await deps.schedules.overdue(iso(opts.startup ? now : now - SWEEP_GRACE_MS), limit);
  let failed = 0;
  await mapLimit(due, SWEEP_CONCURRENCY, async (s) => {
    try {
      await fireScheduled(deps, s.id);
    } catch (err) {
      failed++;
      log.error('schedule sweep: firing failed', { schedule_id: s.id, ...errorFields(err) });
    }
  });
  if (due.length) log.warn('schedule sweep fired schedules whose alarm did not', { fired: due.length - failed, failed });
  return { fired: due.length - failed, failed };
}

import * as z from 'zod';
import type { Deps } from '../deps';
import type { QueueMessage } from '../../ports/queue';
import { formatVersion, FORMAT_VERSION } from '../../ports/format-version';
import { mapLimit } from '../../domain/map-limit';
import { putMetric } from '../../metrics';
import { bestEffort, log } from '../../log';
import type { ScheduleRecord } from '../../ports/schedules';
import { iso } from './common';
import { SWEEP_GRACE_MS } from './sweep';

/**
 * The per-minute fan-out of scheduled posts (docs/benchmarks.md "The top-of-the-hour spike"): instead of one
 * Scheduler alarm per post, one alarm a minute reads the due index and queues one fire message per due post to the
 * fire queue, whose worker runs the dispatcher's own claim (fireScheduled). Create, move and cancel change only the
 * table item and its marker (a post due before the next fan-out also gets a one-time alarm: armIfBeforeNextFanOut).
 */

/** A minute. */
const MINUTE_MS = 60_000;
/** Markers queued per fan-out (one dispatcher invocation); the rest are found by the next minute's query. */
export const FAN_OUT_LIMIT = 200_000;
/** SendMessageBatch calls in flight at once (10 messages each). */
const SEND_CONCURRENCY = 50;
/** SQS's longest per-message delay. */
const MAX_DELAY_SECONDS = 900;

/** The dispatcher input of the fan-out's recurring timer. */
export const ScheduleFanOutInput = z.object({ v: formatVersion, kind: z.literal('schedule-fan-out') });

/** The recurring timer that runs the fan-out: every minute, through the dispatcher (infra/sweep-schedules.ts). */
export const SCHEDULE_FAN_OUT = { name: 'schedule-fan-out', cron: '* * * * *', timezone: 'UTC' } as const;

/** A message of the fire queue: one scheduled post to claim and publish (the item is read from the table by id). */
export const FireMessage = z.object({ v: formatVersion, schedule_id: z.string().regex(/^sch_[0-9A-Z]{26}$/) });
export type FireMessage = z.infer<typeof FireMessage>;

/** The first minute whose fan-out has not run yet at `nowMs` (the fan-out of the current minute ran at its start). */
const nextFanOut = (nowMs: number) => Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;

/**
 * A post written for a time before the next fan-out (scheduled or moved less than a minute ahead) would wait for that
 * fan-out, up to a minute late: it also gets a one-time alarm at its run_at (the previous design's alarm, through the
 * same claim; few posts). Best effort: without it the next fan-out still fires the post.
 */
export async function armIfBeforeNextFanOut(deps: Pick<Deps, 'scheduler'>, s: Pick<ScheduleRecord, 'id' | 'run_at'>, nowMs: number): Promise<void> {
  if (Date.parse(s.run_at) >= nextFanOut(nowMs)) return;
  await bestEffort('near-term schedule alarm', deps.scheduler.scheduleOnce({
    name: `s-${s.id}`, runAt: new Date(s.run_at), input: { v: FORMAT_VERSION, kind: 'scheduled', schedule_id: s.id },
  }), { schedule_id: s.id });
}

export type FanOutDeps = Pick<Deps, 'clock' | 'queue' | 'schedules'> & { settings: Pick<Deps['settings'], 'fireQueueUrl'> };

/**
 * One fan-out, at the start of minute M:
 * 1. Read the due index's markers with run_at in [M − SWEEP_GRACE_MS, M + 1 minute) (the four shards at once):
 *    this minute's posts, and those of the two minutes before whose fire has not recorded a post yet (a lost fire
 *    message is found again here; older ones are the reconciliation sweep's, sweep.ts).
 * 2. Queue one fire message per marker, in the account's message group (fair between accounts), delayed until its
 *    run_at (at most SQS's 15 minutes), so a post fires at its second, not at the minute's start.
 * A marker whose schedule moved, ran or was canceled is queued too: its fire loses the claim and does nothing.
 */
export async function fanOutDue(deps: FanOutDeps, limit = FAN_OUT_LIMIT): Promise<{ queued: number }> {
  const now = deps.clock.now();
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const markers = await deps.schedules.due(iso(minute - SWEEP_GRACE_MS), iso(minute + MINUTE_MS), limit);
  const messages: QueueMessage[] = markers.map((m, i) => {
    const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((Date.parse(m.run_at) - now) / 1000)));
    return {
      id: String(i), body: { v: FORMAT_VERSION, schedule_id: m.schedule_id } satisfies FireMessage,
      ...(m.account_id ? { group: m.account_id } : {}), ...(delay > 0 ? { delaySeconds: delay } : {}),
    };
  });
  const batches = Array.from({ length: Math.ceil(messages.length / 10) }, (_, i) => messages.slice(i * 10, i * 10 + 10));
  await mapLimit(batches, SEND_CONCURRENCY, (batch) => deps.queue.sendAll(deps.settings.fireQueueUrl, batch));
  putMetric('SchedulesQueued', messages.length, { kind: 'fan-out' });
  if (markers.length === limit) log.warn('schedule fan-out reached its limit; the rest wait for the next minute', { limit });
  return { queued: messages.length };
}

import * as z from 'zod';
import { formatVersion, FORMAT_VERSION } from '../../ports/format-version';
import type { Deps } from '../deps';
import type { NetworkRecord, ServiceEvent } from '../../ports/publishing';
import type { QueueMessage } from '../../ports/queue';
import type { PublishMessage } from './publish-message';
import { claimIsStale, fanOutStored, reconcileAfterMs } from './durability';
import { mapLimit } from '../../domain/map-limit';
import { errorFields, log } from '../../log';
import { putMetric } from '../../metrics';

/**
 * The reconciliation sweep of published posts (decisions.md "Nothing lost across a crash"). The work is the post
 * item (a network `queued`, claimed, `scheduled` or `processing`); a queue message is only a copy of it. Every post is
 * written after its marker on a due index (PostStore.create), and the sweep visits each post whose marker is due:
 * - a network still `queued` this long after the post, `scheduled` this long after its run_at, `processing` this
 *   long after its resume time, or claimed by a worker that stopped (claimIsStale) gets a copy of its message again;
 *   the worker's conditional claim decides, so a network is still sent at most once (a stale claim is taken over and
 *   read back: sendToNetwork's reconciliation);
 * - a settled network's stored events get their webhook deliveries written (the outbox: idempotent);
 * - the marker moves to the next time something may be overdue, or is removed once every network is settled.
 * Every minute (EventBridge Scheduler in AWS, the timer poller locally) and at the start of the local runtime, whose
 * in-memory queue lost every message of the previous process (`all`: every marker, due or not).
 */

/** The dispatcher input of the sweep's recurring timer. */
export const PublishSweepInput = z.object({ v: formatVersion, kind: z.literal('publish-sweep') });

/** The recurring timer that runs the sweep: every minute, through the dispatcher (infra/sweep-schedules.ts). */
export const PUBLISH_SWEEP = { name: 'publish-sweep', cron: '* * * * *', timezone: 'UTC' } as const;

/** Posts visited per sweep (one Lambda invocation); the rest wait for the next sweep, oldest first. */
export const SWEEP_LIMIT = 200;
/** Posts visited at once within a sweep. */
const SWEEP_CONCURRENCY = 8;
/** A post with work left is visited again at the earliest this long after (at most the threshold). */
const REVISIT_MS = 60_000;

export type ReconcileDeps = Pick<Deps, 'clock' | 'fanOut' | 'posts' | 'queue' | 'settings'>;

export interface SweepReport {
  visited: number;
  redriven: number;
  settled: number;
  failed: number;
}

/** One sweep over the due index (`all`: every marker, the local runtime's start). */
export async function sweepPublishing(deps: ReconcileDeps, opts: { all?: boolean; limit?: number } = {}): Promise<SweepReport> {
  const now = deps.clock.now();
  const due = await deps.posts.reconcileDue(opts.all ? Number.MAX_SAFE_INTEGER : now, opts.limit ?? (opts.all ? 5 * SWEEP_LIMIT : SWEEP_LIMIT));
  const report: SweepReport = { visited: due.length, redriven: 0, settled: 0, failed: 0 };
  await mapLimit(due, SWEEP_CONCURRENCY, async (marker) => {
    try {
      const visit = await reconcilePost(deps, marker, now, !!opts.all);
      report.redriven += visit.redriven;
      if (visit.settled) report.settled++;
    } catch (err) {
      report.failed++;
      log.error('publish sweep: a post could not be reconciled', { post_id: marker.post_id, ...errorFields(err) });
    }
  });
  if (report.redriven) {
    putMetric('NetworksRedriven', report.redriven, {});
    log.warn('publish sweep re-drove networks whose work was overdue', { ...report });
  }
  return report;
}

/** One post: the overdue networks re-driven, the settled ones' deliveries written, the marker moved or removed. */
async function reconcilePost(deps: ReconcileDeps, marker: { post_id: string; due_at: number }, now: number, all: boolean): Promise<{ redriven: number; settled: boolean }> {
  const stored = await deps.posts.get(marker.post_id);
  if (!stored) {
    // a marker written just before its post (PostStore.create) is left alone until it is due
    if (marker.due_at <= now) await deps.posts.moveReconcile(marker.post_id, marker.due_at, undefined);
    return { redriven: 0, settled: false };
  }
  const after = reconcileAfterMs(deps.settings);
  const messages: QueueMessage[] = [];
  const events: ServiceEvent[] = [];
  let next = Infinity;
  for (const net of stored.networks) {
    if (net.state === 'done') {
      events.push(...[net.event, net.reconciled_event].filter((e): e is ServiceEvent => !!e));
      continue;
    }
    const check = overdue(deps, net, Date.parse(stored.post.created_at), now, after, all);
    if (check.redrive) messages.push(check.redrive);
    next = Math.min(next, check.next);
  }
  if (messages.length) await deps.queue.sendAll(deps.settings.publishQueueUrl, messages);
  await fanOutStored(deps, events);
  const settled = next === Infinity;
  await deps.posts.moveReconcile(stored.post.id, marker.due_at, settled ? undefined : Math.max(next, now + Math.min(REVISIT_MS, after)));
  return { redriven: messages.length, settled };
}

/**
 * Whether a network's work is overdue (then the copy of its message to send again) and when to look next. The
 * message is the one its state is claimed with: deferral 0 from queued, the deferral number from scheduled, the
 * current step from processing; a stale claim is taken over by whichever message finds it.
 */
function overdue(deps: ReconcileDeps, net: NetworkRecord, createdAt: number, now: number, after: number, all: boolean): { redrive?: QueueMessage; next: number } {
  const base: PublishMessage = { v: FORMAT_VERSION, post_id: net.post_id, platform: net.platform, deferral: net.deferrals };
  const copy = (body: PublishMessage, delaySeconds = 0): QueueMessage => ({ id: net.platform, group: net.account_id, body, ...(delaySeconds > 0 ? { delaySeconds } : {}) });
  switch (net.state) {
    case 'queued':
      return { ...(all || now - createdAt >= after ? { redrive: copy({ ...base, deferral: 0 }) } : {}), next: Math.max(createdAt + after, now + after) };
    case 'sending':
      if (claimIsStale(deps.settings, net.claimed_at, now)) return { redrive: copy(base), next: now + after };
      return { next: (net.claimed_at ?? now) + after + 1 };
    case 'scheduled': {
      const runAt = Date.parse(net.result?.run_at ?? '') || now;
      const late = all ? now >= runAt : now - runAt >= after;
      return { ...(late ? { redrive: copy(base) } : {}), next: late ? now + after : runAt + after };
    }
    case 'processing': {
      const resumeAt = net.resume_at ?? now;
      const late = all || now - resumeAt >= after;
      const wait = Math.min(900, Math.max(0, Math.ceil((resumeAt - now) / 1000)));
      return { ...(late ? { redrive: copy({ ...base, resume: true, step: net.resumes ?? 0 }, wait) } : {}), next: Math.max(resumeAt, now) + after };
    }
    default:
      return { next: now + after };
  }
}

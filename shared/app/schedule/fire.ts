import type { Deps } from '../deps';
import type { ScheduleRecord } from '../../ports/schedules';
import { AppError } from '../../domain/errors';
import { nextOccurrence } from '../../domain/cron';
import { log } from '../../log';
import { newId } from '../../domain/ids';
import { labelOf } from '../../domain/event-refs';
import { publishPost, type PublishPostDeps } from '../publish/create-post';
import { loadPublishingAccount } from '../publishing-account';
import { PostRequestSchema, validatePost } from '../publish/request';
import { DUE_TOLERANCE_MS, STALE_RUN_MS, iso, occurrenceScheduleId, releaseScheduled, timerName } from './common';
import { putMetric } from '../../metrics';
import { recordEvent } from '../webhooks/record-event';
import { scheduledRunKey } from '../idempotency';

/** What firing a schedule reaches: its item, alarms and counter, the account's publishing context, publishing the post. */
export type FireDeps = PublishPostDeps & Pick<Deps, 'accounts' | 'brands' | 'recurring' | 'schedules'>;

/**
 * Fires a scheduled post: its fire message came (the per-minute fan-out, due-fan-out.ts), the sweep found it overdue, or
 * a one-time alarm of the previous release fired.
 * 1. Claim the item with a conditional write (scheduled → publishing, only when due). A second fire, a retry, or a
 *    fire racing a cancel loses the claim and does nothing: at most one publish.
 * 2. Not claimed: still `scheduled` means the message came early or for an earlier run_at → nothing (the due index
 *    holds its run_at; the fan-out of that minute fires it). `publishing` with no post after STALE_RUN_MS means the dispatcher died mid-way → take over
 *    (the post's duplicate lock still refuses a second publish if the first got that far). The sweep calls this for
 *    such runs too, so one left by a dead dispatcher is taken over within STALE_RUN_MS + one sweep period. A run
 *    that has already been taken over MAX_TAKEOVERS times is failed instead (post.failed per network).
 * 3. Give back the place on the plan's scheduled-posts counter, then publish (see `run`).
 */
export async function fireScheduled(deps: FireDeps, scheduleId: string): Promise<void> {
  const now = deps.clock.now();
  let record = await deps.schedules.claim(scheduleId, iso(now + DUE_TOLERANCE_MS), now);
  if (record) {
    putMetric('ScheduleLateness', Math.max(0, now - Date.parse(record.run_at)), { kind: 'scheduled' });
    if (record.counted) await releaseScheduled(deps, record.account_id, record.id);
  } else {
    const current = await deps.schedules.get(scheduleId);
    if (!current || current.deferred) return;
    if (current.status === 'scheduled') return;
    const stale = current.status === 'publishing' && !current.post_id && current.claimed_at !== undefined
      && (now - current.claimed_at > STALE_RUN_MS || current.claimed_at < (deps.settings.claimsDeadBefore ?? -Infinity));
    if (!stale || !(await deps.schedules.takeOver(scheduleId, current.claimed_at!, now))) return;
    record = current;
    if ((current.takeovers ?? 0) >= MAX_TAKEOVERS) {
      await failRun(deps, record, 'schedule_failed', 'The scheduled post could not be sent: its run failed repeatedly. Nothing was published');
      return;
    }
  }
  await run(deps, record, scheduledRunKey(record));
}

/** Runs taken over this many times and still dying are failed rather than tried again. */
export const MAX_TAKEOVERS = 2;

/**
 * Ends a run that published nothing as `failed` and records post.failed for each of its networks (post_id null,
 * schedule_id set), so webhook receivers hear of it. The conditional settle makes it happen once.
 */
export async function failRun(deps: Pick<Deps, 'schedules' | 'events' | 'fanOut' | 'brands' | 'clock'>, record: ScheduleRecord, code: string, message: string): Promise<void> {
  const nowMs = deps.clock.now();
  if (!(await deps.schedules.settle(record.id, { status: 'failed', error: { code, error: message } }, iso(nowMs)))) return;
  const brandName = (await deps.brands.get(record.account_id, record.brand_id))?.name ?? null;
  const key = record.request?.idempotency_key;
  for (const platform of record.platforms) {
    await recordEvent(deps, {
      id: newId('evt', nowMs), type: 'post.failed', created_at: iso(nowMs), account_id: record.account_id,
      data: {
        platform, status: 'failed', post_id: null, url: null, error: message, code,
        account: { platform, handle: null, brand_id: record.brand_id, brand: brandName },
        brand_id: record.brand_id, source: 'schedule', schedule_id: record.id,
        idempotency_key: typeof key === 'string' ? key : null, label: labelOf(brandName ?? record.brand_id, platform, platform),
      },
    });
  }
}

/**
 * One occurrence of a recurring schedule (its cron alarm fired with the occurrence time):
 * 1. The recurring schedule must be active and the occurrence inside its window.
 * 2. Claim the occurrence by writing its schedule item, whose id is derived from (recurring id, occurrence): two
 *    firings of one occurrence write the same id, and only the first write succeeds.
 * 3. Publish it as its own post, with the duplicate key rec:<id>:<occurrence>.
 * 4. After the last occurrence of its window, the recurring schedule ends and gives back its counter place.
 */
export async function fireRecurring(deps: FireDeps, recurringId: string, occurrenceText: string): Promise<void> {
  const occMs = Date.parse(occurrenceText);
  if (Number.isNaN(occMs)) {
    log.error('recurring firing without a usable time', { recurring_id: recurringId, occurrence: occurrenceText });
    return;
  }
  const occurrence = iso(occMs);
  const rec = await deps.recurring.get(recurringId);
  if (!rec || rec.status !== 'active') return;
  if ((rec.starts_at && occurrence < rec.starts_at) || (rec.ends_at && occurrence > rec.ends_at)) return;
  const now = deps.clock.now();
  const record: ScheduleRecord = {
    id: occurrenceScheduleId(rec.id, occMs), account_id: rec.account_id, brand_id: rec.brand_id, status: 'publishing',
    run_at: occurrence, platforms: rec.platforms, request: rec.request, counted: false, ...(rec.actor ? { actor: rec.actor } : {}),
    recurring_id: rec.id, occurrence, created_at: iso(now), updated_at: iso(now), claimed_at: now,
  };
  if (!(await deps.schedules.create(record))) return;
  await deps.recurring.touch(rec.id, occurrence, iso(now));
  try {
    await run(deps, record, `rec:${rec.id}:${occurrence}`);
  } finally {
    const more = nextOccurrence(rec.cron, rec.timezone, new Date(Math.max(occMs, now)), rec.ends_at ? new Date(rec.ends_at) : undefined);
    if (!more && (await deps.recurring.end(rec.id, 'ended', iso(now)))) {
      await deps.scheduler.cancel(timerName.recurring(rec.id));
      if (rec.counted) await releaseScheduled(deps, rec.account_id, rec.id);
    }
  }
}

/**
 * Publishes a claimed schedule through exactly the path of POST /api/post (publishPost: brand, checks, fan-out,
 * duplicate protection, counting, events) with source `schedule` and its schedule_id, without waiting for the
 * networks. Records the post on the item; a request refused as a whole (e.g. its brand is gone, a media link is
 * refused) fails the item with post.failed per network. Any other error leaves the run `publishing` for the sweep
 * to take over (an outage heals; a run that keeps dying is failed after MAX_TAKEOVERS).
 */
async function run(deps: FireDeps, record: ScheduleRecord, duplicateKey: string): Promise<void> {
  const nowIso = () => iso(deps.clock.now());
  // the account and what publishing needs in one query, handed to publishPost (decisions.md "Lean publish path")
  const { account, context } = await loadPublishingAccount(deps, record.account_id, record.actor);
  if (!account) {
    await deps.schedules.settle(record.id, { status: 'failed', error: { code: 'account_not_found', error: 'The account no longer exists' } }, nowIso());
    return;
  }
  let valid: ReturnType<typeof validatePost>;
  try {
    valid = validatePost(PostRequestSchema.parse({ ...record.request, brand_id: record.brand_id }), deps.networkLimits);
  } catch (err) {
    const message = err instanceof AppError ? err.message : 'The stored request is no longer valid';
    await failRun(deps, record, err instanceof AppError ? err.code : 'invalid_request', message);
    return;
  }
  try {
    // the user's idempotency_key (if any) locks and is echoed in events; else the schedule's own key locks, unseen
    const res = await publishPost(deps, account, { ...valid, duplicate_key: duplicateKey }, { source: 'schedule', schedule_id: record.id, wait: false, actor: record.actor, context });
    await linkPost(deps, record.id, res.post_id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const holder = err.code === 'duplicate_post' ? err.details.post_id : undefined;
    if (typeof holder === 'string' && (await deps.posts.get(holder))?.post.schedule_id === record.id) {
      // an earlier, interrupted run of this schedule already published it
      await linkPost(deps, record.id, holder);
      return;
    }
    await failRun(deps, record, err.code, err.message);
  }
}

/** Records the run's post; the item stays `publishing` until its networks are done (settled when next read). */
async function linkPost(deps: Pick<Deps, 'clock' | 'schedules'>, scheduleId: string, postId: string): Promise<void> {
  await deps.schedules.settle(scheduleId, { status: 'publishing', post_id: postId }, iso(deps.clock.now()));
}

import type { Deps } from '../deps';
import type { Actor } from '../auth';
import { checkBrandAllowed, loadGuardrails } from '../guardrails/enforce';
import type { Account } from '../../ports/store';
import type { RecurringRecord } from '../../ports/schedules';
import { SCHEDULED_TIME } from '../../ports/scheduler';
import { AppError, BadRequestError, NotFoundError } from '../../domain/errors';
import { isId, newId } from '../../domain/ids';
import { CronError, isTimeZone, nextOccurrence, parseCron } from '../../domain/cron';
import { checkNow, type CheckDeps } from './check';
import { iso, releaseScheduled, reserveScheduled, timerName } from './common';
import type { RecurringRequest } from './request';
import { bestEffort } from '../../log';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

function instant(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!ISO_WITH_OFFSET.test(value) || Number.isNaN(ms)) throw new BadRequestError(`${name} must be ISO 8601 with a UTC offset`, { code: 'invalid_run_at' });
  return new Date(ms);
}

/** The next time it runs (undefined once its window is over or it is not active). */
export function nextRunOf(r: Pick<RecurringRecord, 'cron' | 'timezone' | 'starts_at' | 'ends_at' | 'status'>, nowMs: number): Date | undefined {
  if (r.status !== 'active') return undefined;
  const after = Math.max(nowMs, r.starts_at ? Date.parse(r.starts_at) - 1 : 0);
  return nextOccurrence(r.cron, r.timezone, new Date(after), r.ends_at ? new Date(r.ends_at) : undefined);
}

export function recurringView(r: RecurringRecord, nowMs: number) {
  const next = nextRunOf(r, nowMs);
  const text = r.request.text;
  return {
    recurring_id: r.id, status: r.status, cron: r.cron, timezone: r.timezone, starts_at: r.starts_at ?? null, ends_at: r.ends_at ?? null,
    next_run_at: next?.toISOString() ?? null, last_run_at: r.last_occurrence ?? null,
    brand_id: r.brand_id, platforms: r.platforms, text: typeof text === 'string' ? text : null, created_at: r.created_at, updated_at: r.updated_at,
  };
}

/**
 * POST /api/recurring: a post that repeats on a 5-field cron in a timezone, optionally between starts_at and ends_at.
 * 1. Check the cron (400 invalid_cron), the timezone (400 invalid_timezone), the window (400 invalid_run_at) and
 *    that at least one occurrence falls inside it; check the post like POST /api/schedule (checkNow).
 * 2. Take one place of the plan's scheduled posts at a time for as long as it is active.
 * 3. Write the item, then the recurring alarm (EventBridge Scheduler cron(...) with ScheduleExpressionTimezone;
 *    locally the table scheduler re-arms itself after each occurrence). Each occurrence is its own publish.
 */
export async function createRecurring(deps: CheckDeps & Pick<Deps, 'counters' | 'guardrails' | 'scheduler' | 'recurring' | 'settings'>, account: Account, body: RecurringRequest, actor?: Actor) {
  const now = deps.clock.now();
  const { cron, timezone, starts_at, ends_at, ...post } = body;
  let expression: string;
  try {
    expression = parseCron(cron).expression;
  } catch (err) {
    if (err instanceof CronError) throw new BadRequestError(err.message, { code: 'invalid_cron' });
    throw err;
  }
  if (!isTimeZone(timezone)) throw new BadRequestError(`timezone ${timezone} is not an IANA time zone (e.g. Europe/Berlin)`, { code: 'invalid_timezone' });
  const starts = instant(starts_at, 'starts_at');
  const ends = instant(ends_at, 'ends_at');
  if (ends && ends.getTime() <= now) throw new BadRequestError('ends_at is in the past', { code: 'invalid_run_at' });
  if (starts && ends && ends.getTime() <= starts.getTime()) throw new BadRequestError('ends_at must be after starts_at', { code: 'invalid_run_at' });
  let first: Date | undefined;
  try {
    first = nextRunOf({ cron: expression, timezone, starts_at: starts?.toISOString(), ends_at: ends?.toISOString(), status: 'active' }, now);
  } catch (err) {
    throw new BadRequestError(`cron never matches a date: ${(err as Error).message}`, { code: 'invalid_cron' });
  }
  if (!first) throw new BadRequestError('No occurrence of this cron falls between starts_at and ends_at', { code: 'invalid_cron' });
  if (post.idempotency_key !== undefined) throw new BadRequestError('idempotency_key is not accepted on a recurring post: the service protects each occurrence from duplicates itself');

  const checked = await checkNow(deps, account, post);
  checkBrandAllowed(await loadGuardrails(deps, account.id, actor), checked.brand.id);
  const id = newId('rec', now);
  await reserveScheduled(deps, account, id);
  const record: RecurringRecord = {
    id, account_id: account.id, brand_id: checked.brand.id, platforms: checked.valid.platforms,
    request: checked.request as Record<string, unknown>, cron: expression, timezone,
    ...(starts ? { starts_at: starts.toISOString() } : {}), ...(ends ? { ends_at: ends.toISOString() } : {}),
    status: 'active', counted: true, created_at: iso(now), updated_at: iso(now), ...(actor ? { actor } : {}),
  };
  try {
    await deps.recurring.create(record);
    await deps.scheduler.scheduleCron({
      name: timerName.recurring(record.id), cron: expression, timezone, startsAt: starts && starts.getTime() > now ? starts : undefined, endsAt: ends,
      input: { kind: 'recurring', recurring_id: record.id, occurrence: SCHEDULED_TIME },
    });
  } catch (err) {
    await bestEffort('recurring cancel after a failed alarm', deps.recurring.end(record.id, 'canceled', iso(now)), { recurring_id: record.id });
    await releaseScheduled(deps, account.id, record.id);
    throw err;
  }
  return recurringView(record, now);
}

async function owned(deps: Pick<Deps, 'recurring'>, accountId: string, id: string) {
  const r = isId('rec', id) ? await deps.recurring.get(id) : undefined;
  if (!r || r.account_id !== accountId) throw new NotFoundError('No such recurring schedule');
  return r;
}

/** GET /api/recurring: the account's recurring schedules, newest first. */
export async function listRecurring(deps: Pick<Deps, 'recurring' | 'clock'>, accountId: string) {
  const now = deps.clock.now();
  return { recurring: (await deps.recurring.list(accountId)).map((r) => recurringView(r, now)) };
}

export async function getRecurring(deps: Pick<Deps, 'recurring' | 'clock'>, accountId: string, id: string) {
  return recurringView(await owned(deps, accountId, id), deps.clock.now());
}

/**
 * DELETE /api/recurring/{id}: mark it canceled first (a firing after that does nothing), then delete the alarm, then
 * give back the counter place. One that is no longer active answers 409.
 */
export async function deleteRecurring(deps: Pick<Deps, 'clock' | 'counters' | 'scheduler' | 'recurring'>, accountId: string, id: string) {
  const r = await owned(deps, accountId, id);
  const now = deps.clock.now();
  if (!(await deps.recurring.end(id, 'canceled', iso(now)))) {
    const current = (await deps.recurring.get(id)) ?? r;
    throw new AppError(409, 'recurring_not_active', `This recurring schedule is ${current.status}`, { details: { status: current.status } });
  }
  await deps.scheduler.cancel(timerName.recurring(id));
  if (r.counted) await releaseScheduled(deps, accountId, id);
  return recurringView({ ...r, status: 'canceled', counted: false, updated_at: iso(now) }, now);
}

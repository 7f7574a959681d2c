import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { PublishContext } from '../../ports/publishing';
import type { ScheduleRecord } from '../../ports/schedules';
import type { z } from 'zod';
import { AppError, BadRequestError, InternalError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { releaseLock, scheduleLockOf, takeScheduleLock } from '../idempotency';
import { cachedReads, checkNow, type CheckDeps, type CheckedPost } from './check';
import { SlotFinder } from './slots';
import { mapLimit } from '../../domain/map-limit';
import { iso, parseRunAt, releaseScheduled, reserveScheduledUpTo, scheduledLimit, type RunAt } from './common';
import { armIfBeforeNextFanOut } from './due-fan-out';
import { BulkRowSchema, MAX_BULK_ROWS, ScheduleRequestSchema, type ScheduleRequest } from './request';
import type { CsvRow } from './csv';
import type { Actor } from '../auth';
import { checkBrandAllowed, loadGuardrails } from '../guardrails/enforce';
import { unknownFieldError, unknownFieldsOf } from '../unknown-fields';
import { bestEffort } from '../../log';

/** Batches of items written at once in a bulk request. */
const WRITE_CONCURRENCY = 16;
/** Schedules written per batch: each is its item and its due marker, 12 × 2 within DynamoDB's 25 a batch. */
const ROWS_PER_WRITE = 12;

/** What scheduling rows reaches: the checks of a post, guardrails, the caps' counters, slots, the items (and near-term alarms). */
export type ScheduleRowsDeps = CheckDeps & Pick<Deps, 'counters' | 'guardrails' | 'locks' | 'scheduler' | 'schedules' | 'settings' | 'slots'>;

export interface RowInput {
  row: number;
  /** The row's fields, not validated yet (a bulk JSON element or a CSV record). */
  fields: unknown;
  /** A problem found before the fields (e.g. a CSV record with the wrong field count). */
  problem?: string;
}

export type RowOutcome =
  | { row: number; ok: true; schedule: ScheduleRecord }
  | { row: number; ok: false; error: AppError };

interface Pending { row: number; checked: CheckedPost; runAt: RunAt; id?: string; record?: ScheduleRecord; lock?: string }

function issuesText(error: z.ZodError): string {
  return error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`).join('; ');
}

/**
 * Schedules rows of posts (POST /api/schedule is one row, POST /api/bulk up to 500), each answered on its own:
 * 1. Validate the row (zod, then run_at) and check everything that can be checked now (checkNow: validation,
 *    brand, connections, media rules), reading brands, connections and credentials once per request.
 * 2. In row order: take the idempotency_key's scheduling lock (409 duplicate_post); then places on the plan's
 *    scheduled-posts counter, in one write when they fit (rows past the cap: 400 scheduled_limit_reached); then for
 *    next_slot the brand's next free slot (successive rows fill successive slots); an explicit run_at that is a slot
 *    takes that slot if free.
 * 3. Write the items (the source of truth) with their due markers, 12 rows per batch write. No alarm per post: the
 *    per-minute fan-out (due-fan-out.ts) queues each post from the due index when its minute comes; only a post due
 *    before the next fan-out gets a one-time alarm too. A row whose writes fail gives back what it took.
 */
export async function scheduleRows(deps: ScheduleRowsDeps, account: Account, rows: RowInput[], opts: { runAtDefault?: 'next_slot'; actor?: Actor; context?: PublishContext } = {}): Promise<RowOutcome[]> {
  const now = deps.clock.now();
  // the authentication's one query of the account (publish routes) already holds the guardrails, brands, connections
  const guard = opts.context ? (opts.actor ? opts.context.guardrails : undefined) : await loadGuardrails(deps, account.id, opts.actor);
  const reads = cachedReads(deps, opts.context && { accountId: account.id, ...opts.context });
  const outcomes = new Map<number, RowOutcome>();
  const fail = (row: number, error: AppError) => outcomes.set(row, { row, ok: false, error });

  const pending: Pending[] = [];
  for (const r of rows) {
    if (r.problem) { fail(r.row, new BadRequestError(r.problem, { code: 'invalid_row' })); continue; }
    const rowSchema = opts.runAtDefault ? BulkRowSchema : ScheduleRequestSchema;
    const parsed = rowSchema.safeParse(r.fields);
    if (!parsed.success) {
      const unknown = unknownFieldsOf(rowSchema, parsed.error);
      fail(r.row, unknown.length ? unknownFieldError(unknown, 'row') : new BadRequestError(issuesText(parsed.error)));
      continue;
    }
    try {
      const { run_at, ...post } = parsed.data;
      const runAt = parseRunAt(run_at ?? opts.runAtDefault, now);
      const checked = await checkNow(reads, account, post);
      checkBrandAllowed(guard, checked.brand.id);
      pending.push({ row: r.row, runAt, checked });
    } catch (err) {
      if (err instanceof AppError) fail(r.row, err); else throw err;
    }
  }

  const slots = new SlotFinder(deps, now);
  const placed: Pending[] = [];
  for (const p of pending) {
    p.id = newId('sch', now);
    const key = p.checked.valid.idempotency_key;
    if (key === undefined) { placed.push(p); continue; }
    const lock = scheduleLockOf(account.id, key);
    const duplicate = await takeScheduleLock(deps, lock, p.id, now);
    if (duplicate) {
      fail(p.row, duplicate);
      continue;
    }
    p.lock = lock.key;
    placed.push(p);
  }
  const places = await reserveScheduledUpTo(deps, account, placed.length, placed[0]?.id);
  const ready: Pending[] = [];
  for (const [i, p] of placed.entries()) {
    const id = p.id!;
    if (i >= places) {
      await releaseLock(deps, p.lock, id);
      fail(p.row, scheduledLimit(deps, account));
      continue;
    }
    let runAt: Date;
    let slot: string | undefined;
    try {
      if (p.runAt.kind === 'next_slot') {
        runAt = await slots.take(p.checked.brand, id);
        slot = runAt.toISOString();
      } else {
        runAt = p.runAt.at;
        slot = await slots.takeIfSlot(p.checked.brand, runAt, id);
      }
    } catch (err) {
      await releaseScheduled(deps, account.id, id);
      await releaseLock(deps, p.lock, id);
      if (err instanceof AppError) { fail(p.row, err); continue; }
      throw err;
    }
    p.record = {
      id, account_id: account.id, brand_id: p.checked.brand.id, status: 'scheduled', run_at: runAt.toISOString(),
      platforms: p.checked.valid.platforms, request: p.checked.request as Record<string, unknown>,
      ...(p.runAt.kind === 'next_slot' ? { slot: true } : {}), ...(slot ? { slot_claim: slot } : {}),
      counted: true, created_at: iso(now), updated_at: iso(now), ...(opts.actor ? { actor: opts.actor } : {}),
    };
    ready.push(p);
  }

  // nothing fires for a row whose writes failed: mark it (if written) and give back what it took
  const giveBack = async (p: Pending, err: unknown) => {
    const record = p.record!;
    await bestEffort('schedule cancel after a failed write', deps.schedules.updateScheduled(record.id, { status: 'canceled', canceled_at: iso(now), counted: false }, iso(now)), { schedule_id: record.id });
    await releaseScheduled(deps, account.id, record.id);
    if (record.slot_claim) await deps.slots.release(record.brand_id, record.slot_claim, record.id);
    await releaseLock(deps, p.lock, record.id);
    if (rows.length === 1) throw err;
    fail(p.row, new InternalError('The post could not be scheduled; try this row again', { code: 'internal_error' }));
  };
  const batches = Array.from({ length: Math.ceil(ready.length / ROWS_PER_WRITE) }, (_, i) => ready.slice(i * ROWS_PER_WRITE, (i + 1) * ROWS_PER_WRITE));
  await mapLimit(batches, WRITE_CONCURRENCY, async (batch) => {
    try {
      await deps.schedules.createNew(batch.map((p) => p.record!));
      for (const p of batch) outcomes.set(p.row, { row: p.row, ok: true, schedule: p.record! });
      for (const p of batch) await armIfBeforeNextFanOut(deps, p.record!, deps.clock.now());
    } catch (err) {
      for (const p of batch) await giveBack(p, err);
    }
  });

  return rows.map((r) => outcomes.get(r.row)!);
}

/** The answer of POST /api/schedule. */
export const scheduledView = (s: ScheduleRecord) => ({
  schedule_id: s.id, run_at: s.run_at, status: s.status, brand_id: s.brand_id, platforms: s.platforms, ...(s.slot ? { next_slot: true } : {}),
});

/** POST /api/schedule: one row; its failure is the request's error. */
export async function createSchedule(deps: ScheduleRowsDeps, account: Account, body: ScheduleRequest, actor?: Actor, context?: PublishContext) {
  const [outcome] = await scheduleRows(deps, account, [{ row: 1, fields: body }], { actor, context });
  if (!outcome.ok) throw outcome.error;
  return scheduledView(outcome.schedule);
}

/**
 * POST /api/bulk: JSON {posts: [...]} or text/csv (its records, parsed by the caller: parseBulkCsv), at most 500 rows
 * (400 too_many_rows, nothing scheduled). Valid rows are scheduled, invalid ones reported {row, code, error}; the
 * answer counts both.
 */
export async function bulkSchedule(deps: ScheduleRowsDeps, account: Account, input: { posts: unknown[] } | { csv: CsvRow[] }, actor?: Actor, context?: PublishContext) {
  let rows: RowInput[];
  if ('csv' in input) {
    rows = input.csv.map((r) => ({ row: r.row, fields: r.fields, problem: r.problem }));
  } else {
    if (input.posts.length > MAX_BULK_ROWS) {
      throw new BadRequestError(`At most ${MAX_BULK_ROWS} posts per request; this one has ${input.posts.length}`, { code: 'too_many_rows', details: { limit: MAX_BULK_ROWS, rows: input.posts.length } });
    }
    rows = input.posts.map((fields, i) => ({ row: i + 1, fields }));
  }
  const outcomes = await scheduleRows(deps, account, rows, { runAtDefault: 'next_slot', actor, context });
  const accepted = outcomes.filter((o): o is Extract<RowOutcome, { ok: true }> => o.ok);
  const rejected = outcomes.filter((o): o is Extract<RowOutcome, { ok: false }> => !o.ok);
  return {
    total: outcomes.length,
    accepted: accepted.length,
    rejected: rejected.length,
    scheduled: accepted.map((o) => ({ row: o.row, ...scheduledView(o.schedule) })),
    errors: rejected.map((o) => ({ row: o.row, code: o.error.code, error: o.error.message, ...pick(o.error.details, ['platforms', 'schedule_id', 'upgrade_url', 'issues']) })),
  };
}

function pick(details: Record<string, unknown>, names: string[]) {
  return Object.fromEntries(names.filter((n) => details[n] !== undefined).map((n) => [n, details[n]]));
}

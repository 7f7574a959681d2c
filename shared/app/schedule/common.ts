import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import { AppError, BadRequestError } from '../../domain/errors';
import { PLANS } from '../../domain/plans';
import { usageKeys } from '../../domain/usage';
import { upgradeUrl } from '../brands';

/** A firing this close before run_at counts as due (clocks of the scheduler and the dispatcher differ a little). */
export const DUE_TOLERANCE_MS = 1_000;
/**
 * A claim that recorded no post after this long belongs to a dispatcher that died (its Lambda timeout is 60 s); it
 * may be taken over. Locally, a claim older than the runtime's start (settings.claimsDeadBefore) is dead too.
 */
export const STALE_RUN_MS = 2 * 60_000;
/** The scheduled-posts counter is not a window: it lives as long as anything is scheduled (far-future expiry). */
const COUNTER_EXPIRES_AT_SEC = 4_102_444_800; // 2100-01-01

export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * EventBridge Scheduler names (≤ 64 chars of [0-9A-Za-z-_.]) derived from ids, so a retry addresses the same one.
 * A recurring schedule has one; a one-time scheduled post has none (the per-minute fan-out fires it; alarms named
 * `s-<schedule id>` armed by the previous release still fire, through the same claim).
 */
export const timerName = {
  recurring: (recurringId: string) => `r-${recurringId}`,
};

/** decisions.md: ISO 8601 with a UTC offset (`Z` or ±hh:mm), or the literal `next_slot`. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export type RunAt = { kind: 'at'; at: Date } | { kind: 'next_slot' };

/**
 * Parses run_at: `next_slot`, or a future instant with an offset, kept to the whole second (EventBridge Scheduler's
 * precision), rounded up so it never fires before the time asked for. 400 invalid_run_at otherwise.
 */
export function parseRunAt(value: unknown, nowMs: number): RunAt {
  if (value === 'next_slot') return { kind: 'next_slot' };
  if (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value.trim())) {
    throw new BadRequestError('run_at must be ISO 8601 with a UTC offset (e.g. 2026-05-01T09:00:00+02:00 or …Z), or next_slot', { code: 'invalid_run_at' });
  }
  const dt = DateTime.fromISO(value.trim(), { setZone: true });
  if (!dt.isValid) throw new BadRequestError(`run_at is not a real date and time: ${dt.invalidExplanation ?? value}`, { code: 'invalid_run_at' });
  const at = new Date(Math.ceil(dt.toMillis() / 1000) * 1000);
  if (at.getTime() <= nowMs) throw new BadRequestError(`run_at ${value} is in the past`, { code: 'invalid_run_at', details: { now: iso(nowMs) } });
  return { kind: 'at', at };
}

/**
 * Takes one place of the plan's scheduled posts at a time (400 scheduled_limit_reached with an upgrade link).
 * `holder` (the schedule's id) places it where its release looks first (the counter is spread over several items).
 */
export async function reserveScheduled(deps: Pick<Deps, 'counters' | 'settings'>, account: Account, holder?: string): Promise<void> {
  const limit = PLANS[account.plan].scheduled_at_a_time;
  const r = await deps.counters.increment(usageKeys.scheduled(account.id), 1, limit, COUNTER_EXPIRES_AT_SEC, holder);
  if (!r.allowed) throw scheduledLimit(deps, account);
}

/**
 * Takes up to `wanted` places at once (bulk rows): one counter write when they all fit; otherwise as many as are
 * left, so the first rows in order get them. Answers how many were taken.
 */
export async function reserveScheduledUpTo(deps: Pick<Deps, 'counters'>, account: Account, wanted: number, firstHolder?: string): Promise<number> {
  if (wanted <= 0) return 0;
  const limit = PLANS[account.plan].scheduled_at_a_time;
  const key = usageKeys.scheduled(account.id);
  const all = await deps.counters.increment(key, wanted, limit, COUNTER_EXPIRES_AT_SEC, firstHolder);
  if (all.allowed) return wanted;
  let got = 0;
  const room = Math.min(wanted, limit - all.count);
  if (room > 0 && (await deps.counters.increment(key, room, limit, COUNTER_EXPIRES_AT_SEC)).allowed) got = room;
  // other requests may be taking places at the same time: go on one by one until the cap refuses
  while (got < wanted && (await deps.counters.increment(key, 1, limit, COUNTER_EXPIRES_AT_SEC)).allowed) got++;
  return got;
}

export function scheduledLimit(deps: Pick<Deps, 'settings'>, account: Account): AppError {
  const limit = PLANS[account.plan].scheduled_at_a_time;
  return new BadRequestError(`The ${account.plan} plan holds ${limit} scheduled posts at a time; cancel one or upgrade`, { code: 'scheduled_limit_reached', details: { limit, upgrade_url: upgradeUrl(deps, account) }, });
}

/** Gives back the place of `holder` (the schedule or recurring schedule id it was reserved for). */
export async function releaseScheduled(deps: Pick<Deps, 'counters'>, accountId: string, holder?: string): Promise<void> {
  await deps.counters.release(usageKeys.scheduled(accountId), 1, holder);
}

/** Crockford base32 of a ULID, for ids derived from a time and a seed (the same inputs give the same id). */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The schedule id of one occurrence of a recurring schedule: a ULID whose time is the occurrence and whose random
 * part is a hash of (recurring id, occurrence). Two firings of one occurrence compute the same id, and writing that
 * item once is the claim.
 */
export function occurrenceScheduleId(recurringId: string, occurrenceMs: number): string {
  let time = '';
  let t = occurrenceMs;
  for (let i = 0; i < 10; i++) { time = CROCKFORD[t % 32] + time; t = Math.floor(t / 32); }
  const hash = createHash('sha256').update(`${recurringId}#${iso(occurrenceMs)}`).digest();
  let rest = '';
  for (let i = 0; i < 16; i++) rest += CROCKFORD[hash[i] % 32];
  return `sch_${time}${rest}`;
}

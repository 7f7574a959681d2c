import type { PlatformName } from '../domain/platforms';

/**
 * Persistence port of scheduling. The schedule item is the source of truth (the Scheduler port is only the alarm
 * clock): every state change is one conditional write on it, so a double fire, a retry, a cancel and a PATCH can
 * race without publishing twice.
 */

/** decisions.md "Scheduling": scheduled → publishing → published | partially_published | failed, or canceled. */
export const SCHEDULE_STATUSES = ['scheduled', 'publishing', 'published', 'partially_published', 'failed', 'canceled'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
export const FINAL_STATUSES: readonly ScheduleStatus[] = ['published', 'partially_published', 'failed', 'canceled'];

export interface ScheduleRecord {
  id: string;
  account_id: string;
  brand_id: string;
  status: ScheduleStatus;
  /** When it runs: ISO 8601 UTC, whole seconds. */
  run_at: string;
  platforms: PlatformName[];
  /** The post fields as sent (checked at creation, validated again when it fires). Absent on deferrals. */
  request?: Record<string, unknown>;
  /** run_at was the brand's next free slot. */
  slot?: boolean;
  /** The brand slot (instant) this schedule holds, released when it is canceled or moved. */
  slot_claim?: string;
  /** True while it holds a place on the account's scheduled-posts counter (plan cap). */
  counted: boolean;
  /** A network of a post deferred by the network's rate limit (spec §3), fired by the publishing core's timer. */
  deferred?: boolean;
  /** The post it published (or, for a deferral, the post it belongs to). */
  post_id?: string;
  recurring_id?: string;
  /** The occurrence of the recurring schedule this run is (ISO 8601 UTC). */
  occurrence?: string;
  /** Why it failed before anything was sent (e.g. the connection was removed meanwhile). */
  error?: { code: string; error: string };
  created_at: string;
  updated_at: string;
  /** When the dispatcher claimed it (ms). */
  claimed_at?: number;
  /** How many times a stale run was taken over (a run that keeps dying is failed after MAX_TAKEOVERS). */
  takeovers?: number;
  canceled_at?: string;
  /** Who scheduled it (API key or AI app): its guardrails apply when it publishes. */
  actor?: { kind: 'key' | 'app'; id: string; above?: string[] };
}

export type RecurringStatus = 'active' | 'canceled' | 'ended';

export interface RecurringRecord {
  id: string;
  account_id: string;
  brand_id: string;
  platforms: PlatformName[];
  request: Record<string, unknown>;
  cron: string;
  timezone: string;
  starts_at?: string;
  ends_at?: string;
  status: RecurringStatus;
  /** True while it holds a place on the scheduled-posts counter. */
  counted: boolean;
  last_occurrence?: string;
  created_at: string;
  updated_at: string;
  /** Who created it (API key or AI app): its guardrails apply to each occurrence. */
  actor?: { kind: 'key' | 'app'; id: string; above?: string[] };
}

export interface ScheduleQuery {
  /** Only these statuses (stored status; callers widen with `publishing` to settle outcomes lazily). */
  statuses?: ScheduleStatus[];
  brand_id?: string;
  deferred?: boolean;
  /** run_at range, inclusive, ISO 8601 UTC. */
  from?: string;
  to?: string;
  /** Opaque position after which to continue. */
  cursor?: string;
  limit: number;
}

/** An entry of the due index: a schedule waiting at run_at (the account is absent on markers of the previous format). */
export interface DueMarker {
  schedule_id: string;
  run_at: string;
  account_id?: string;
}

export interface ScheduleStore {
  /** Writes a new schedule; false (and no change) when that id exists. */
  create(s: ScheduleRecord): Promise<boolean>;
  /**
   * Writes schedules whose ids are new (never written before: no existence check), each with its due-index marker,
   * in as few calls as the table allows; throws if any could not be written (some may have been).
   */
  createNew(records: ScheduleRecord[]): Promise<void>;
  get(id: string): Promise<ScheduleRecord | undefined>;
  /** The account's schedules by run_at ascending, filtered; `cursor` continues after the last one answered. */
  list(accountId: string, q: ScheduleQuery): Promise<{ items: ScheduleRecord[]; cursor?: string }>;
  /**
   * scheduled → publishing if run_at ≤ `dueBy` (ISO): the dispatcher's claim. Exactly one caller wins; answers the
   * record as it was before, or undefined when it was not scheduled or not due.
   */
  claim(id: string, dueBy: string, nowMs: number): Promise<ScheduleRecord | undefined>;
  /** Takes over a claim that published nothing (no post_id) and was made at `claimedAt`; one caller wins. */
  takeOver(id: string, claimedAt: number, nowMs: number): Promise<boolean>;
  /** Changes a schedule that is still `scheduled` (PATCH, cancel); answers the new record, or undefined. */
  updateScheduled(id: string, patch: Partial<Pick<ScheduleRecord, 'run_at' | 'request' | 'platforms' | 'brand_id' | 'slot' | 'slot_claim' | 'status' | 'canceled_at' | 'counted'>>, nowIso: string): Promise<ScheduleRecord | undefined>;
  /**
   * Schedules still `scheduled` (not deferrals), or `publishing` without a recorded post, whose run_at ≤ `before`
   * (ISO), across accounts, oldest first, at most `limit`: what the reconciliation sweep fires when an alarm was
   * never armed, or takes over when a run died. Index entries met on the way whose schedule no longer waits there
   * are dropped.
   */
  overdue(before: string, limit: number): Promise<ScheduleRecord[]>;
  /**
   * The due index's markers with run_at in [from, to) (ISO), across accounts, oldest first, at most `limit`: what
   * the per-minute fan-out queues. Markers only (a marker says "look here"; the fire's claim decides), so a marker
   * left by a schedule that moved, ran or was canceled is answered too.
   */
  due(from: string, to: string, limit: number): Promise<DueMarker[]>;
  /**
   * Records the outcome of a `publishing` schedule (post_id, final status, error); no-op (false) unless publishing.
   * Once the post is recorded or the run ended, the schedule leaves the sweep's index.
   */
  settle(id: string, fields: { status: ScheduleStatus; post_id?: string; error?: ScheduleRecord['error'] }, nowIso: string): Promise<boolean>;
}

/** Persistence of recurring schedules (POST /api/recurring): each firing makes one schedule item. */
export interface RecurringStore {
  create(r: RecurringRecord): Promise<void>;
  get(id: string): Promise<RecurringRecord | undefined>;
  list(accountId: string): Promise<RecurringRecord[]>;
  /** active → canceled | ended; false when it was not active. */
  end(id: string, status: 'canceled' | 'ended', nowIso: string): Promise<boolean>;
  /** Notes the latest occurrence that ran. */
  touch(id: string, occurrence: string, nowIso: string): Promise<void>;
}

/** A brand's posting slots held by schedules (`slot: "next"`): one holder per slot instant. */
export interface SlotStore {
  /** Takes a brand's slot (instant ISO) for `holder` unless another holds it; expired claims are free. */
  claim(brandId: string, instant: string, holder: string, expiresAtSec: number, nowSec: number): Promise<boolean>;
  release(brandId: string, instant: string, holder: string): Promise<void>;
  /** Held slot instants of a brand within [from, to] (ISO). */
  taken(brandId: string, from: string, to: string, nowSec: number): Promise<Set<string>>;
}

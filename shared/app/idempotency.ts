import type { Deps } from './deps';
import type { NetworkRecord, PostRecord } from '../ports/publishing';
import type { PlatformName } from '../domain/platforms';
import type { PostPayload, ValidPost } from '../domain/post';
import type { ScheduleRecord } from '../ports/schedules';
import { sha256Hex } from '../domain/api-key';
import { DuplicatePostError } from '../domain/errors';

/*
 * Duplicate protection (spec §8.3), in one place: which lock a request takes, for how long, taking it, reading it
 * (POST /api/validate), and giving it back. A lock is a conditional write of the LockStore port
 * (shared/adapters/dynamodb/locks.ts): taken when absent or expired, released only by its holder.
 *
 * - A post with an idempotency_key holds `idem#` for 24 hours; a scheduled run without one holds its schedule's own
 *   key the same way (never echoed); any other post holds `dup#` of its fingerprint (identical request) for 2 minutes.
 * - Scheduling with an idempotency_key holds `sched#` for 24 hours, apart from the publish lock the run takes later.
 * - A post whose every network failed gives its lock back at once, so the caller can retry.
 * - A post held for approval keeps its lock until the decision: approved, it publishes under the same post id (its
 *   own lock lets it through); rejected or expired, the lock is given back.
 */

/** How long an idempotency_key (or a schedule's own key) protects a post or a schedule. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** How long an identical request without a key is refused. */
export const DUPLICATE_TTL_SECONDS = 120;

/** A lock to take: its key and how long it holds. */
export interface DuplicateLock { key: string; ttl: number }

/** A stable fingerprint of what makes two requests "identical" (spec §8.3: networks, text, drafts, media, brand). */
export function fingerprint(platforms: PlatformName[], payload: PostPayload, brandId: string): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, sorted(x)]));
    return v;
  };
  return JSON.stringify(sorted({ platforms: [...platforms].sort(), payload, brandId }));
}

/** The duplicate lock of a post: its idempotency_key (else a schedule's own key) for 24 hours, else the identical request for 2 minutes. */
export function publishLockOf(accountId: string, valid: ValidPost, brandId: string): DuplicateLock {
  const key = valid.idempotency_key ?? valid.duplicate_key;
  return key !== undefined
    ? { key: `idem#${accountId}#${sha256Hex(key)}`, ttl: IDEMPOTENCY_TTL_SECONDS }
    : { key: `dup#${accountId}#${sha256Hex(fingerprint(valid.platforms, valid.payload, brandId))}`, ttl: DUPLICATE_TTL_SECONDS };
}

/** The scheduling-time lock of an idempotency_key: the same key schedules once in 24 hours. */
export const scheduleLockOf = (accountId: string, idempotencyKey: string): DuplicateLock =>
  ({ key: `sched#${accountId}#${sha256Hex(idempotencyKey)}`, ttl: IDEMPOTENCY_TTL_SECONDS });

/** The schedule's own duplicate key of a run (the occurrence's for a recurring one); a user's idempotency_key wins over it. */
export function scheduledRunKey(record: Pick<ScheduleRecord, 'id' | 'recurring_id' | 'occurrence'>): string {
  if (record.recurring_id && record.occurrence) return `rec:${record.recurring_id}:${record.occurrence}`;
  return `sch:${record.id}`;
}

/** 409 duplicate_post for a post: another post (`heldBy`) holds its lock. */
export const duplicatePost = (valid: ValidPost, heldBy: string) => new DuplicatePostError(valid.idempotency_key !== undefined
  ? 'This idempotency_key was used in the last 24 hours: nothing was published again'
  : 'An identical post was sent in the last 2 minutes: nothing was published again', { post_id: heldBy || undefined });

/** 409 duplicate_post for a schedule: schedule `heldBy` was made with this idempotency_key in the last 24 hours. */
export const scheduleDuplicate = (heldBy: string) =>
  new DuplicatePostError('This idempotency_key was used to schedule a post in the last 24 hours: nothing was scheduled again', { schedule_id: heldBy || undefined });

/** Takes a post's lock for `postId` (409 duplicate_post when another post holds it; an approved post holds its own). */
export async function takePublishLock(deps: Pick<Deps, 'locks'>, lock: DuplicateLock, valid: ValidPost, postId: string, nowMs: number): Promise<void> {
  const got = await deps.locks.acquire(lock.key, postId, lock.ttl, nowMs);
  if (got.ok || got.heldBy === postId) return;
  throw duplicatePost(valid, got.heldBy);
}

/** Takes a schedule's idempotency lock for `scheduleId`; answers the 409 to report when another schedule holds it. */
export async function takeScheduleLock(deps: Pick<Deps, 'locks'>, lock: DuplicateLock, scheduleId: string, nowMs: number): Promise<DuplicatePostError | undefined> {
  const got = await deps.locks.acquire(lock.key, scheduleId, lock.ttl, nowMs);
  return got.ok ? undefined : scheduleDuplicate(got.heldBy);
}

/** POST /api/validate: the 409 the real publish would answer, read without taking the lock. */
export async function checkPublishLockFree(deps: Pick<Deps, 'locks'>, lock: DuplicateLock, valid: ValidPost, nowMs: number): Promise<void> {
  const holder = await deps.locks.holder(lock.key, nowMs);
  if (holder !== undefined) throw duplicatePost(valid, holder);
}

/** POST /api/validate with run_at: the 409 the real schedule would answer, read without taking the lock. */
export async function checkScheduleLockFree(deps: Pick<Deps, 'locks'>, lock: DuplicateLock, nowMs: number): Promise<void> {
  const holder = await deps.locks.holder(lock.key, nowMs);
  if (holder !== undefined) throw scheduleDuplicate(holder);
}

/** Gives a lock back if `holder` still holds it (a held post rejected or expired, a write that failed after taking it). */
export async function releaseLock(deps: Pick<Deps, 'locks'>, key: string | undefined, holder: string): Promise<void> {
  if (key) await deps.locks.release(key, holder);
}

/** Spec §8.3 rule 3: when every network of a post failed, its duplicate lock is released at once. */
export async function releaseLockIfAllFailed(deps: Pick<Deps, 'locks'>, post: PostRecord, networks: NetworkRecord[]): Promise<void> {
  const allFinal = networks.every((n) => n.state === 'done');
  const noneOk = networks.every((n) => !n.result?.ok);
  if (allFinal && noneOk) await releaseLock(deps, post.lock, post.id);
}

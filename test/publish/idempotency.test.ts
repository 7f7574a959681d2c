import type { LockStore, NetworkRecord, PostRecord } from '../../shared/ports/publishing';
import type { ValidPost } from '../../shared/domain/post';
import { DuplicatePostError } from '../../shared/domain/errors';
import {
  checkPublishLockFree, DUPLICATE_TTL_SECONDS, IDEMPOTENCY_TTL_SECONDS, publishLockOf, releaseLock, releaseLockIfAllFailed,
  scheduledRunKey, scheduleLockOf, takePublishLock, takeScheduleLock,
} from '../../shared/app/idempotency';

/** The LockStore contract in memory (the DynamoDB adapter is held to the same by test/store). */
function memoryLocks(): LockStore & { held: Map<string, { holder: string; until: number }> } {
  const held = new Map<string, { holder: string; until: number }>();
  return {
    held,
    async acquire(key, postId, ttlSeconds, nowMs) {
      const now = Math.floor(nowMs / 1000);
      const h = held.get(key);
      if (h && h.until >= now) return { ok: false, heldBy: h.holder };
      held.set(key, { holder: postId, until: now + ttlSeconds });
      return { ok: true };
    },
    async release(key, postId) { if (held.get(key)?.holder === postId) held.delete(key); },
    async holder(key, nowMs) { const h = held.get(key); return h && h.until >= Math.floor(nowMs / 1000) ? h.holder : undefined; },
  };
}

const post = (over: Partial<ValidPost> = {}): ValidPost =>
  ({ platforms: ['bluesky', 'mastodon'], payload: { text: 'hello', media: [], per_platform: {} }, ...over });
const T0 = Date.UTC(2026, 0, 1);

describe('the duplicate lock a post takes', () => {
  test('an idempotency_key (or a schedule\'s own key) holds 24 hours; without one the identical request holds 2 minutes', () => {
    const keyed = publishLockOf('acc_1', post({ idempotency_key: 'k1' }), 'brd_1');
    expect(keyed).toEqual({ key: expect.stringMatching(/^idem#acc_1#[0-9a-f]{64}$/), ttl: IDEMPOTENCY_TTL_SECONDS });
    expect(publishLockOf('acc_1', post({ duplicate_key: 'k1' }), 'brd_1')).toEqual(keyed);
    expect(publishLockOf('acc_1', post(), 'brd_1')).toEqual({ key: expect.stringMatching(/^dup#acc_1#/), ttl: DUPLICATE_TTL_SECONDS });
    expect(IDEMPOTENCY_TTL_SECONDS).toBe(86_400);
    expect(DUPLICATE_TTL_SECONDS).toBe(120);
  });

  test('identical means the same networks (in any order), content and brand', () => {
    const a = publishLockOf('acc_1', post(), 'brd_1').key;
    expect(publishLockOf('acc_1', post({ platforms: ['mastodon', 'bluesky'] }), 'brd_1').key).toBe(a);
    expect(publishLockOf('acc_1', post(), 'brd_2').key).not.toBe(a);
    expect(publishLockOf('acc_1', post({ payload: { text: 'hello!', media: [], per_platform: {} } }), 'brd_1').key).not.toBe(a);
    expect(publishLockOf('acc_2', post(), 'brd_1').key).not.toBe(a);
  });

  test('a second post is refused with 409 duplicate_post naming the first; the holder itself (an approved post) passes', async () => {
    const deps = { locks: memoryLocks() };
    const valid = post({ idempotency_key: 'k1' });
    const lock = publishLockOf('acc_1', valid, 'brd_1');
    await takePublishLock(deps, lock, valid, 'pst_1', T0);
    await expect(takePublishLock(deps, lock, valid, 'pst_1', T0 + 1000)).resolves.toBeUndefined();
    const refused = await takePublishLock(deps, lock, valid, 'pst_2', T0 + 1000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DuplicatePostError);
    expect(refused).toMatchObject({ status: 409, code: 'duplicate_post', details: { post_id: 'pst_1' }, message: expect.stringContaining('24 hours') });
    await expect(takePublishLock(deps, lock, valid, 'pst_2', T0 + (IDEMPOTENCY_TTL_SECONDS + 1) * 1000)).resolves.toBeUndefined();
  });

  test('POST /api/validate reads the lock without taking it', async () => {
    const deps = { locks: memoryLocks() };
    const valid = post();
    const lock = publishLockOf('acc_1', valid, 'brd_1');
    await checkPublishLockFree(deps, lock, valid, T0);
    expect(deps.locks.held.size).toBe(0);
    await takePublishLock(deps, lock, valid, 'pst_1', T0);
    await expect(checkPublishLockFree(deps, lock, valid, T0)).rejects.toMatchObject({ code: 'duplicate_post', message: expect.stringContaining('2 minutes') });
  });
});

describe('the scheduling lock', () => {
  test('the same idempotency_key schedules once in 24 hours; the refusal names the schedule', async () => {
    const deps = { locks: memoryLocks() };
    const lock = scheduleLockOf('acc_1', 'k1');
    expect(lock).toEqual({ key: expect.stringMatching(/^sched#acc_1#/), ttl: IDEMPOTENCY_TTL_SECONDS });
    expect(lock.key).not.toBe(publishLockOf('acc_1', post({ idempotency_key: 'k1' }), 'brd_1').key);
    expect(await takeScheduleLock(deps, lock, 'sch_1', T0)).toBeUndefined();
    expect(await takeScheduleLock(deps, lock, 'sch_2', T0)).toMatchObject({ status: 409, code: 'duplicate_post', details: { schedule_id: 'sch_1' } });
  });

  test('a run\'s own key: the occurrence of a recurring schedule, else the schedule', () => {
    expect(scheduledRunKey({ id: 'sch_1' })).toBe('sch:sch_1');
    expect(scheduledRunKey({ id: 'sch_2', recurring_id: 'rec_1', occurrence: '2026-01-01T09:00:00.000Z' })).toBe('rec:rec_1:2026-01-01T09:00:00.000Z');
  });
});

describe('giving a lock back', () => {
  const record = { id: 'pst_1', lock: 'idem#acc_1#x' } as PostRecord;
  const net = (state: NetworkRecord['state'], ok?: boolean) => ({ state, ...(ok === undefined ? {} : { result: { ok } }) }) as NetworkRecord;

  test('when every network of a post failed, at once', async () => {
    const deps = { locks: memoryLocks() };
    await deps.locks.acquire(record.lock!, 'pst_1', 60, T0);
    await releaseLockIfAllFailed(deps, record, [net('done', false), net('done', true)]);
    expect(deps.locks.held.has(record.lock!)).toBe(true);
    await releaseLockIfAllFailed(deps, record, [net('done', false), net('sending')]);
    expect(deps.locks.held.has(record.lock!)).toBe(true);
    await releaseLockIfAllFailed(deps, record, [net('done', false), net('done', false)]);
    expect(deps.locks.held.has(record.lock!)).toBe(false);
  });

  test('only by its holder (a held post rejected gives back its own lock, never a newer holder\'s)', async () => {
    const deps = { locks: memoryLocks() };
    await deps.locks.acquire('k', 'pst_2', 60, T0);
    await releaseLock(deps, 'k', 'pst_1');
    await releaseLock(deps, undefined, 'pst_2');
    expect(deps.locks.held.get('k')?.holder).toBe('pst_2');
    await releaseLock(deps, 'k', 'pst_2');
    expect(deps.locks.held.has('k')).toBe(false);
  });
});

import type { LockStore } from '../../ports/publishing';
import type { TableRef } from './client';
import { cond, or } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';

/** A lock item: its holder (the post or schedule id that took it) until expires_at (epoch seconds). */
const lock = entity({
  key: keys.lock,
  keyOf: (l: { key: string; post_id: string; expires_at: number }) => keys.lock(l.key),
  keyOnly: ['key'],
});

/**
 * The store of the duplicate-protection locks (shared/app/idempotency.ts decides which key, for how long and when):
 * acquiring is a conditional put that succeeds when the lock is absent or expired; a lost race answers the holder;
 * release is conditional on the holder.
 */
export class DynamoLockStore implements LockStore {
  private readonly locks: Bound<typeof lock>;
  constructor(t: TableRef) { this.locks = lock.on(t); }

  async acquire(key: string, postId: string, ttlSeconds: number, nowMs: number) {
    const now = Math.floor(nowMs / 1000);
    const taken = await this.locks.putOrFind({ key, post_id: postId, expires_at: now + ttlSeconds }, {
      // free, or left over from an expired hold (TTL deletes lazily)
      if: or(cond.absent, cond.expired), values: { ':now': now },
    });
    return taken.written ? { ok: true as const } : { ok: false as const, heldBy: String(taken.found?.post_id ?? '') };
  }

  async holder(key: string, nowMs: number) {
    const held = await this.locks.get(key);
    // an expired hold is free (TTL deletes lazily), as acquire sees it
    return held && Number(held.expires_at) >= Math.floor(nowMs / 1000) ? String(held.post_id ?? '') : undefined;
  }

  async release(key: string, postId: string) {
    // only the holder releases: a lock taken over after its expiry stays with its new holder
    await conditional(this.locks.delete([key], { if: cond.heldBy, values: { ':holder': postId } }));
  }
}

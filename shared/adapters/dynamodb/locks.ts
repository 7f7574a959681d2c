import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { LockStore } from '../../ports/publishing';
import { isConditionFailure, type TableRef } from './client';
import { cond, or } from './conditions';
import { keys } from './keys';

/**
 * The store of the duplicate-protection locks (shared/app/idempotency.ts decides which key, for how long and when):
 * acquiring is a conditional put that succeeds when the lock is absent or expired; a lost race answers the holder;
 * release is conditional on the holder.
 */
export class DynamoLockStore implements LockStore {
  constructor(private readonly t: TableRef) {}

  async acquire(key: string, postId: string, ttlSeconds: number, nowMs: number) {
    const now = Math.floor(nowMs / 1000);
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName,
        Item: { ...keys.lock(key), post_id: postId, expires_at: now + ttlSeconds },
        // free, or left over from an expired hold (TTL deletes lazily)
        ConditionExpression: or(cond.absent, cond.expired),
        ExpressionAttributeValues: { ':now': now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }));
      return { ok: true as const };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      // DynamoDB returns the holder with the failure; engines that do not are asked once more.
      const held = (err as { Item?: Record<string, unknown> }).Item
        ?? (await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.lock(key), ConsistentRead: true }))).Item;
      return { ok: false as const, heldBy: String(held?.post_id ?? '') };
    }
  }

  async holder(key: string, nowMs: number) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.lock(key), ConsistentRead: true }));
    const item = res.Item;
    // an expired hold is free (TTL deletes lazily), as acquire sees it
    return item && Number(item.expires_at) >= Math.floor(nowMs / 1000) ? String(item.post_id ?? '') : undefined;
  }

  async release(key: string, postId: string) {
    await this.t.doc.send(new DeleteCommand({
      TableName: this.t.tableName, Key: keys.lock(key),
      // only the holder releases: a lock taken over after its expiry stays with its new holder
      ConditionExpression: cond.heldBy, ExpressionAttributeValues: { ':holder': postId },
    })).catch((err) => { if (!isConditionFailure(err)) throw err; });
  }
}

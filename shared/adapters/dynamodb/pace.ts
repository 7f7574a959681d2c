import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PaceStore } from '../../ports/publishing';
import { isConditionFailure, type TableRef } from './client';
import { cond } from './conditions';
import { keys } from './keys';

/**
 * Per-key spacing across workers and instances (Telegram chats): an item holds the next free slot; a caller reads
 * it and moves it forward with a conditional write on the value it read, retrying when another caller won.
 */
export class DynamoPaceStore implements PaceStore {
  constructor(private readonly t: TableRef) {}

  async reserve(key: string, spacingMs: number, nowMs: number): Promise<number> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.pace(key), ConsistentRead: true }));
      const next = res.Item ? Number(res.Item.next_at) : undefined;
      const slot = Math.max(nowMs, next ?? 0);
      const expires_at = Math.ceil((slot + spacingMs) / 1000) + 3600;
      try {
        if (next === undefined) {
          await this.t.doc.send(new PutCommand({
            TableName: this.t.tableName, Item: { ...keys.pace(key), next_at: slot + spacingMs, expires_at },
            ConditionExpression: cond.absent,
          }));
        } else {
          await this.t.doc.send(new UpdateCommand({
            TableName: this.t.tableName, Key: keys.pace(key),
            UpdateExpression: 'SET next_at = :next, expires_at = :exp',
            // nobody moved the slot since we read it
            ConditionExpression: 'next_at = :seen',
            ExpressionAttributeValues: { ':next': slot + spacingMs, ':seen': next, ':exp': expires_at },
          }));
        }
        return slot;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    }
    throw new Error(`pace: too much contention on ${key}`);
  }
}

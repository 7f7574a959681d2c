import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CounterStore } from '../../ports/store';
import { isConditionFailure, type TableRef } from './client';
import { cond, or } from './conditions';
import { keys } from './keys';
import { systemClock } from '../../ports/clock';

/**
 * Fixed-window counters shared by every Lambda instance: callers put the window into the key, so each window is
 * its own item, incremented with a conditional ADD so the limit holds under concurrency; TTL removes old windows.
 */
export class DynamoCounterStore implements CounterStore {
  constructor(private readonly t: TableRef, private readonly nowSec: () => number = () => Math.floor(systemClock.now() / 1000)) {}

  async increment(key: string, amount: number, limit: number, expiresAtSec: number) {
    if (amount > limit) return { allowed: false, count: await this.get(key) };
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.counter(key),
        UpdateExpression: 'ADD #count :amount SET expires_at = :exp',
        // a new counter, or one still below the limit after adding
        ConditionExpression: or(cond.absent, '#count <= :room'),
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':amount': amount, ':room': limit - amount, ':exp': expiresAtSec },
        ReturnValues: 'UPDATED_NEW',
      }));
      return { allowed: true, count: Number(res.Attributes?.count ?? amount) };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return { allowed: false, count: await this.get(key) };
    }
  }

  async release(key: string, amount: number) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.counter(key),
      UpdateExpression: 'ADD #count :minus',
      // never below zero
      ConditionExpression: '#count >= :amount',
      ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':minus': -amount, ':amount': amount },
    })).catch((err) => { if (!isConditionFailure(err)) throw err; });
  }

  async get(key: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.counter(key), ConsistentRead: true }));
    if (!res.Item) return 0;
    if (typeof res.Item.expires_at === 'number' && res.Item.expires_at < this.nowSec()) return 0;
    return Number(res.Item.count ?? 0);
  }
}

import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SlotStore } from '../../ports/schedules';
import { isConditionFailure, type TableRef } from './client';
import { cond, or } from './conditions';
import { keys } from './keys';

/** A brand's slot claims: one item per brand and instant, taken by a conditional put, given back by its holder only. */
export class DynamoSlotStore implements SlotStore {
  constructor(private readonly t: TableRef) {}

  async claim(brandId: string, instant: string, holder: string, expiresAtSec: number, nowSec: number) {
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName,
        Item: { ...keys.slot(brandId, instant), holder, expires_at: expiresAtSec },
        // free, left over from a claim that expired (TTL deletes lazily), or already this holder's
        ConditionExpression: or(cond.absent, cond.expired, 'holder = :holder'),
        ExpressionAttributeValues: { ':now': nowSec, ':holder': holder },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async release(brandId: string, instant: string, holder: string) {
    await this.t.doc.send(new DeleteCommand({
      TableName: this.t.tableName, Key: keys.slot(brandId, instant),
      // only the holder gives its slot back
      ConditionExpression: 'holder = :holder', ExpressionAttributeValues: { ':holder': holder },
    })).catch((err) => { if (!isConditionFailure(err)) throw err; });
  }

  async taken(brandId: string, from: string, to: string, nowSec: number) {
    const taken = new Set<string>();
    let start: Record<string, unknown> | undefined;
    do {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, ConsistentRead: true, ExclusiveStartKey: start,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.slot(brandId, '').pk, ':from': from, ':to': to },
      }));
      for (const i of res.Items ?? []) if (typeof i.expires_at !== 'number' || i.expires_at >= nowSec) taken.add(i.sk as string);
      start = res.LastEvaluatedKey;
    } while (start);
    return taken;
  }
}

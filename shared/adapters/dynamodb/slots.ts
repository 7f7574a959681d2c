import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SlotStore } from '../../ports/schedules';
import type { TableRef } from './client';
import { cond, or } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';

/** A brand's slot claim: the brand and the instant only in the key (the instant is its sort key, read back by `taken`). */
const slotEntity = entity({
  key: keys.slot,
  keyOf: (s: { brand_id: string; instant: string; holder: string; expires_at: number }) => keys.slot(s.brand_id, s.instant),
  keyOnly: ['brand_id', 'instant'],
});

/** A brand's slot claims: one item per brand and instant, taken by a conditional put, given back by its holder only. */
export class DynamoSlotStore implements SlotStore {
  private readonly slots: Bound<typeof slotEntity>;
  constructor(private readonly t: TableRef) {
    this.slots = slotEntity.on(t);
  }

  claim(brandId: string, instant: string, holder: string, expiresAtSec: number, nowSec: number) {
    return conditional(this.slots.put({ brand_id: brandId, instant, holder, expires_at: expiresAtSec }, {
      // free, left over from a claim that expired (TTL deletes lazily), or already this holder's
      if: or(cond.absent, cond.expired, 'holder = :holder'), values: { ':now': nowSec, ':holder': holder },
    }));
  }

  async release(brandId: string, instant: string, holder: string) {
    // only the holder gives its slot back
    await conditional(this.slots.delete([brandId, instant], { if: 'holder = :holder', values: { ':holder': holder } }));
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

import type { RecurringRecord, RecurringStore } from '../../ports/schedules';
import type { TableRef } from './client';
import { and, cond, or } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';

const recurring = entity({
  key: keys.recurring,
  keyOf: (r: RecurringRecord) => keys.recurring(r.id),
  indexOf: (r: RecurringRecord) => keys.recurringByAccount(r.account_id, r.id),
});

/**
 * Recurring schedules: one item per id, indexed per account (GET /api/recurring). Ending is a conditional write on
 * the status (one winner), and the last occurrence only moves forward.
 */
export class DynamoRecurringStore implements RecurringStore {
  private readonly items: Bound<typeof recurring>;
  constructor(t: TableRef) { this.items = recurring.on(t); }

  create(r: RecurringRecord) {
    // ids are new: never overwrite
    return this.items.put(r, { if: cond.absent });
  }

  get(id: string) {
    return this.items.get(id);
  }

  list(accountId: string) {
    return this.items.query({ gsi1pk: keys.recurringByAccount(accountId, '').gsi1pk }, { descending: true });
  }

  end(id: string, status: 'canceled' | 'ended', nowIso: string) {
    return conditional(this.items.update([id], { set: { status, counted: false, updated_at: nowIso } }, {
      // only an active recurring schedule ends, once
      if: and(cond.present, '#status = :active'), names: { '#status': 'status' }, values: { ':active': 'active' },
    }));
  }

  async touch(id: string, occurrence: string, nowIso: string) {
    await conditional(this.items.update([id], { set: { last_occurrence: occurrence, updated_at: nowIso } }, {
      // the item exists, and an older occurrence never overwrites a newer one
      if: and(cond.present, or('attribute_not_exists(last_occurrence)', 'last_occurrence < :occ')), values: { ':occ': occurrence },
    }));
  }
}

import type { BillingStore, EventClaim } from '../../ports/billing';
import type { AccountBilling, PlanChange } from '../../domain/billing';
import type { PlanName } from '../../domain/plans';
import { isConditionFailure, type TableRef } from './client';
import { and, cond, or } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';
import { accountEntity } from './accounts';

/** Processed events are remembered this long (providers retry for days; Stripe up to 3). */
const EVENT_KEEP_SECONDS = 30 * 86_400;

interface EventClaimItem { event_id: string; type: string; status: 'processing' | 'done'; lease_until: number; expires_at: number }
const eventClaim = entity({ key: keys.billingEvent, keyOf: (e: EventClaimItem) => keys.billingEvent(e.event_id) });

/** The provider's customer → our account (the customer id only in the key). */
const customerLink = entity({
  key: keys.billingCustomer,
  keyOf: (c: { customer_id: string; account_id: string }) => keys.billingCustomer(c.customer_id),
  keyOnly: ['customer_id'],
});

/** One plan change in the account's history (the account and the sequence number only in the key). */
const planChange = entity({
  key: keys.planChange,
  keyOf: (c: PlanChange & { account_id: string; seq: number }) => keys.planChange(c.account_id, c.at, c.seq),
  keyOnly: ['account_id', 'seq'],
});

/**
 * Billing in the single table: event claims (`BILLEVT#`), the customer link (`BILLCUS#`), the account's billing
 * attributes (on its ACCOUNT item, guarded by `billing_version`) and the plan-change history (`PLANCHG#` items under
 * the account). Every invariant is one conditional write.
 */
export class DynamoBillingStore implements BillingStore {
  private readonly events: Bound<typeof eventClaim>;
  private readonly customers: Bound<typeof customerLink>;
  private readonly changes: Bound<typeof planChange>;
  private readonly accounts: Bound<typeof accountEntity>;
  constructor(t: TableRef) {
    this.events = eventClaim.on(t);
    this.customers = customerLink.on(t);
    this.changes = planChange.on(t);
    this.accounts = accountEntity.on(t);
  }

  async claimEvent(eventId: string, type: string, nowMs: number, leaseMs: number): Promise<EventClaim> {
    const claim = await this.events.putOrFind(
      { event_id: eventId, type, status: 'processing', lease_until: nowMs + leaseMs, expires_at: Math.floor(nowMs / 1000) + EVENT_KEEP_SECONDS },
      {
        // new, or a claim whose holder died mid-way (its lease is over)
        if: or(cond.absent, and('#status = :processing', 'lease_until < :nowMs')),
        names: { '#status': 'status' }, values: { ':processing': 'processing', ':nowMs': nowMs },
      },
    );
    if (claim.written) return 'claimed';
    return claim.found?.status === 'done' ? 'done' : 'busy';
  }

  finishEvent(eventId: string, outcome: string, nowMs: number): Promise<void> {
    return this.events.update([eventId], { set: { status: 'done', outcome, finished_at: new Date(nowMs).toISOString() }, remove: ['lease_until'] });
  }

  async releaseEvent(eventId: string): Promise<void> {
    await conditional(this.events.delete([eventId], { if: '#status = :processing', names: { '#status': 'status' }, values: { ':processing': 'processing' } }));
  }

  saveState(accountId: string, expectedVersion: number, next: { plan: PlanName; billing: AccountBilling; change?: PlanChange }): Promise<boolean> {
    const set = { plan: next.plan, billing: next.billing, billing_version: expectedVersion + 1, ...(next.change ? { plan_change: next.change } : {}) };
    const versionCheck = expectedVersion > 0
      ? { if: and(cond.present, 'billing_version = :expected'), values: { ':expected': expectedVersion } }
      : { if: and(cond.present, 'attribute_not_exists(billing_version)') };
    return conditional(this.accounts.update([accountId], { set }, versionCheck));
  }

  async saveCustomer(accountId: string, customerId: string): Promise<string> {
    await this.customers.put({ customer_id: customerId, account_id: accountId }, { if: or(cond.absent, cond.ownedBy), values: { ':account': accountId } });
    try {
      await this.accounts.update([accountId], { set: { billing_customer_id: customerId } }, {
        // the account's first customer stays its only one
        if: and(cond.present, or('attribute_not_exists(billing_customer_id)', 'billing_customer_id = :customer')), values: { ':customer': customerId },
      });
      return customerId;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const held = (await this.accounts.get(accountId))?.billing_customer_id;
      if (!held) throw err;
      return held;
    }
  }

  async findAccountByCustomer(customerId: string): Promise<string | undefined> {
    return (await this.customers.get(customerId))?.account_id;
  }

  async recordChange(accountId: string, seq: number, change: PlanChange): Promise<void> {
    await conditional(this.changes.put({ ...change, account_id: accountId, seq }, { if: cond.absent }));
  }

  async listChanges(accountId: string, limit: number): Promise<PlanChange[]> {
    return (await this.changes.page({ pk: keys.account(accountId).pk, beginsWith: keys.planChangePrefix }, { descending: true, limit })).items;
  }
}

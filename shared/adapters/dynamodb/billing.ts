import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { BillingStore, EventClaim } from '../../ports/billing';
import type { AccountBilling, PlanChange } from '../../domain/billing';
import type { PlanName } from '../../domain/plans';
import { isConditionFailure, type TableRef } from './client';
import { and, cond, or } from './conditions';
import { keys, strip } from './keys';

/** Processed events are remembered this long (providers retry for days; Stripe up to 3). */
const EVENT_KEEP_SECONDS = 30 * 86_400;

/**
 * Billing in the single table: event claims (`BILLEVT#`), the customer link (`BILLCUS#`), the account's billing
 * attributes (on its ACCOUNT item, guarded by `billing_version`) and the plan-change history (`PLANCHG#` items under
 * the account). Every invariant is one conditional write.
 */
export class DynamoBillingStore implements BillingStore {
  constructor(private readonly t: TableRef) {}

  async claimEvent(eventId: string, type: string, nowMs: number, leaseMs: number): Promise<EventClaim> {
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName,
        Item: { ...keys.billingEvent(eventId), event_id: eventId, type, status: 'processing', lease_until: nowMs + leaseMs, expires_at: Math.floor(nowMs / 1000) + EVENT_KEEP_SECONDS },
        // new, or a claim whose holder died mid-way (its lease is over)
        ConditionExpression: or(cond.absent, and('#status = :processing', 'lease_until < :nowMs')),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':processing': 'processing', ':nowMs': nowMs },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }));
      return 'claimed';
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const old = (err as { Item?: Record<string, unknown> }).Item
        ?? (await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.billingEvent(eventId), ConsistentRead: true }))).Item;
      return old?.status === 'done' ? 'done' : 'busy';
    }
  }

  async finishEvent(eventId: string, outcome: string, nowMs: number): Promise<void> {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.billingEvent(eventId),
      UpdateExpression: 'SET #status = :done, outcome = :outcome, finished_at = :at REMOVE lease_until',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':done': 'done', ':outcome': outcome, ':at': new Date(nowMs).toISOString() },
    }));
  }

  async releaseEvent(eventId: string): Promise<void> {
    await this.t.doc.send(new DeleteCommand({
      TableName: this.t.tableName, Key: keys.billingEvent(eventId),
      ConditionExpression: '#status = :processing', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':processing': 'processing' },
    })).catch((err) => { if (!isConditionFailure(err)) throw err; });
  }

  async saveState(accountId: string, expectedVersion: number, next: { plan: PlanName; billing: AccountBilling; change?: PlanChange }): Promise<boolean> {
    const values: Record<string, unknown> = { ':plan': next.plan, ':billing': next.billing, ':next': expectedVersion + 1 };
    let update = 'SET #plan = :plan, billing = :billing, billing_version = :next';
    if (next.change) { update += ', plan_change = :change'; values[':change'] = next.change; }
    let versionCheck = 'attribute_not_exists(billing_version)';
    if (expectedVersion > 0) { versionCheck = 'billing_version = :expected'; values[':expected'] = expectedVersion; }
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.account(accountId),
        UpdateExpression: update,
        ConditionExpression: and(cond.present, versionCheck),
        ExpressionAttributeNames: { '#plan': 'plan' }, ExpressionAttributeValues: values,
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async saveCustomer(accountId: string, customerId: string): Promise<string> {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName, Item: { ...keys.billingCustomer(customerId), account_id: accountId },
      ConditionExpression: or(cond.absent, cond.ownedBy), ExpressionAttributeValues: { ':account': accountId },
    }));
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.account(accountId),
        UpdateExpression: 'SET billing_customer_id = :customer',
        // the account's first customer stays its only one
        ConditionExpression: and(cond.present, or('attribute_not_exists(billing_customer_id)', 'billing_customer_id = :customer')),
        ExpressionAttributeValues: { ':customer': customerId },
      }));
      return customerId;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.account(accountId), ConsistentRead: true }));
      const held = res.Item?.billing_customer_id as string | undefined;
      if (!held) throw err;
      return held;
    }
  }

  async findAccountByCustomer(customerId: string): Promise<string | undefined> {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.billingCustomer(customerId), ConsistentRead: true }));
    return res.Item?.account_id as string | undefined;
  }

  async recordChange(accountId: string, seq: number, change: PlanChange): Promise<void> {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName, Item: { ...keys.planChange(accountId, change.at, seq), ...change },
      ConditionExpression: cond.absent,
    })).catch((err) => { if (!isConditionFailure(err)) throw err; });
  }

  async listChanges(accountId: string, limit: number): Promise<PlanChange[]> {
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':prefix': keys.planChangePrefix },
      ScanIndexForward: false, Limit: limit, ConsistentRead: true,
    }));
    return (res.Items ?? []).map((i) => strip<PlanChange>(i));
  }
}

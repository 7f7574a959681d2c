import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Account, AccountStore } from '../../ports/store';
import type { PlanName } from '../../domain/plans';
import { isConditionFailure, type TableRef } from './client';
import { cond, and } from './conditions';
import { keys, strip } from './keys';

/** Accounts and the email → account claim that keeps one account per email. */
export class DynamoAccountStore implements AccountStore {
  constructor(private readonly t: TableRef) {}

  async claimEmail(email: string, accountId: string) {
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName,
        Item: { ...keys.email(email), account_id: accountId },
        ConditionExpression: cond.absent,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }));
      return { claimed: true as const };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const existing = (err as { Item?: Record<string, unknown> }).Item;
      const holder = (existing?.account_id as string | undefined) ?? (await this.findIdByEmail(email));
      return { claimed: false as const, accountId: holder! };
    }
  }

  async createAccount(account: Account) {
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName,
        Item: { ...keys.account(account.id), ...account },
        ConditionExpression: cond.absent,
      }));
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  async get(id: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.account(id), ConsistentRead: true }));
    if (!res.Item) return undefined;
    const { brand_pending: _pending, ...item } = res.Item;
    return strip<Account>(item);
  }

  async findIdByEmail(email: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.email(email), ConsistentRead: true }));
    return res.Item?.account_id as string | undefined;
  }

  async markVerified(id: string) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.account(id),
      UpdateExpression: 'SET verified = :true', ConditionExpression: cond.present,
      ExpressionAttributeValues: { ':true': true },
    }));
  }

  async setPlan(id: string, plan: PlanName) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.account(id),
      UpdateExpression: 'SET #plan = :plan', ConditionExpression: cond.present,
      ExpressionAttributeNames: { '#plan': 'plan' }, ExpressionAttributeValues: { ':plan': plan },
    }));
  }

  async setRedirectOrigins(id: string, origins: string[]) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.account(id),
      UpdateExpression: 'SET redirect_origins = :o', ConditionExpression: cond.present,
      ExpressionAttributeValues: { ':o': origins },
    }));
  }

  async reserveBrand(id: string, limit: number, brandId: string) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.account(id),
        // the place and the brand it is for, pending until the brand is written or the place given back
        UpdateExpression: 'ADD brand_count :one, brand_pending :ids',
        // below the plan's brand limit
        ConditionExpression: and(cond.present, 'brand_count < :limit'),
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':ids': new Set([brandId]) },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async settleBrand(id: string, brandId: string) {
    return this.ifPending(id, brandId, 'DELETE brand_pending :ids');
  }

  async releaseBrand(id: string, brandId: string) {
    return this.ifPending(id, brandId, 'ADD brand_count :minus DELETE brand_pending :ids', { ':minus': -1 });
  }

  async pendingBrands(id: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.account(id), ConsistentRead: true, ProjectionExpression: 'brand_pending' }));
    return [...((res.Item?.brand_pending as Set<string> | undefined) ?? [])];
  }

  /** Applies `update` once per pending brand: the condition that it is still pending makes a repeat (or a race) a no-op. */
  private async ifPending(id: string, brandId: string, update: string, values: Record<string, unknown> = {}) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.account(id), UpdateExpression: update,
        ConditionExpression: and(cond.present, 'contains(brand_pending, :id)'),
        ExpressionAttributeValues: { ':ids': new Set([brandId]), ':id': brandId, ...values },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

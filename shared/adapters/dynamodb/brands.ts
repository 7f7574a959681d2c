import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Brand, BrandStore } from '../../ports/store';
import { isConditionFailure, type TableRef } from './client';
import { cond } from './conditions';
import { keys, strip } from './keys';

/** Brands live under their account's partition, so listing is one query. */
export class DynamoBrandStore implements BrandStore {
  constructor(private readonly t: TableRef) {}

  async create(brand: Brand) {
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName, Item: { ...keys.brand(brand.account_id, brand.id), ...brand }, ConditionExpression: cond.absent,
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async get(accountId: string, brandId: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.brand(accountId, brandId), ConsistentRead: true }));
    return res.Item ? strip<Brand>(res.Item) : undefined;
  }

  async list(accountId: string) {
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':prefix': keys.brandPrefix },
    }));
    return (res.Items ?? []).map((i) => strip<Brand>(i));
  }

  async update(accountId: string, brandId: string, patch: Partial<Pick<Brand, 'name' | 'timezone' | 'slots'>>) {
    const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return this.get(accountId, brandId);
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.brand(accountId, brandId),
        UpdateExpression: 'SET ' + entries.map(([k]) => `#${k} = :${k}`).join(', '),
        ConditionExpression: cond.present,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k]) => [`#${k}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([k, v]) => [`:${k}`, v])),
        ReturnValues: 'ALL_NEW',
      }));
      return res.Attributes ? strip<Brand>(res.Attributes) : undefined;
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }
}

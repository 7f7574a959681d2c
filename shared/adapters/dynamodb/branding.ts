import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Branding, BrandingStore } from '../../ports/branding';
import { queryAll, type TableRef } from './client';
import { keys, strip } from './keys';

/** White-label settings under the account's partition (BRANDING#<scope>). */
export class DynamoBrandingStore implements BrandingStore {
  constructor(private readonly t: TableRef) {}

  async get(accountId: string, scope: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.branding(accountId, scope) }));
    return res.Item ? strip<Branding>(res.Item) : undefined;
  }

  async put(b: Branding) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.branding(b.account_id, b.scope), ...b } }));
  }

  async list(accountId: string) {
    const items = await queryAll(this.t, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': `ACC#${accountId}`, ':sk': keys.brandingPrefix },
    });
    return items.map((i) => strip<Branding>(i));
  }
}

import { DeleteCommand, PutCommand, UpdateCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Connection, ConnectionStore } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { and, cond } from './conditions';
import { keys, strip } from './keys';

/** Connections live in the account partition, one per (brand, network), so listing is one query. */
export class DynamoConnectionStore implements ConnectionStore {
  constructor(private readonly t: TableRef) {}

  async put(c: Connection) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.connection(c.account_id, c.brand_id, c.platform), ...c } }));
  }

  async get(accountId: string, brandId: string, platform: PlatformName) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.connection(accountId, brandId, platform), ConsistentRead: true }));
    return res.Item ? strip<Connection>(res.Item) : undefined;
  }

  async listByAccount(accountId: string) {
    const items = await queryAll(this.t, {
      ConsistentRead: true, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':prefix': keys.connectionPrefix },
    });
    return items.map((i) => strip<Connection>(i));
  }

  async delete(accountId: string, connectionId: string) {
    const found = (await this.listByAccount(accountId)).find((c) => c.id === connectionId);
    if (!found) return false;
    try {
      await this.t.doc.send(new DeleteCommand({
        TableName: this.t.tableName, Key: keys.connection(accountId, found.brand_id, found.platform),
        // still the same connection (not replaced by a reconnect meanwhile)
        ConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': connectionId },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async setStatus(accountId: string, brandId: string, platform: PlatformName, status: Connection['status']) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.connection(accountId, brandId, platform),
      UpdateExpression: 'SET #status = :status', ConditionExpression: cond.present,
      ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':status': status },
    })).catch((err) => { if (!isConditionFailure(err)) throw err; });
  }

  async saveTokens(c: Connection, tokens: { tokens_enc: string; token_expires_at?: number }) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.connection(c.account_id, c.brand_id, c.platform),
        UpdateExpression: tokens.token_expires_at === undefined ? 'SET tokens_enc = :t REMOVE token_expires_at' : 'SET tokens_enc = :t, token_expires_at = :e',
        // still the same connection (a reconnect meanwhile brought its own tokens)
        ConditionExpression: and(cond.present, 'id = :id'),
        ExpressionAttributeValues: { ':t': tokens.tokens_enc, ':id': c.id, ...(tokens.token_expires_at === undefined ? {} : { ':e': tokens.token_expires_at }) },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async markReauth(c: Connection) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.connection(c.account_id, c.brand_id, c.platform),
        UpdateExpression: 'SET #status = :reauth',
        // the same connection, and not marked yet: exactly one caller records the lost sign-in
        ConditionExpression: and(cond.present, 'id = :id', '#status <> :reauth'),
        ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':reauth': 'reauth_required', ':id': c.id },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

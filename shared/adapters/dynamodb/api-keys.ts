import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord, KeyStore } from '../../ports/store';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { and, cond } from './conditions';
import { GSI1, keys, strip } from './keys';

/**
 * API keys: one item per key, keyed by the SHA-256 of the key so authentication is one strongly consistent read
 * (a revocation is effective at once); the GSI lists an account's keys.
 */
export class DynamoKeyStore implements KeyStore {
  constructor(private readonly t: TableRef) {}

  async create(record: ApiKeyRecord) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...keys.apiKey(record.hash), ...keys.apiKeyByAccount(record.account_id, record.id), ...record },
      ConditionExpression: cond.absent,
    }));
  }

  async getByHash(hash: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.apiKey(hash), ConsistentRead: true }));
    return res.Item ? strip<ApiKeyRecord>(res.Item) : undefined;
  }

  async listByAccount(accountId: string) {
    const items = await queryAll(this.t, {
      IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.apiKeyByAccount(accountId, '').gsi1pk },
    });
    return items.map((i) => strip<ApiKeyRecord>(i));
  }

  async revoke(accountId: string, keyId: string, at: string) {
    const found = (await this.listByAccount(accountId)).find((k) => k.id === keyId);
    if (!found) return false;
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.apiKey(found.hash),
        UpdateExpression: 'SET revoked_at = :at',
        // the caller's key, revoked only once
        ConditionExpression: and(cond.present, cond.ownedBy, cond.notRevoked),
        ExpressionAttributeValues: { ':at': at, ':account': accountId },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

import { PutCommand, UpdateCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ConsumeResult, OneTimeToken, TokenStore } from '../../ports/store';
import { isConditionFailure, type TableRef } from './client';
import { and, cond } from './conditions';
import { keys, strip } from './keys';

/** One-time tokens, stored by hash; consuming is a conditional update so a token works exactly once. */
export class DynamoTokenStore implements TokenStore {
  constructor(private readonly t: TableRef) {}

  async put(token: OneTimeToken) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...keys.token(token.kind, token.hash), ...token, expires_at: token.expires_at },
      ConditionExpression: cond.absent,
    }));
  }

  async peek(kind: string, hash: string): Promise<OneTimeToken | undefined> {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.token(kind, hash), ConsistentRead: true }));
    return res.Item ? { ...strip<OneTimeToken>(res.Item), expires_at: res.Item.expires_at as number } : undefined;
  }

  async consume(kind: string, hash: string, nowMs: number): Promise<ConsumeResult> {
    const now = Math.floor(nowMs / 1000);
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.token(kind, hash),
        UpdateExpression: 'SET used_at = :now',
        // exists, not used yet, not expired
        ConditionExpression: and(cond.present, cond.unused, cond.live),
        ExpressionAttributeValues: { ':now': now },
        ReturnValues: 'ALL_NEW',
      }));
      const item = res.Attributes!;
      return { ok: true, token: { ...strip<OneTimeToken>(item), expires_at: item.expires_at as number } };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const existing = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.token(kind, hash), ConsistentRead: true }));
      if (!existing.Item) return { ok: false, reason: 'missing' };
      if (existing.Item.used_at !== undefined) return { ok: false, reason: 'used' };
      return { ok: false, reason: 'expired' };
    }
  }
}

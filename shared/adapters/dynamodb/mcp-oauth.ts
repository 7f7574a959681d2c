import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AiApp, AuthCodeRecord, McpOAuthStore, OAuthClientRecord, OAuthTokenRecord } from '../../ports/mcp-oauth';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { and, cond } from './conditions';
import { keys, strip } from './keys';
import { sha256Hex } from '../../domain/api-key';

/**
 * The MCP authorization server's items in the single table. One live app per account and client: the app item is
 * written first, then a pointer item claimed with a conditional put (the loser deletes its app and takes the
 * winner's). Codes are used once and refresh tokens rotated once by conditional updates that check expiry.
 */
export class DynamoMcpOAuthStore implements McpOAuthStore {
  constructor(private readonly t: TableRef) {}

  private get = async (key: Record<string, string>) =>
    (await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: key, ConsistentRead: true }))).Item;

  async putClient(client: OAuthClientRecord) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.oauthClient(sha256Hex(client.client_id)), ...client }, ConditionExpression: cond.absent }));
  }

  async getClient(clientId: string) {
    const item = await this.get(keys.oauthClient(sha256Hex(clientId)));
    return item ? strip<OAuthClientRecord>(item) : undefined;
  }

  async appFor(candidate: AiApp): Promise<AiApp> {
    const pointerKey = keys.aiAppByClient(candidate.account_id, sha256Hex(candidate.client_id));
    for (let attempt = 0; attempt < 3; attempt++) {
      const pointer = await this.get(pointerKey);
      if (pointer) {
        const app = await this.getApp(candidate.account_id, String(pointer.app_id));
        if (app && !app.revoked_at) return app;
        await this.dropPointer(pointerKey, String(pointer.app_id));
        continue;
      }
      await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.aiApp(candidate.account_id, candidate.id), ...candidate }, ConditionExpression: cond.absent }));
      try {
        await this.t.doc.send(new PutCommand({
          TableName: this.t.tableName, Item: { ...pointerKey, app_id: candidate.id, account_id: candidate.account_id }, ConditionExpression: cond.absent,
        }));
        return candidate;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        await this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: keys.aiApp(candidate.account_id, candidate.id) }));
      }
    }
    throw new Error('Could not settle the AI app for this client');
  }

  private async dropPointer(key: Record<string, string>, appId: string) {
    try {
      await this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: key, ConditionExpression: 'app_id = :app', ExpressionAttributeValues: { ':app': appId } }));
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  async getApp(accountId: string, appId: string) {
    const item = await this.get(keys.aiApp(accountId, appId));
    return item ? strip<AiApp>(item) : undefined;
  }

  async listApps(accountId: string) {
    const items = await queryAll(this.t, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':prefix': keys.aiAppPrefix },
    });
    return items.map((i) => strip<AiApp>(i)).sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  async revokeApp(accountId: string, appId: string, at: string) {
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.aiApp(accountId, appId),
        UpdateExpression: 'SET revoked_at = :at', ConditionExpression: and(cond.present, cond.notRevoked),
        ExpressionAttributeValues: { ':at': at }, ReturnValues: 'ALL_NEW',
      }));
      await this.dropPointer(keys.aiAppByClient(accountId, sha256Hex(String(res.Attributes!.client_id))), appId);
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async putCode(code: AuthCodeRecord) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.oauthCode(code.hash), ...code }, ConditionExpression: cond.absent }));
  }

  async redeemCode(hash: string, nowSec: number, at: string) {
    return this.useOnce(keys.oauthCode(hash), nowSec, at, and(cond.present, cond.live, cond.unused)) as Promise<AuthCodeRecord | undefined>;
  }

  async putToken(token: OAuthTokenRecord) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.oauthToken(token.hash), ...token }, ConditionExpression: cond.absent }));
  }

  async getToken(hash: string) {
    const item = await this.get(keys.oauthToken(hash));
    return item ? strip<OAuthTokenRecord>(item) : undefined;
  }

  async useRefreshToken(hash: string, nowSec: number, at: string) {
    return this.useOnce(keys.oauthToken(hash), nowSec, at, and(cond.present, cond.live, cond.unused, cond.notRevoked, "kind = :refresh"), { ':refresh': 'refresh' }) as Promise<OAuthTokenRecord | undefined>;
  }

  private async useOnce(key: Record<string, string>, nowSec: number, at: string, condition: string, extra: Record<string, unknown> = {}) {
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: key, UpdateExpression: 'SET used_at = :at', ConditionExpression: condition,
        ExpressionAttributeValues: { ':at': at, ':now': nowSec, ...extra }, ReturnValues: 'ALL_NEW',
      }));
      return strip<Record<string, unknown>>(res.Attributes!);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async getCode(hash: string) {
    const item = await this.get(keys.oauthCode(hash));
    return item ? strip<AuthCodeRecord>(item) : undefined;
  }

  /** A revoked grant is one item, kept (TTL `expires_at`) until every token it issued has expired anyway. */
  async revokeGrant(grantId: string, at: string, keepUntilSec: number) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.oauthGrant(grantId), grant_id: grantId, revoked_at: at, expires_at: keepUntilSec } }));
  }

  async isGrantRevoked(grantId: string) {
    return !!(await this.get(keys.oauthGrant(grantId)));
  }

  async revokeToken(hash: string, at: string) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.oauthToken(hash), UpdateExpression: 'SET revoked_at = :at',
        ConditionExpression: and(cond.present, cond.notRevoked), ExpressionAttributeValues: { ':at': at },
      }));
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }
}

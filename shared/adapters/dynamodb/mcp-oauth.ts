import type { AiApp, AuthCodeRecord, McpOAuthStore, OAuthClientRecord, OAuthTokenRecord } from '../../ports/mcp-oauth';
import type { TableRef } from './client';
import { and, cond } from './conditions';
import { conditional, entity, orUndefined, type Bound, type Condition } from './entity';
import { keys } from './keys';
import { sha256Hex } from '../../domain/api-key';

const oauthClient = entity({
  key: (clientId: string) => keys.oauthClient(sha256Hex(clientId)),
  keyOf: (c: OAuthClientRecord) => keys.oauthClient(sha256Hex(c.client_id)),
});
const aiApp = entity({ key: keys.aiApp, keyOf: (a: AiApp) => keys.aiApp(a.account_id, a.id) });
/** The account's one live app for a client (the client only in the key, as the hash of its client_id). */
interface AppPointer { account_id: string; app_id: string; client_id: string }
const appPointer = entity({
  key: (accountId: string, clientId: string) => keys.aiAppByClient(accountId, sha256Hex(clientId)),
  keyOf: (p: AppPointer) => keys.aiAppByClient(p.account_id, sha256Hex(p.client_id)),
  keyOnly: ['client_id'],
});
const oauthCode = entity({ key: keys.oauthCode, keyOf: (c: AuthCodeRecord) => keys.oauthCode(c.hash) });
const oauthToken = entity({ key: keys.oauthToken, keyOf: (t: OAuthTokenRecord) => keys.oauthToken(t.hash) });
interface GrantRevocation { grant_id: string; revoked_at: string; expires_at: number }
const grantRevocation = entity({ key: keys.oauthGrant, keyOf: (g: GrantRevocation) => keys.oauthGrant(g.grant_id) });

/**
 * The MCP authorization server's items in the single table. One live app per account and client: the app item is
 * written first, then a pointer item claimed with a conditional put (the loser deletes its app and takes the
 * winner's). Codes are used once and refresh tokens rotated once by conditional updates that check expiry.
 */
export class DynamoMcpOAuthStore implements McpOAuthStore {
  private readonly clients: Bound<typeof oauthClient>;
  private readonly apps: Bound<typeof aiApp>;
  private readonly pointers: Bound<typeof appPointer>;
  private readonly codes: Bound<typeof oauthCode>;
  private readonly tokens: Bound<typeof oauthToken>;
  private readonly grants: Bound<typeof grantRevocation>;
  constructor(t: TableRef) {
    this.clients = oauthClient.on(t);
    this.apps = aiApp.on(t);
    this.pointers = appPointer.on(t);
    this.codes = oauthCode.on(t);
    this.tokens = oauthToken.on(t);
    this.grants = grantRevocation.on(t);
  }

  putClient(client: OAuthClientRecord) {
    return this.clients.put(client, { if: cond.absent });
  }

  getClient(clientId: string) {
    return this.clients.get(clientId);
  }

  async appFor(candidate: AiApp): Promise<AiApp> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const pointer = await this.pointers.get(candidate.account_id, candidate.client_id);
      if (pointer) {
        const app = await this.getApp(candidate.account_id, pointer.app_id);
        if (app && !app.revoked_at) return app;
        await this.dropPointer(candidate.account_id, candidate.client_id, pointer.app_id);
        continue;
      }
      await this.apps.put(candidate, { if: cond.absent });
      const claimed = await conditional(this.pointers.put(
        { account_id: candidate.account_id, app_id: candidate.id, client_id: candidate.client_id }, { if: cond.absent }));
      if (claimed) return candidate;
      await this.apps.delete([candidate.account_id, candidate.id]);
    }
    throw new Error('Could not settle the AI app for this client');
  }

  private async dropPointer(accountId: string, clientId: string, appId: string) {
    // only the pointer to this app (a newer app's pointer stays)
    await conditional(this.pointers.delete([accountId, clientId], { if: 'app_id = :app', values: { ':app': appId } }));
  }

  getApp(accountId: string, appId: string) {
    return this.apps.get(accountId, appId);
  }

  async listApps(accountId: string) {
    const apps = await this.apps.query({ pk: keys.account(accountId).pk, beginsWith: keys.aiAppPrefix });
    return apps.sort((a, b) => b.created_at.localeCompare(a.created_at));
  }

  async revokeApp(accountId: string, appId: string, at: string) {
    const app = await orUndefined(this.apps.updateAndRead([accountId, appId], { set: { revoked_at: at } }, { if: and(cond.present, cond.notRevoked) }));
    if (!app) return false;
    await this.dropPointer(accountId, app.client_id, appId);
    return true;
  }

  putCode(code: AuthCodeRecord) {
    return this.codes.put(code, { if: cond.absent });
  }

  redeemCode(hash: string, nowSec: number, at: string) {
    return orUndefined(this.codes.updateAndRead([hash], { set: { used_at: at } }, { if: and(cond.present, cond.live, cond.unused), values: { ':now': nowSec } }));
  }

  putToken(token: OAuthTokenRecord) {
    return this.tokens.put(token, { if: cond.absent });
  }

  getToken(hash: string) {
    return this.tokens.get(hash);
  }

  useRefreshToken(hash: string, nowSec: number, at: string) {
    const refreshable: Condition = { if: and(cond.present, cond.live, cond.unused, cond.notRevoked, 'kind = :refresh'), values: { ':now': nowSec, ':refresh': 'refresh' } };
    return orUndefined(this.tokens.updateAndRead([hash], { set: { used_at: at } }, refreshable));
  }

  getCode(hash: string) {
    return this.codes.get(hash);
  }

  /** A revoked grant is one item, kept (TTL `expires_at`) until every token it issued has expired anyway. */
  revokeGrant(grantId: string, at: string, keepUntilSec: number) {
    return this.grants.put({ grant_id: grantId, revoked_at: at, expires_at: keepUntilSec });
  }

  async isGrantRevoked(grantId: string) {
    return !!(await this.grants.get(grantId));
  }

  async revokeToken(hash: string, at: string) {
    await conditional(this.tokens.update([hash], { set: { revoked_at: at } }, { if: and(cond.present, cond.notRevoked) }));
  }
}

import { startTestTable } from '../support/deps';
import { DynamoMcpOAuthStore } from '../../shared/adapters/dynamodb/mcp-oauth';
import type { AiApp, OAuthTokenRecord } from '../../shared/ports/mcp-oauth';
import type { TableRef } from '../../shared/adapters/dynamodb/client';

let table: TableRef;
let stop: () => Promise<void>;
let store: DynamoMcpOAuthStore;
beforeAll(async () => { ({ table, stop } = await startTestTable()); store = new DynamoMcpOAuthStore(table); });
afterAll(() => stop());

const NOW = 1_800_000_000;
const at = new Date(NOW * 1000).toISOString();
const app = (id: string, accountId = 'acc_1', clientId = 'mcpc_1'): AiApp =>
  ({ id, account_id: accountId, client_id: clientId, client_name: 'Agent', redirect_host: 'localhost', created_at: at });
const token = (hash: string, extra: Partial<OAuthTokenRecord> = {}): OAuthTokenRecord => ({
  hash, kind: 'refresh', app_id: 'app_1', account_id: 'acc_1', client_id: 'mcpc_1', resource: 'https://api.test/api/mcp', scope: 'mcp',
  expires_at: NOW + 3600, created_at: at, ...extra,
});

describe('MCP OAuth store (embedded DynamoDB, real concurrency)', () => {
  it('one live app per account and client, even when 20 consents race', async () => {
    const apps = await Promise.all(Array.from({ length: 20 }, (_, i) => store.appFor(app(`app_race${i}`, 'acc_race', 'mcpc_race'))));
    expect(new Set(apps.map((a) => a.id)).size).toBe(1);
    expect((await store.listApps('acc_race')).map((a) => a.id)).toEqual([apps[0]!.id]);
    // another account or another client gets its own
    expect((await store.appFor(app('app_other', 'acc_race', 'mcpc_other'))).id).toBe('app_other');
    expect((await store.appFor(app('app_b', 'acc_b', 'mcpc_race'))).id).toBe('app_b');
  });

  it('a revoked app is revoked once, and the next consent makes a new app', async () => {
    const first = await store.appFor(app('app_rev1', 'acc_rev'));
    const results = await Promise.all(Array.from({ length: 10 }, () => store.revokeApp('acc_rev', first.id, at)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.getApp('acc_rev', first.id))?.revoked_at).toBe(at);
    expect(await store.revokeApp('acc_other', first.id, at)).toBe(false);
    const second = await store.appFor(app('app_rev2', 'acc_rev'));
    expect(second.id).toBe('app_rev2');
    expect((await store.listApps('acc_rev')).map((a) => [a.id, Boolean(a.revoked_at)]).sort()).toEqual([['app_rev1', true], ['app_rev2', false]]);
  });

  it('a code is redeemed once under 20 concurrent attempts, and never after it expired', async () => {
    const code = { hash: 'code1', client_id: 'mcpc_1', app_id: 'app_1', account_id: 'acc_1', redirect_uri: 'http://localhost/cb', code_challenge: 'c', resource: 'r', scope: 'mcp', expires_at: NOW + 300 };
    await store.putCode(code);
    const wins = (await Promise.all(Array.from({ length: 20 }, () => store.redeemCode('code1', NOW, at)))).filter(Boolean);
    expect(wins).toHaveLength(1);
    expect(wins[0]).toMatchObject({ client_id: 'mcpc_1', used_at: at });
    await store.putCode({ ...code, hash: 'code2' });
    expect(await store.redeemCode('code2', NOW + 301, at)).toBeUndefined();
    expect(await store.redeemCode('unknown', NOW, at)).toBeUndefined();
  });

  it('a refresh token rotates once under 20 concurrent attempts; access, expired and revoked ones never', async () => {
    await store.putToken(token('rt1'));
    const wins = (await Promise.all(Array.from({ length: 20 }, () => store.useRefreshToken('rt1', NOW, at)))).filter(Boolean);
    expect(wins).toHaveLength(1);
    await store.putToken(token('at1', { kind: 'access' }));
    expect(await store.useRefreshToken('at1', NOW, at)).toBeUndefined();
    await store.putToken(token('rt2'));
    expect(await store.useRefreshToken('rt2', NOW + 3601, at)).toBeUndefined();
    await store.putToken(token('rt3'));
    await store.revokeToken('rt3', at);
    expect(await store.useRefreshToken('rt3', NOW, at)).toBeUndefined();
    expect((await store.getToken('rt3'))?.revoked_at).toBe(at);
  });
});

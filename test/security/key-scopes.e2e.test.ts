import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';
import { routeList } from '../../functions/routes';
import { requiredScope } from '../../shared/domain/api-key';

let rt: LocalRuntime;
let full: string;
beforeAll(async () => {
  rt = await startRuntime();
  full = await signupThroughApi(rt.url, 'scopes@example.com');
});
afterAll(() => rt?.stop());

describe('API key scopes (spec §5.3)', () => {
  it('every key route needs a scope; an absent scope defaults to read for GET/HEAD and manage otherwise', () => {
    for (const r of routeList.filter((x) => x.auth === 'key')) expect([r.id, requiredScope(r)]).toEqual([r.id, expect.stringMatching(/^(publish|read|manage)$/)]);
    const publish = routeList.filter((r) => r.auth === 'key' && requiredScope(r) === 'publish').map((r) => r.id).sort();
    expect(publish).toEqual(expect.arrayContaining(['post-post', 'post-schedule', 'patch-schedule', 'delete-schedule', 'post-bulk', 'post-recurring', 'delete-recurring']));
    expect(routeList.filter((r) => r.auth === 'key' && r.method === 'GET' && requiredScope(r) !== 'read').map((r) => r.id)).toEqual(['get-media-finalize']);
    expect(requiredScope({ method: 'GET' })).toBe('read');
    expect(requiredScope({ method: 'HEAD' })).toBe('read');
    expect(requiredScope({ method: 'POST' })).toBe('manage');
    expect(requiredScope({ method: 'DELETE' })).toBe('manage');
    expect(requiredScope({ method: 'POST', scope: 'publish' })).toBe('publish');
  });

  it('the first key holds every scope; a read-only key cannot publish or manage (403 key_scope naming the scope)', async () => {
    const api = client(rt.url, full);
    expect((await api('GET', '/api/keys')).body.keys).toEqual([expect.objectContaining({ name: 'First key', scopes: ['publish', 'read', 'manage'] })]);
    const made = await api('POST', '/api/keys', { name: 'reader', scopes: ['read'] });
    expect(made).toMatchObject({ status: 200, body: { scopes: ['read'], expires_at: null } });
    const reader = client(rt.url, made.body.api_key as string);
    expect((await reader('GET', '/api/me')).status).toBe(200);
    expect((await reader('GET', '/api/posts')).status).toBe(200);
    const post = await reader('POST', '/api/post', { text: 'hi', platforms: ['discord'] });
    expect(post).toMatchObject({ status: 403, body: { code: 'key_scope', scope: 'publish' } });
    const brand = await reader('POST', '/api/brands', { name: 'Nope' });
    expect(brand).toMatchObject({ status: 403, body: { code: 'key_scope', scope: 'manage' } });
    expect((await api('GET', '/api/brands')).body.brands).toHaveLength(1);
    const mint = await reader('POST', '/api/keys', { scopes: ['read'] });
    expect(mint).toMatchObject({ status: 403, body: { code: 'key_scope', scope: 'manage' } });
  });

  it('a publish key reaches publishing routes but not management', async () => {
    const api = client(rt.url, full);
    const publisher = client(rt.url, (await api('POST', '/api/keys', { scopes: ['publish'] })).body.api_key as string);
    const post = await publisher('POST', '/api/post', { text: 'hi', platforms: ['discord'] });
    expect(post.status).toBe(200);
    expect(post.body.results).toEqual([expect.objectContaining({ platform: 'discord', code: 'not_connected' })]);
    expect(await publisher('GET', '/api/posts')).toMatchObject({ status: 403, body: { code: 'key_scope', scope: 'read' } });
    expect(await publisher('POST', '/api/webhooks', { url: 'https://example.com/hook' })).toMatchObject({ status: 403, body: { code: 'key_scope', scope: 'manage' } });
  });

  it('a key mints only keys no wider than itself, in scopes and expiry', async () => {
    const api = client(rt.url, full);
    const short = await api('POST', '/api/keys', { name: 'one day', expires_in_days: 1, scopes: ['read', 'manage'] });
    expect(short.status).toBe(200);
    const oneDay = client(rt.url, short.body.api_key as string);
    expect(await oneDay('POST', '/api/keys', { scopes: ['publish'] })).toMatchObject({ status: 403, body: { code: 'key_scope', scope: 'publish' } });
    expect(await oneDay('POST', '/api/keys', { expires_in_days: 2 })).toMatchObject({ status: 403, body: { code: 'key_expiry', expires_at: short.body.expires_at } });
    const inherited = await oneDay('POST', '/api/keys', { name: 'inherits' });
    expect(inherited).toMatchObject({ status: 200, body: { scopes: ['read', 'manage'], expires_at: short.body.expires_at } });
    expect(await oneDay('POST', '/api/keys', { scopes: ['sudo'] })).toMatchObject({ status: 400 });
  });

  it('a key cannot revoke a wider key, but may revoke itself and narrower ones', async () => {
    const api = client(rt.url, full);
    const me = (await api('GET', '/api/me')).body;
    const managerMade = await api('POST', '/api/keys', { scopes: ['manage'] });
    const manager = client(rt.url, managerMade.body.api_key as string);
    expect(await manager('DELETE', `/api/keys/${me.key_id as string}`)).toMatchObject({ status: 403, body: { code: 'key_scope' } });
    expect((await api('GET', '/api/me')).status).toBe(200);
    const narrow = await manager('POST', '/api/keys', { name: 'narrow' });
    expect((await manager('DELETE', `/api/keys/${narrow.body.id as string}`)).status).toBe(200);
    expect((await manager('DELETE', `/api/keys/${managerMade.body.id as string}`)).status).toBe(200);
    expect((await manager('GET', '/api/keys')).status).toBe(401);
  });
});

import { connectionContext } from '../../shared/app/security/contexts';
import { signInAtNetwork } from '../support/oauth-browser';
import { oauthWorld } from '../support/oauth';
import { startOAuth, completeOAuth, saveOAuthConnection } from '../../shared/app/oauth/flow';
import { freshCredentials, REFRESH_MARGIN_MS } from '../../shared/app/oauth/credentials';
import { findConnectLink } from '../../shared/app/connect-link/issue';
import { connectionHealth } from '../../shared/app/connections';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { usageKeys } from '../../shared/domain/usage';
import type { ServiceEvent } from '../../shared/ports/publishing';
import type { TokenSet } from '../../shared/ports/oauth';
import type { Account } from '../../shared/ports/store';

let w: Awaited<ReturnType<typeof oauthWorld>>;
const events: ServiceEvent[] = [];
beforeAll(async () => {
  w = await oauthWorld();
  const inner = w.deps.events;
  w.deps = w.rebuild({ events: { record: async (e) => { events.push(e); await inner.record(e); }, listForPost: (id) => inner.listForPost(id) } });
});
afterAll(() => w.stop());
beforeEach(() => { w.fake.reset(); events.length = 0; });

/** Connects the fake network as LinkedIn; its access token lives `expiresIn` seconds at the network. */
async function connected(expiresIn = 3600) {
  const acc = await w.newAccount('pro');
  w.fake.expiresIn = expiresIn;
  const { url } = await startOAuth(w.deps, acc, 'linkedin', {});
  const { query, nonce } = await signInAtNetwork(w.deps, url);
  const outcome = await completeOAuth(w.deps, 'linkedin', query, nonce);
  if (outcome.kind !== 'connected') throw new Error(JSON.stringify(outcome));
  w.fake.server.requests.length = 0;
  const connection = (await w.deps.connections.get(acc.id, outcome.brand.id, 'linkedin'))!;
  return { acc, connection };
}
/** Publishes and lets the worker finish its bookkeeping (events and reservations follow the settled result). */
async function post(acc: Account, text: string) {
  const res = await publishPost(w.deps, acc, validatePost({ platform: 'linkedin', text }), { source: 'api', wait: true });
  await w.queue.drain();
  return res;
}
const tokensOf = async (acc: Account, brandId: string) => {
  const c = (await w.deps.connections.get(acc.id, brandId, 'linkedin'))!;
  return JSON.parse(await w.deps.cipher.decrypt(c.tokens_enc!, connectionContext(c, 'tokens'))) as TokenSet;
};

describe('token refresh', () => {
  it('tokens far from expiry are used as they are (no refresh call)', async () => {
    const { connection } = await connected(3600);
    const res = await freshCredentials(w.deps, connection);
    expect(res).toMatchObject({ ok: true, credentials: { access_token: expect.stringMatching(/^at-/), account_id: 'acct-1' } });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(0);
  });

  it('two concurrent workers with an expiring token: one refresh call under the lock; both publish with the new token', async () => {
    const { acc, connection } = await connected(60);
    expect(connection.token_expires_at! - Date.now()).toBeLessThan(REFRESH_MARGIN_MS);
    const before = await tokensOf(acc, connection.brand_id);
    w.fake.refreshDelayMs = 300;
    const [a, b] = await Promise.all([post(acc, 'first of two'), post(acc, 'second of two')]);
    expect([a.results[0], b.results[0]]).toEqual([expect.objectContaining({ ok: true, status: 'published' }), expect.objectContaining({ ok: true, status: 'published' })]);
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    const after = await tokensOf(acc, connection.brand_id);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // both posts went out with the renewed token
    expect(w.fake.postCalls.map((r) => r.headers.authorization)).toEqual([`Bearer ${after.access_token}`, `Bearer ${after.access_token}`]);
    // the lock was released: a later forced renewal takes it again at once
    const stored = (await w.deps.connections.get(acc.id, connection.brand_id, 'linkedin'))!;
    expect(await freshCredentials(w.deps, stored, { force: true })).toMatchObject({ ok: true });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(2);
  });

  it('the same race between two freshCredentials calls directly: one refresh, the loser reads the winner’s tokens', async () => {
    const { acc, connection } = await connected(60);
    w.fake.refreshDelayMs = 400;
    const [x, y] = await Promise.all([freshCredentials(w.deps, connection), freshCredentials(w.deps, connection)]);
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    const stored = await tokensOf(acc, connection.brand_id);
    expect(x).toEqual({ ok: true, credentials: { access_token: stored.access_token, account_id: 'acct-1' } });
    expect(y).toEqual(x);
  });

  it('a 401 on a token that looked valid: refreshed once and the post sent again', async () => {
    const { acc } = await connected(3600);
    w.fake.rejectNextPosts = 1;
    const res = await post(acc, 'after a 401');
    expect(res.results[0]).toMatchObject({ ok: true, status: 'published' });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    expect(w.fake.postCalls).toHaveLength(2);
  });

  it('a 401 on a token that was just renewed renews it again (not the same refused token) and sends once more', async () => {
    const { acc } = await connected(60);
    w.fake.rejectNextPosts = 1;
    const res = await post(acc, 'renewed twice');
    expect(res.results[0]).toMatchObject({ ok: true, status: 'published' });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(2);
    const [first, second] = w.fake.postCalls.map((r) => r.headers.authorization);
    expect(first).not.toBe(second);
  });

  it('a revoked grant: reauth_required, one connection.reauth_required event with a connect link for that brand and network, clear failures', async () => {
    const { acc, connection } = await connected(60);
    w.fake.revoke();
    const [a, b] = await Promise.all([post(acc, 'revoked one'), post(acc, 'revoked two')]);
    for (const r of [a.results[0], b.results[0]]) {
      expect(r).toMatchObject({ ok: false, status: 'failed', code: 'reauth_required', error: expect.stringMatching(/sign-in/), fix: expect.stringContaining('reconnect_url') });
    }
    // the worker that held the refresh lock reports the network's refusal; the other read the marked connection
    expect([a.results[0].error, b.results[0].error].filter((e) => /refused to renew the sign-in: Token has been expired or revoked/.test(e ?? ''))).toHaveLength(1);
    expect(w.fake.postCalls).toHaveLength(0);
    expect((await w.deps.connections.get(acc.id, connection.brand_id, 'linkedin'))!.status).toBe('reauth_required');
    const reauth = events.filter((e) => e.type === 'connection.reauth_required');
    expect(reauth).toHaveLength(1);
    expect(reauth[0].data).toMatchObject({
      platform: 'linkedin', connection_id: connection.id, brand_id: connection.brand_id, label: connection.label,
      account: { platform: 'linkedin', handle: '@fakeuser', brand_id: connection.brand_id, brand: { id: connection.brand_id, name: 'Default' } }, brand: { id: connection.brand_id, name: 'Default' },
      reconnect_url: expect.stringMatching(/^https:\/\/api\.test\/connect\/[A-Za-z0-9_-]{43}$/),
    });
    const link = await findConnectLink(w.deps, String(reauth[0].data.reconnect_url).split('/').pop()!);
    expect(link).toMatchObject({ account_id: acc.id, brand_id: connection.brand_id, platform: 'linkedin' });
    // both posts failed: nothing counted
    expect(await w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()))).toBe(0);

    // later posts fail before sending, with the code and its fix, and no further event
    const later = await post(acc, 'still revoked');
    expect(later.results[0]).toMatchObject({ ok: false, code: 'reauth_required', what: expect.any(String), fix: expect.stringContaining('POST /api/connect-link') });
    expect(events.filter((e) => e.type === 'connection.reauth_required')).toHaveLength(1);

    // signing in again makes the connection active
    const { url } = await startOAuth(w.deps, acc, 'linkedin', {});
    w.fake.reset();
    const { query, nonce } = await signInAtNetwork(w.deps, url);
    expect(await completeOAuth(w.deps, 'linkedin', query, nonce)).toMatchObject({ kind: 'connected' });
    expect((await post(acc, 'reconnected')).results[0]).toMatchObject({ ok: true, status: 'published' });
  });

  it('expired tokens without a refresh token: the sign-in is lost (no refresh call)', async () => {
    const acc = await w.newAccount('pro');
    const brand = (await w.deps.brands.list(acc.id))[0];
    await saveOAuthConnection(w.deps, acc.id, brand, 'linkedin', { access_token: 'at-old', expires_at: w.clock.now() - 1000 }, { id: 'acct-1', handle: '@old', credentials: { account_id: 'acct-1' } });
    const res = await post(acc, 'old token');
    expect(res.results[0]).toMatchObject({ ok: false, code: 'reauth_required' });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(0);
    expect(events.filter((e) => e.type === 'connection.reauth_required').map((e) => e.data.post_id)).toEqual([res.post_id]);
  });

  it('the health check renews tokens too, and reports a revoked grant as reauth_required', async () => {
    const { acc, connection } = await connected(60);
    expect(await connectionHealth(w.deps, acc, 'linkedin')).toMatchObject({ ok: true, status: 'active' });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    w.fake.revoke();
    w.fake.expiresIn = 60;
    const health = await connectionHealth(w.deps, acc, 'linkedin');
    expect(health).toMatchObject({ ok: false, status: 'reauth_required' });
    const reauth = events.filter((e) => e.type === 'connection.reauth_required');
    expect(reauth).toHaveLength(1);
    expect(reauth[0].data.post_id).toBeUndefined();
    expect(reauth[0].data).toMatchObject({ connection_id: connection.id, reconnect_url: expect.stringContaining('/connect/') });
  });
});

import { connectionContext } from '../../shared/app/security/contexts';
import { signInAtNetwork } from '../support/oauth-browser';
import { oauthWorld } from '../support/oauth';
import { ManualClock } from '../support/clock';
import { startOAuth, completeOAuth, saveOAuthConnection } from '../../shared/app/oauth/flow';
import { sweepConnections } from '../../shared/app/oauth/renewal-sweep';
import { RENEW_AHEAD_MS } from '../../shared/app/oauth/health';
import { connectionHealth, listConnections } from '../../shared/app/connections';
import { dispatch } from '../../shared/app/timers/route-timer';
import { SWEEP_SCHEDULES } from '../../infra/sweep-schedules';
import type { ServiceEvent } from '../../shared/ports/publishing';
import type { TokenSet } from '../../shared/ports/oauth';
import type { Account } from '../../shared/ports/store';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let w: Awaited<ReturnType<typeof oauthWorld>>;
let clock: ManualClock;
let testNo = 0;
const events: ServiceEvent[] = [];
beforeAll(async () => {
  w = await oauthWorld();
  const inner = w.deps.events;
  w.deps = w.rebuild({ events: { record: async (e) => { events.push(e); await inner.record(e); }, listForPost: (id) => inner.listForPost(id) } });
});
afterAll(() => w.stop());
beforeEach(() => {
  w.fake.reset(); events.length = 0; w.mailer.sent.length = 0;
  // a manual clock per test, each 100 days before the last: an earlier test's connections are never due in a later sweep
  clock = new ManualClock(Date.UTC(2030, 0, 1) - ++testNo * 100 * DAY);
  w.deps = w.rebuild({ clock });
});

/** Connects the fake network as LinkedIn; its access token lives `expiresIn` seconds. */
async function connected(expiresIn: number) {
  const acc = await w.newAccount('pro');
  w.fake.expiresIn = expiresIn;
  const { url } = await startOAuth(w.deps, acc, 'linkedin', {});
  const { query, nonce } = await signInAtNetwork(w.deps, url);
  const outcome = await completeOAuth(w.deps, 'linkedin', query, nonce);
  if (outcome.kind !== 'connected') throw new Error(JSON.stringify(outcome));
  w.fake.server.requests.length = 0;
  return { acc, brandId: outcome.brand.id, id: outcome.connection.id };
}
const stored = async (acc: Account, brandId: string) => (await w.deps.connections.get(acc.id, brandId, 'linkedin'))!;
const tokensOf = async (acc: Account, brandId: string) => {
  const c = await stored(acc, brandId);
  return JSON.parse(await w.deps.cipher.decrypt(c.tokens_enc!, connectionContext(c, 'tokens'))) as TokenSet;
};
const healthOf = async (acc: Account) => (await listConnections(w.deps, acc.id)).connections[0].health;

describe('the renewal sweep', () => {
  it('is a deployment timer every 15 minutes, routed by the dispatcher', async () => {
    expect(SWEEP_SCHEDULES).toContainEqual({ name: 'connection-renewal-sweep', cron: '*/15 * * * *', timezone: 'UTC', input: { v: 1, kind: 'connection-sweep' } });
    const { acc, brandId } = await connected(2 * 3600);
    clock.advance(HOUR + 60_000);
    await dispatch(w.deps, { kind: 'connection-sweep' });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    expect((await tokensOf(acc, brandId)).expires_at).toBe(clock.now() + 2 * HOUR);
  });

  it('renews a token before it lapses, not before it is due, and keeps the connection healthy', async () => {
    const { acc, brandId, id } = await connected(2 * 3600);
    const before = await tokensOf(acc, brandId);
    await sweepConnections(w.deps);
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(0);
    clock.advance(2 * HOUR - RENEW_AHEAD_MS - 60_000);
    await sweepConnections(w.deps);
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(0);

    clock.advance(2 * 60_000); // now within RENEW_AHEAD_MS of expiry, and no post needed it
    const res = await sweepConnections(w.deps);
    expect(res).toMatchObject({ renewed: 1, failed: 0 });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    const after = await tokensOf(acc, brandId);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.expires_at).toBe(clock.now() + 2 * HOUR);
    const c = await stored(acc, brandId);
    expect(c.id).toBe(id);
    expect(c.token_expires_at).toBe(after.expires_at);
    expect(c.sweep_at).toBe(after.expires_at! - RENEW_AHEAD_MS);
    expect(await healthOf(acc)).toEqual({ state: 'healthy' });
  });

  it('10 concurrent sweeps renew a due token exactly once; every sweep leaves the renewed token in place', async () => {
    const { acc, brandId } = await connected(2 * 3600);
    const before = await tokensOf(acc, brandId);
    w.fake.refreshDelayMs = 200;
    clock.advance(HOUR + 5 * 60_000);
    const runs = await Promise.all(Array.from({ length: 10 }, () => sweepConnections(w.deps)));
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(0);
    const after = await tokensOf(acc, brandId);
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toMatch(/^rt-/);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // the network's one answer is what is stored: its access token works at the network
    const health = await connectionHealth(w.deps, acc, 'linkedin', brandId);
    expect(health).toMatchObject({ ok: true, status: 'active', health: { state: 'healthy' } });
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
  });

  it('a renewal never drops the stored refresh token: a network that sends none keeps the old one working', async () => {
    const { acc, brandId } = await connected(2 * 3600);
    const original = (await tokensOf(acc, brandId)).refresh_token!;
    expect(original).toMatch(/^rt-/);
    w.fake.rotateRefreshTokens = false;
    clock.advance(HOUR + 60_000);
    await sweepConnections(w.deps);
    const first = await tokensOf(acc, brandId);
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    expect(first.refresh_token).toBe(original);
    // and it still renews: the next renewal sends that same refresh token, which the network accepts
    clock.advance(2 * HOUR);
    await sweepConnections(w.deps);
    const calls = w.fake.tokenCalls('refresh_token');
    expect(calls).toHaveLength(2);
    expect(new URLSearchParams(calls[1].text).get('refresh_token')).toBe(original);
    expect((await tokensOf(acc, brandId)).access_token).not.toBe(first.access_token);
    expect((await stored(acc, brandId)).status).toBe('active');
  });

  it('a refresh token the network rotates is replaced by the new one', async () => {
    const { acc, brandId } = await connected(2 * 3600);
    const original = (await tokensOf(acc, brandId)).refresh_token!;
    clock.advance(HOUR + 60_000);
    await sweepConnections(w.deps);
    const next = (await tokensOf(acc, brandId)).refresh_token!;
    expect(next).toMatch(/^rt-/);
    expect(next).not.toBe(original);
  });

  it('a sign-in that cannot be renewed: connection.expiring once (with the date, a connect link and an email), then reauth_required at the lapse', async () => {
    const acc = await w.newAccount('pro');
    const brand = (await w.deps.brands.list(acc.id))[0];
    const lapses = clock.now() + 10 * DAY;
    const saved = await saveOAuthConnection(w.deps, acc.id, brand, 'linkedin', { access_token: 'at-long', expires_at: lapses }, { id: 'acct-1', handle: '@long', credentials: { account_id: 'acct-1' } });
    w.mailer.sent.length = 0;
    expect(await healthOf(acc)).toEqual({ state: 'healthy' });
    await sweepConnections(w.deps);
    expect(events).toHaveLength(0);

    clock.advance(3 * DAY + 60_000); // within the 7-day notice window
    expect(await healthOf(acc)).toEqual({ state: 'expiring', expires_at: new Date(lapses).toISOString() });
    await Promise.all(Array.from({ length: 5 }, () => sweepConnections(w.deps)));
    clock.advance(HOUR);
    await sweepConnections(w.deps);
    const expiring = events.filter((e) => e.type === 'connection.expiring');
    expect(expiring).toHaveLength(1);
    expect(expiring[0].data).toMatchObject({
      connection_id: saved.id, platform: 'linkedin', expires_at: new Date(lapses).toISOString(), brand_id: brand.id,
      reconnect_url: expect.stringContaining('/connect/'),
    });
    expect(w.mailer.sent).toHaveLength(1);
    expect(w.mailer.sent[0]).toMatchObject({ to: acc.email, links: [expiring[0].data.reconnect_url] });
    expect(w.mailer.sent[0].subject).toContain(new Date(lapses).toISOString().slice(0, 10));
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(0);

    clock.ms = lapses + 60_000;
    await sweepConnections(w.deps);
    await sweepConnections(w.deps);
    expect(events.filter((e) => e.type === 'connection.expiring')).toHaveLength(1);
    const reauth = events.filter((e) => e.type === 'connection.reauth_required');
    expect(reauth).toHaveLength(1);
    expect(reauth[0].data).toMatchObject({ connection_id: saved.id, reconnect_url: expect.stringContaining('/connect/') });
    expect(w.mailer.sent).toHaveLength(2);
    expect(w.mailer.sent[1]).toMatchObject({ to: acc.email, links: [reauth[0].data.reconnect_url] });
    expect(await healthOf(acc)).toEqual({ state: 'reauth_required' });
    // out of the sweep's index: nothing more to do until someone signs in again
    expect((await stored(acc, brand.id)).sweep_at).toBeUndefined();
  });

  it('a network that cannot be reached to renew: network_down (since when, what it said) until a renewal succeeds', async () => {
    const { acc, brandId } = await connected(2 * 3600);
    const provider = w.deps.oauth.providers.linkedin!;
    w.deps.oauth.providers.linkedin = { ...provider, refresh: async () => ({ ok: false, kind: 'transient', error: 'token endpoint answered 503' }) };
    try {
      clock.advance(HOUR + 60_000);
      const downAt = new Date(clock.now()).toISOString();
      await sweepConnections(w.deps);
      expect(await healthOf(acc)).toEqual({ state: 'network_down', since: downAt, error: 'token endpoint answered 503' });
      expect((await stored(acc, brandId)).status).toBe('active');
      clock.advance(15 * 60_000);
      await sweepConnections(w.deps);
      expect((await healthOf(acc))?.since).toBe(downAt);
    } finally {
      w.deps.oauth.providers.linkedin = provider;
    }
    clock.advance(15 * 60_000);
    await sweepConnections(w.deps);
    expect(w.fake.tokenCalls('refresh_token')).toHaveLength(1);
    expect(await healthOf(acc)).toEqual({ state: 'healthy' });
  });

  it('GET /api/connect/{platform}/health reports a network it cannot reach as network_down, and healthy again once it answers', async () => {
    const { acc, brandId } = await connected(2 * 3600);
    const adapter = w.deps.networks.linkedin!;
    w.deps.networks.linkedin = { ...adapter, verify: async () => ({ ok: false, kind: 'transient', error: 'me answered 502' }) };
    try {
      const down = await connectionHealth(w.deps, acc, 'linkedin', brandId);
      expect(down).toMatchObject({ ok: false, code: 'network_unavailable', health: { state: 'network_down', error: 'me answered 502' } });
      expect((await healthOf(acc))?.state).toBe('network_down');
    } finally {
      w.deps.networks.linkedin = adapter;
    }
    expect(await connectionHealth(w.deps, acc, 'linkedin', brandId)).toMatchObject({ ok: true, health: { state: 'healthy' } });
    expect(await healthOf(acc)).toEqual({ state: 'healthy' });
  });
});

describe('reconnect in place', () => {
  it('signing in again to the same network account keeps the connection id and replaces its tokens; another account gets a new id', async () => {
    const { acc, brandId, id } = await connected(3600);
    const first = await tokensOf(acc, brandId);
    const again = async () => {
      const { url } = await startOAuth(w.deps, acc, 'linkedin', {});
      const { query, nonce } = await signInAtNetwork(w.deps, url);
      return completeOAuth(w.deps, 'linkedin', query, nonce);
    };
    expect(await again()).toMatchObject({ kind: 'connected', connection: { id } });
    const list = await w.deps.connections.listByAccount(acc.id);
    expect(list.map((c) => c.id)).toEqual([id]);
    const second = await tokensOf(acc, brandId);
    expect(second.access_token).not.toBe(first.access_token);

    w.fake.accounts = [{ id: 'acct-2', handle: '@other' }];
    const other = await again();
    expect(other).toMatchObject({ kind: 'connected', connection: { handle: '@other' } });
    expect(other.kind === 'connected' && other.connection.id).not.toBe(id);
    expect(await w.deps.connections.listByAccount(acc.id)).toHaveLength(1);
  });

  it('a reconnect whose sign-in brings no refresh token keeps the stored one', async () => {
    const { acc, brandId, id } = await connected(3600);
    const brand = (await w.deps.brands.list(acc.id)).find((b) => b.id === brandId)!;
    const original = (await tokensOf(acc, brandId)).refresh_token!;
    const saved = await saveOAuthConnection(w.deps, acc.id, brand, 'linkedin', { access_token: 'at-fresh', expires_at: clock.now() + HOUR }, { id: 'acct-1', handle: '@fakeuser', credentials: { account_id: 'acct-1' } });
    expect(saved.id).toBe(id);
    expect(await tokensOf(acc, brandId)).toMatchObject({ access_token: 'at-fresh', refresh_token: original });
  });
});

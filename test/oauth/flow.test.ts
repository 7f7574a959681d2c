import { connectionContext } from '../../shared/app/security/contexts';
import { signInAtNetwork } from '../support/oauth-browser';
import { setRedirectOrigins } from '../../shared/app/security/redirects';
import { oauthWorld } from '../support/oauth';
import { callOver, sampleEvent } from '../support/invoke';
import { startOAuth, completeOAuth, completePick } from '../../shared/app/oauth/flow';
import { challengeOf, STATE_TTL_SECONDS } from '../../shared/app/oauth/state';
import { callbackReply } from '../../shared/http/pages/oauth-result';
import { createBrand } from '../../shared/app/brands';
import { createApiKey } from '../../shared/app/api-keys';
import { staticClients } from '../support/oauth';
import { handler as getConnections } from '../../functions/http/get-connections';
import { handler as postOauthUrl } from '../../functions/http/post-oauth-url';
import { handler as getCallback } from '../../functions/http/get-oauth-callback';
import type { TokenSet } from '../../shared/ports/oauth';
import type { Account } from '../../shared/ports/store';
import type { PlatformName } from '../../shared/domain/platforms';

const call = callOver(() => w.deps);

let w: Awaited<ReturnType<typeof oauthWorld>>;
beforeAll(async () => { w = await oauthWorld(); });
afterAll(async () => { await w.stop(); });
beforeEach(() => w.fake.reset());

/** What the browser does at the network: opens the authorize URL, which redirects back to our callback. */
async function authorize(url: string) {
  const at = await signInAtNetwork(w.deps, url);
  expect(at.status).toBe(302);
  return at;
}

async function signIn(account: Account, platform: PlatformName, input: { brand_id?: string; redirect_after?: string } = {}) {
  const { url } = await startOAuth(w.deps, account, platform, input);
  const { query, nonce } = await authorize(url);
  return { url, query, nonce, outcome: await completeOAuth(w.deps, platform, query, nonce) };
}

describe('POST /api/oauth/{platform}/url', () => {
  it('answers the network authorize URL with a state, the callback as redirect_uri, and PKCE only where the network takes it', async () => {
    const acc = await w.newAccount();
    const started = await startOAuth(w.deps, acc, 'linkedin', {});
    expect(started.url).toMatch(/^https:\/\/api\.test\/api\/oauth\/linkedin\/callback\?start=[A-Za-z0-9_-]{43}$/);
    const li = new URL((await authorize(started.url)).authorizeUrl);
    expect(li.origin + li.pathname).toBe(`${w.fake.url}/oauth/authorize`);
    expect(li.searchParams.get('redirect_uri')).toBe('https://api.test/api/oauth/linkedin/callback');
    expect(li.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(li.searchParams.get('code_challenge')).toBeNull();
    const x = new URL((await authorize((await startOAuth(w.deps, acc, 'x', {})).url)).authorizeUrl);
    expect(x.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(x.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('refuses credential and unknown networks with 400, and a network without a client with 503 oauth_not_configured', async () => {
    const acc = await w.newAccount();
    await expect(startOAuth(w.deps, acc, 'telegram', {})).rejects.toMatchObject({ status: 400, code: 'not_oauth_platform' });
    await expect(startOAuth(w.deps, acc, 'myspace', {})).rejects.toMatchObject({ status: 400, code: 'not_oauth_platform' });
    await expect(startOAuth(w.deps, acc, 'tiktok', {})).rejects.toMatchObject({ status: 503, code: 'oauth_not_configured', message: expect.stringContaining('TIKTOK_CLIENT_ID') });
    const saved = w.deps.oauth.clients;
    w.deps.oauth.clients = staticClients({});
    await expect(startOAuth(w.deps, acc, 'linkedin', {})).rejects.toMatchObject({ status: 503, code: 'oauth_not_configured' });
    w.deps.oauth.clients = saved;
    await expect(startOAuth(w.deps, acc, 'linkedin', { redirect_after: 'javascript:alert(1)' })).rejects.toMatchObject({ status: 400, code: 'invalid_redirect' });
  });

  it('through the route: key auth, path platform, JSON errors', async () => {
    const acc = await w.newAccount();
    const { api_key } = await createApiKey(w.deps, acc.id, { name: 'oauth' });
    const event = (platform: string, body?: unknown) => sampleEvent('http/post-brands.json', {
      rawPath: `/api/oauth/${platform}/url`, routeKey: 'POST /api/oauth/{platform}/url', pathParameters: { platform },
      body: body === undefined ? undefined : JSON.stringify(body), headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
    });
    const ok = await call(postOauthUrl, event('x'));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ platform: 'x', brand_id: expect.stringMatching(/^brd_/), expires_in: STATE_TTL_SECONDS, url: expect.stringContaining('/api/oauth/x/callback?start=') });
    expect((await call(postOauthUrl, event('discord', {}))).body).toMatchObject({ code: 'not_oauth_platform' });
    expect((await call(postOauthUrl, event('youtube', {}))).status).toBe(503);
  });
});

describe('the callback', () => {
  it('exchanges the code, stores the tokens encrypted, and the connection appears in GET /api/connections', async () => {
    const acc = await w.newAccount();
    const { outcome } = await signIn(acc, 'linkedin');
    expect(outcome).toMatchObject({ kind: 'connected', platform: 'linkedin', connection: { platform: 'linkedin', handle: '@fakeuser', status: 'active' } });
    const stored = (await w.deps.connections.listByAccount(acc.id)).find((c) => c.platform === 'linkedin')!;
    const issued = w.fake.tokenCalls('authorization_code');
    expect(issued).toHaveLength(1);
    // encrypted at rest: the test cipher's envelope, and no token in the clear anywhere on the item
    expect(stored.tokens_enc).toMatch(/^test:/);
    const item = JSON.stringify(stored);
    const tokens = JSON.parse(await w.deps.cipher.decrypt(stored.tokens_enc!, connectionContext(stored, 'tokens'))) as TokenSet;
    expect(tokens.access_token).toMatch(/^at-/);
    expect(tokens.refresh_token).toMatch(/^rt-/);
    expect(item).not.toContain(tokens.access_token);
    expect(item).not.toContain(tokens.refresh_token);
    expect(stored.token_expires_at).toBe(tokens.expires_at);
    expect(JSON.parse(await w.deps.cipher.decrypt(stored.credentials_enc, connectionContext(stored, 'credentials')))).toEqual({ account_id: 'acct-1' });

    const { api_key } = await createApiKey(w.deps, acc.id, { name: 'list' });
    const listed = await call(getConnections, sampleEvent('http/get-me.json', { rawPath: '/api/connections', headers: { authorization: `Bearer ${api_key}` } }));
    expect(listed.status).toBe(200);
    expect(listed.body.connections).toEqual([expect.objectContaining({ platform: 'linkedin', handle: '@fakeuser', status: 'active', brand_id: expect.stringMatching(/^brd_/) })]);
    expect(listed.raw).not.toContain(tokens.access_token);
  });

  it('a tampered state is rejected and nothing is exchanged', async () => {
    const acc = await w.newAccount();
    const { url } = await startOAuth(w.deps, acc, 'linkedin', {});
    const { query } = await authorize(url);
    const flipped = query.state.slice(0, -1) + (query.state.endsWith('A') ? 'B' : 'A');
    for (const state of [flipped, query.state + 'x', '', 'made-up']) {
      expect(await completeOAuth(w.deps, 'linkedin', { ...query, state })).toMatchObject({ kind: 'failed', status: 400, code: 'oauth_state_invalid' });
    }
    expect(await completeOAuth(w.deps, 'linkedin', { code: query.code })).toMatchObject({ kind: 'failed', code: 'oauth_state_invalid' });
    expect(w.fake.tokenCalls('authorization_code')).toHaveLength(0);
    expect(await w.deps.connections.listByAccount(acc.id)).toEqual([]);
  });

  it('a replayed state is rejected: the second callback with the same state and code exchanges nothing', async () => {
    const acc = await w.newAccount();
    const { query, outcome } = await signIn(acc, 'linkedin');
    expect(outcome.kind).toBe('connected');
    expect(await completeOAuth(w.deps, 'linkedin', query)).toMatchObject({ kind: 'failed', status: 400, code: 'oauth_state_used' });
    expect(w.fake.tokenCalls('authorization_code')).toHaveLength(1);
  });

  it('an expired state is rejected with 410; a state of another network is refused', async () => {
    const acc = await w.newAccount();
    const { url } = await startOAuth(w.deps, acc, 'linkedin', {});
    const { query } = await authorize(url);
    w.clock.advance((STATE_TTL_SECONDS + 1) * 1000);
    expect(await completeOAuth(w.deps, 'linkedin', query)).toMatchObject({ kind: 'failed', status: 410, code: 'oauth_state_expired' });
    const other = await authorize((await startOAuth(w.deps, acc, 'linkedin', {})).url);
    expect(await completeOAuth(w.deps, 'facebook', other.query)).toMatchObject({ kind: 'failed', code: 'oauth_state_invalid' });
    expect(w.fake.tokenCalls('authorization_code')).toHaveLength(0);
  });

  it('PKCE: the verifier sent with the code is the one bound to that state, and a code cannot be redeemed with another state', async () => {
    const acc = await w.newAccount('starter');
    const a = await startOAuth(w.deps, acc, 'x', {});
    const b = await startOAuth(w.deps, acc, 'x', {});
    const backA = await authorize(a.url);
    const backB = await authorize(b.url);
    const challengeA = new URL(backA.authorizeUrl).searchParams.get('code_challenge')!;
    const challengeB = new URL(backB.authorizeUrl).searchParams.get('code_challenge')!;
    expect(challengeA).not.toBe(challengeB);

    // A's code presented with B's state (in B's browser): B's verifier goes with it and the network refuses the exchange
    const crossed = await completeOAuth(w.deps, 'x', { code: backA.query.code, state: backB.query.state }, backB.nonce);
    expect(crossed).toMatchObject({ kind: 'failed', status: 502, code: 'oauth_exchange_failed', message: expect.stringContaining('code_verifier does not match') });
    const sentB = new URLSearchParams(w.fake.tokenCalls('authorization_code')[0].text).get('code_verifier')!;
    expect(challengeOf(sentB)).toBe(challengeB);

    // a code is only good with the verifier of its own state
    const c = await startOAuth(w.deps, acc, 'x', {});
    const backC = await authorize(c.url);
    const challengeC = new URL(backC.authorizeUrl).searchParams.get('code_challenge')!;
    expect(await completeOAuth(w.deps, 'x', backC.query, backC.nonce)).toMatchObject({ kind: 'connected', platform: 'x' });
    const sentC = new URLSearchParams(w.fake.tokenCalls('authorization_code')[1].text).get('code_verifier')!;
    expect(sentC).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challengeOf(sentC)).toBe(challengeC);
    // the verifier never travels in the authorize URL
    expect(backC.authorizeUrl).not.toContain(sentC);
    expect(c.url).not.toContain(sentC);
  });

  it('the network refusing access ends with oauth_denied and saves nothing', async () => {
    const acc = await w.newAccount();
    w.fake.deny = true;
    const { outcome } = await signIn(acc, 'linkedin');
    expect(outcome).toMatchObject({ kind: 'failed', code: 'oauth_denied', message: expect.stringContaining('denied') });
    expect(await w.deps.connections.listByAccount(acc.id)).toEqual([]);
  });

  it('saves into the brand named at the start, and redirects to redirect_after with the outcome', async () => {
    const acc = await w.newAccount('pro');
    const brand = await createBrand(w.deps, acc, 'Client B');
    await setRedirectOrigins(w.deps, acc, ['https://app.example']);
    const registered = (await w.deps.accounts.get(acc.id))!;
    const { outcome } = await signIn(registered, 'linkedin', { brand_id: brand.id, redirect_after: 'https://app.example/done?x=1' });
    expect(outcome).toMatchObject({ kind: 'connected', brand: { id: brand.id, name: 'Client B' } });
    const reply = callbackReply(w.deps, outcome);
    expect(reply.status).toBe(303);
    const to = new URL(reply.headers!.location);
    expect(Object.fromEntries(to.searchParams)).toEqual({ x: '1', platform: 'linkedin', status: 'connected', connection_id: expect.stringMatching(/^con_/), brand_id: brand.id });
    const conns = await w.deps.connections.listByAccount(acc.id);
    expect(conns.map((c) => [c.platform, c.brand_id, c.label])).toEqual([['linkedin', brand.id, 'Client B · @fakeuser (linkedin)']]);
    await expect(startOAuth(w.deps, acc, 'linkedin', {})).rejects.toMatchObject({ code: 'brand_required' });
  });

  it('the callback route answers HTML pages, without leaking the code or tokens', async () => {
    const acc = await w.newAccount();
    const { url } = await startOAuth(w.deps, acc, 'linkedin', {});
    const { query, nonce } = await authorize(url);
    const event = (q: Record<string, string>) => sampleEvent('http/get-platforms.json', {
      rawPath: '/api/oauth/linkedin/callback', routeKey: 'GET /api/oauth/{platform}/callback', pathParameters: { platform: 'linkedin' }, queryStringParameters: q,
      cookies: [`svc_oauth_linkedin=${nonce}`],
    });
    const ok = await call(getCallback, event(query));
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/text\/html/);
    expect(ok.headers['referrer-policy']).toBe('no-referrer');
    expect(ok.raw).toContain('LinkedIn is connected');
    expect(ok.raw).toContain('@fakeuser');
    expect(ok.raw).not.toContain(query.code);
    const again = await call(getCallback, event(query));
    expect(again.status).toBe(400);
    expect(again.raw).toContain('oauth_state_used');
  });
});

describe('the page / business account picker', () => {
  it('several accounts: the person picks one; the pick works once and only for a listed account', async () => {
    const acc = await w.newAccount();
    w.fake.accounts = [{ id: 'page-1', handle: 'Acme Bakery' }, { id: 'page-2', handle: 'Acme <Cafe>' }];
    const { outcome } = await signIn(acc, 'facebook');
    expect(outcome).toMatchObject({ kind: 'pick', platform: 'facebook', accounts: [{ id: 'page-1', handle: 'Acme Bakery' }, { id: 'page-2', handle: 'Acme <Cafe>' }] });
    if (outcome.kind !== 'pick') throw new Error('expected the picker');
    expect(await w.deps.connections.listByAccount(acc.id)).toEqual([]);

    const page = callbackReply(w.deps, outcome);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Choose the Facebook Page to connect');
    expect(page.html).toContain('Acme &lt;Cafe&gt;');
    expect(page.html).toContain(`name="pick" value="${outcome.pick}"`);
    expect(page.html).toContain('action="https://api.test/api/oauth/facebook/pick"');

    expect(await completePick(w.deps, 'facebook', { pick: outcome.pick + 'x', account: 'page-2' })).toMatchObject({ kind: 'failed', code: 'oauth_pick_invalid' });
    const picked = await completePick(w.deps, 'facebook', { pick: outcome.pick, account: 'page-2' });
    expect(picked).toMatchObject({ kind: 'connected', connection: { platform: 'facebook', handle: 'Acme <Cafe>' } });
    const stored = (await w.deps.connections.listByAccount(acc.id))[0];
    expect(JSON.parse(await w.deps.cipher.decrypt(stored.credentials_enc, connectionContext(stored, 'credentials')))).toEqual({ account_id: 'page-2' });
    expect(await completePick(w.deps, 'facebook', { pick: outcome.pick, account: 'page-1' })).toMatchObject({ kind: 'failed', code: 'oauth_pick_used' });
    expect((await w.deps.connections.listByAccount(acc.id)).map((c) => c.handle)).toEqual(['Acme <Cafe>']);
  });

  it('an account that was not listed is refused; an unused pick expires', async () => {
    const acc = await w.newAccount();
    w.fake.accounts = [{ id: 'ig-1', handle: '@one' }, { id: 'ig-2', handle: '@two' }];
    const first = await signIn(acc, 'facebook');
    if (first.outcome.kind !== 'pick') throw new Error('expected the picker');
    expect(await completePick(w.deps, 'facebook', { pick: first.outcome.pick, account: 'ig-999' })).toMatchObject({ kind: 'failed', code: 'oauth_pick_invalid' });
    const second = await signIn(acc, 'facebook');
    if (second.outcome.kind !== 'pick') throw new Error('expected the picker');
    w.clock.advance((STATE_TTL_SECONDS + 1) * 1000);
    expect(await completePick(w.deps, 'facebook', { pick: second.outcome.pick, account: 'ig-1' })).toMatchObject({ kind: 'failed', status: 410, code: 'oauth_pick_expired' });
    expect(await w.deps.connections.listByAccount(acc.id)).toEqual([]);
  });
});

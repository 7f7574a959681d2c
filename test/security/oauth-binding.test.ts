import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { oauthWorld } from '../support/oauth';
import { callOver, sampleEvent } from '../support/invoke';
import { createApiKey } from '../../shared/app/api-keys';
import { handler as postOauthUrl } from '../../functions/http/post-oauth-url';
import { handler as getCallback } from '../../functions/http/get-oauth-callback';
import { handler as patchMe } from '../../functions/http/patch-me';
import { handler as getMe } from '../../functions/http/get-me';

const call = callOver(() => w.deps);

let w: Awaited<ReturnType<typeof oauthWorld>>;
beforeAll(async () => { w = await oauthWorld(); });
afterAll(async () => { await w.stop(); });
beforeEach(() => w.fake.reset());

let ip = 0;
function ev(method: string, routeKey: string, path: string, o: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; key?: string; cookies?: string[] } = {}): APIGatewayProxyEventV2 {
  const base = sampleEvent('http/get-platforms.json');
  return {
    ...base, rawPath: path, routeKey: `${method} ${routeKey}`, pathParameters: o.params, queryStringParameters: o.query, cookies: o.cookies,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    headers: { ...base.headers, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(o.key ? { authorization: `Bearer ${o.key}` } : {}) },
    requestContext: { ...base.requestContext, http: { ...base.requestContext.http, method, path, sourceIp: `198.18.0.${++ip % 250}` } },
  };
}
const keyOf = async (scopes?: Array<'publish' | 'read' | 'manage'>) => {
  const acc = await w.newAccount();
  return { acc, key: (await createApiKey(w.deps, acc.id, { name: 't', scopes })).api_key };
};
const signInUrl = (key: string, body: Record<string, unknown> = {}) =>
  call(postOauthUrl, ev('POST', '/api/oauth/{platform}/url', '/api/oauth/linkedin/url', { params: { platform: 'linkedin' }, body, key }));
const open = (startUrl: string) => {
  const u = new URL(startUrl);
  return call(getCallback, ev('GET', '/api/oauth/{platform}/callback', u.pathname, { params: { platform: 'linkedin' }, query: { start: u.searchParams.get('start')! } }));
};
const atNetwork = async (authorizeUrl: string) =>
  Object.fromEntries(new URL((await fetch(authorizeUrl, { redirect: 'manual' })).headers.get('location')!).searchParams) as Record<string, string>;
const callback = (query: Record<string, string>, cookies?: string[]) =>
  call(getCallback, ev('GET', '/api/oauth/{platform}/callback', '/api/oauth/linkedin/callback', { params: { platform: 'linkedin' }, query, cookies }));

describe('OAuth sign-ins are bound to the browser that started them', () => {
  it('the sign-in URL sets a short-lived HttpOnly nonce cookie once, then sends the browser to the network', async () => {
    const { key } = await keyOf();
    const url = (await signInUrl(key)).body.url as string;
    expect(url).toMatch(/^https:\/\/api\.test\/api\/oauth\/linkedin\/callback\?start=/);
    const started = await open(url);
    expect(started.status).toBe(303);
    expect(started.headers.location).toMatch(new RegExp(`^${w.fake.url}/oauth/authorize\\?`));
    expect(started.cookies).toEqual([expect.stringMatching(/^svc_oauth_linkedin=[A-Za-z0-9_-]{43}; Path=\/api\/oauth\/; Max-Age=900; HttpOnly; SameSite=Lax; Secure$/)]);
    // a leaked link cannot be opened in a second browser
    const again = await open(url);
    expect(again.status).toBe(400);
    expect(again.raw).toContain('oauth_state_used');
    expect(again.cookies).toEqual([]);
  });

  it("an authorization code with the victim's state, from a browser without the victim's cookie, connects nothing", async () => {
    const victim = await keyOf();
    const attacker = await keyOf();
    const attackerStarted = await open((await signInUrl(attacker.key)).body.url as string);
    for (const cookies of [undefined, [attackerStarted.cookies[0].split(';')[0]], ['svc_oauth_linkedin=forged']]) {
      const started = await open((await signInUrl(victim.key)).body.url as string);
      // the attacker signs in at the network with their own account and delivers the code with the victim's state
      const query = await atNetwork(started.headers.location);
      const res = await callback(query, cookies);
      expect(res.status).toBe(400);
      expect(res.raw).toContain('oauth_browser_mismatch');
      // the state was used up by the refused attempt: even the right browser has to start again
      expect((await callback(query, [started.cookies[0].split(';')[0]])).raw).toContain('oauth_state_used');
    }
    expect(w.fake.tokenCalls('authorization_code')).toHaveLength(0);
    expect(await w.deps.connections.listByAccount(victim.acc.id)).toEqual([]);
  });

  it('the browser that started it completes it, and the cookie is cleared', async () => {
    const { acc, key } = await keyOf();
    const started = await open((await signInUrl(key)).body.url as string);
    const res = await callback(await atNetwork(started.headers.location), [started.cookies[0].split(';')[0]]);
    expect(res.status).toBe(200);
    expect(res.raw).toContain('LinkedIn is connected');
    expect(res.cookies).toEqual([expect.stringMatching(/^svc_oauth_linkedin=; Path=\/api\/oauth\/; Max-Age=0; HttpOnly/)]);
    expect((await w.deps.connections.listByAccount(acc.id)).map((c) => c.platform)).toEqual(['linkedin']);
  });
});

describe('redirect_after only leads to registered origins (no open redirect)', () => {
  it('refuses any origin the account did not register, and accepts registered https origins and the service itself', async () => {
    const { key } = await keyOf();
    for (const redirect_after of ['https://evil.example/x', 'http://app.example/done', 'https://app.example.evil.test/', 'javascript:alert(1)', '//evil.example']) {
      expect(await signInUrl(key, { redirect_after })).toMatchObject({ status: 400, body: { code: 'invalid_redirect' } });
    }
    expect((await signInUrl(key, { redirect_after: 'https://api.test/after' })).status).toBe(200);

    const me = (body: unknown, k = key) => call(patchMe, ev('PATCH', '/api/me', '/api/me', { body, key: k }));
    expect(await me({ redirect_origins: ['https://app.example', 'https://app.example/', 'https://other.example:8443'] })).toMatchObject({
      status: 200, body: { redirect_origins: ['https://app.example', 'https://other.example:8443'] },
    });
    expect((await call(getMe, ev('GET', '/api/me', '/api/me', { key }))).body).toMatchObject({ redirect_origins: ['https://app.example', 'https://other.example:8443'] });
    expect((await signInUrl(key, { redirect_after: 'https://app.example/done?x=1' })).status).toBe(200);
    expect((await signInUrl(key, { redirect_after: 'https://other.example:8443/' })).status).toBe(200);
    expect(await signInUrl(key, { redirect_after: 'https://other.example/' })).toMatchObject({ status: 400, body: { code: 'invalid_redirect' } });

    for (const bad of ['http://app.example', 'https://app.example/path', 'https://u:p@app.example', 'not a url']) {
      expect(await me({ redirect_origins: [bad] })).toMatchObject({ status: 400, body: { code: 'invalid_redirect_origin' } });
    }
    expect(await me({ redirect_origins: [], extra: 1 })).toMatchObject({ status: 400 });
    const reader = (await createApiKey(w.deps, ((await call(getMe, ev('GET', '/api/me', '/api/me', { key }))).body.account as { id: string }).id, { scopes: ['read'] })).api_key;
    expect(await me({ redirect_origins: [] }, reader)).toMatchObject({ status: 403, body: { code: 'key_scope', scope: 'manage' } });
  });
});

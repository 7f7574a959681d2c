import { createHash, randomBytes } from 'node:crypto';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { signInThroughOutbox, type DashboardSession } from '../support/dashboard';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * The MCP OAuth authorization server holds its grants (RFC 9700): nothing is redirected to an app before the owner
 * consented, client URIs are https, replays revoke the grant, revoking a refresh token revokes its access tokens,
 * and an app allowed again keeps its guardrails. Black-box through the local runtime (the redirect URI is a loopback
 * address that is never contacted: the tests read the Location header).
 */
let rt: LocalRuntime;
beforeAll(async () => { rt = await startRuntime({ DISABLE_RATE_LIMITS: '1' }); }, 60_000);
afterAll(() => rt?.stop());

const REDIRECT = 'http://127.0.0.1:9/cb';
const form = (f: Record<string, string>) => ({ method: 'POST', redirect: 'manual' as const, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(f).toString() });
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

async function register(meta: Record<string, unknown>) {
  const res = await fetch(`${rt.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(meta) });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

const mcp = (token: string, body: unknown) => fetch(`${rt.url}/api/mcp`, {
  method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify(body),
});
const toolsList = (token: string) => mcp(token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });

/** Allows the app on the consent page and exchanges the code: the tokens and the code. */
async function signIn(s: DashboardSession, clientId: string) {
  const { verifier, challenge } = pkce();
  const q = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 'st', resource: `${rt.url}/api/mcp` };
  expect((await s.get(`/dashboard/apps/authorize?${new URLSearchParams(q)}`)).status).toBe(200);
  const allowed = await s.post('/dashboard/apps/authorize', { ...q, decision: 'allow' });
  expect(allowed.status).toBe(303);
  const code = new URL(allowed.headers.get('location')!).searchParams.get('code')!;
  const exchange = () => fetch(`${rt.url}/oauth/token`, form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT }));
  const res = await exchange();
  expect(res.status).toBe(200);
  return { tokens: await res.json() as { access_token: string; refresh_token: string }, exchange };
}

const refresh = (clientId: string, token: string) => fetch(`${rt.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }));

describe('the authorize endpoint never redirects before consent', () => {
  it('each bad parameter of an open-registered client is answered with a page, not a 303 to its redirect URI', async () => {
    await signupThroughApi(rt.url, 'authz-page@example.com');
    const s = await signInThroughOutbox(rt.url, 'authz-page@example.com');
    const evil = await register({ client_name: 'Evil', redirect_uris: ['https://evil.example/cb'] });
    expect(evil.status).toBe(201);
    const { challenge } = pkce();
    const good = { response_type: 'code', client_id: evil.body.client_id as string, redirect_uri: 'https://evil.example/cb', code_challenge: challenge, code_challenge_method: 'S256', state: 'x' };
    for (const [bad, error] of [
      [{ response_type: 'token' }, 'unsupported_response_type'], [{ code_challenge_method: 'plain' }, 'invalid_request'], [{ code_challenge: 'short' }, 'invalid_request'],
      [{ scope: 'admin' }, 'invalid_scope'], [{ resource: 'https://other.example/mcp' }, 'invalid_target'],
    ] as const) {
      const res = await s.get(`/dashboard/apps/authorize?${new URLSearchParams({ ...good, ...bad })}`);
      expect([error, res.status, res.headers.get('location')]).toEqual([error, 400, null]);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain(error);
    }
    // the consent form posted with a bad parameter is a page too
    const posted = await s.post('/dashboard/apps/authorize', { ...good, response_type: 'token', decision: 'allow' });
    expect([posted.status, posted.headers.get('location')]).toEqual([400, null]);
  });

  it('client_uri and logo_uri must be https', async () => {
    expect(await register({ redirect_uris: [REDIRECT], client_uri: 'http://agent.example' })).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    expect(await register({ redirect_uris: [REDIRECT], logo_uri: 'http://agent.example/logo.png' })).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    expect(await register({ redirect_uris: [REDIRECT], client_uri: 'javascript:alert(1)' })).toMatchObject({ status: 400 });
    expect((await register({ redirect_uris: [REDIRECT], client_uri: 'https://agent.example', logo_uri: 'https://agent.example/logo.png' })).status).toBe(201);
  });
});

describe('replays revoke the grant', () => {
  let s: DashboardSession;
  let clientId: string;
  beforeAll(async () => {
    await signupThroughApi(rt.url, 'grants@example.com', 'starter');
    s = await signInThroughOutbox(rt.url, 'grants@example.com');
    clientId = (await register({ client_name: 'Grant Agent', redirect_uris: [REDIRECT] })).body.client_id as string;
  });

  it('a rotated refresh token used again revokes the whole grant, the newest access token included', async () => {
    const { tokens } = await signIn(s, clientId);
    const rotated = await refresh(clientId, tokens.refresh_token);
    expect(rotated.status).toBe(200);
    const next = await rotated.json() as { access_token: string; refresh_token: string };
    expect((await toolsList(next.access_token)).status).toBe(200);
    const replay = await refresh(clientId, tokens.refresh_token);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await toolsList(next.access_token)).status).toBe(401);
    expect((await toolsList(tokens.access_token)).status).toBe(401);
    expect((await refresh(clientId, next.refresh_token)).status).toBe(400);
  });

  it('a code redeemed twice revokes what its first redemption issued', async () => {
    const { tokens, exchange } = await signIn(s, clientId);
    expect((await toolsList(tokens.access_token)).status).toBe(200);
    const again = await exchange();
    expect(again.status).toBe(400);
    expect((await toolsList(tokens.access_token)).status).toBe(401);
    expect((await refresh(clientId, tokens.refresh_token)).status).toBe(400);
  });

  it('revoking a refresh token revokes its access tokens', async () => {
    const { tokens } = await signIn(s, clientId);
    expect((await fetch(`${rt.url}/oauth/revoke`, form({ token: tokens.refresh_token, client_id: clientId }))).status).toBe(200);
    expect((await toolsList(tokens.access_token)).status).toBe(401);
    // another grant of the same app is untouched
    const other = await signIn(s, clientId);
    expect((await toolsList(other.tokens.access_token)).status).toBe(200);
  });
});

describe('an AI app keeps its limits', () => {
  it('an app limited to brand A cannot create a connect link for brand B, and allowed again after a revoke it keeps that limit', async () => {
    const key = await signupThroughApi(rt.url, 'app-brands@example.com', 'starter');
    const api = client(rt.url, key);
    const s = await signInThroughOutbox(rt.url, 'app-brands@example.com');
    const a = ((await api('GET', '/api/brands')).body.brands as Array<{ id: string }>)[0].id;
    const b = ((await api('POST', '/api/brands', { name: 'Brand B' })).body.brand as { id: string }).id;
    const clientId = (await register({ client_name: 'Brand Agent', redirect_uris: [REDIRECT] })).body.client_id as string;
    const first = await signIn(s, clientId);
    const accountId = ((await api('GET', '/api/me')).body.account as { id: string }).id;
    expect(accountId).toBeDefined();
    const appId = () => fetch(`${rt.url}/dashboard/apps`, { headers: { cookie: s.cookie } }).then((r) => r.text()).then((html) => [...html.matchAll(/\/dashboard\/apps\/(app_[A-Za-z0-9_]+)\/revoke/g)].map((m) => m[1]));
    const [app] = await appId();
    const put = await fetch(`${rt.url}/api/guardrails/app/${app}`, { method: 'PUT', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' }, body: JSON.stringify({ allowed_brands: [a] }) });
    expect(put.status).toBe(200);

    const call = async (token: string, brandId: string) => {
      const res = await mcp(token, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_connect_link', arguments: { brand_id: brandId } } });
      const text = await res.text();
      return text;
    };
    expect(await call(first.tokens.access_token, b)).toContain('brand_not_allowed');
    expect(await call(first.tokens.access_token, a)).toContain('/connect/');

    expect((await s.post(`/dashboard/apps/${app}/revoke`)).status).toBe(303);
    expect((await toolsList(first.tokens.access_token)).status).toBe(401);
    const again = await signIn(s, clientId);
    const [newApp] = await appId();
    expect(newApp).not.toBe(app);
    expect(await call(again.tokens.access_token, b)).toContain('brand_not_allowed');
  });
});

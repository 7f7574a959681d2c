import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { chromium, type BrowserContext } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { OffsetClock } from '../support/clock';
import { signInThroughOutbox } from '../support/dashboard';
import { axeViolations } from '../support/axe';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';
import { sha256Hex } from '../../shared/domain/api-key';

/**
 * The MCP server's OAuth 2.1 sign-in end to end: the SDK's client-side auth discovers the authorization server from
 * the 401, registers dynamically, opens the authorization URL (PKCE S256) in a real Chromium where the signed-in
 * owner allows the app on the consent page, exchanges the code and calls a tool as the app. Then the refusals.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const EMAIL = 'owner@example.com';

let rt: LocalRuntime;
let browser: BrowserContext;
let profile: string;
let callback: http.Server;
let callbackUrl: string;
const codes: URLSearchParams[] = [];
const telegram = new TelegramFake();

/** An MCP client's OAuth state, kept in memory (what a desktop app would keep in its settings). */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  get redirectUrl() { return callbackUrl; }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Jest Agent', redirect_uris: [callbackUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() { return this.verifier!; }
}

const mcpUrl = () => new URL(`${rt.url}/api/mcp`);
const form = (f: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(f).toString() });
const rawMcp = (token: string) => fetch(mcpUrl(), {
  method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
});

/** The handlers' clock: real time, moved by hand for a moment. */
const handlersClock = new OffsetClock();

beforeAll(async () => {
  await telegram.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url }, undefined, { deps: () => ({ clock: handlersClock }) });
  callback = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname === '/callback') codes.push(u.searchParams);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><title>Signed in</title><p>You can close this window.</p></html>');
  });
  await new Promise<void>((r) => callback.listen(0, '127.0.0.1', () => r()));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-chromium-'));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  await telegram.stop();
  await new Promise<void>((r) => (callback ? callback.close(() => r()) : r()));
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

describe('MCP OAuth 2.1: discovery → registration → consent in Chromium → token → tool call', () => {
  const provider = new MemoryProvider();
  let brandId: string;

  it('signs an AI app in and calls a tool as the app', async () => {
    const key = await signupThroughApi(rt.url, EMAIL, 'starter');
    const api = client(rt.url, key);
    brandId = ((await api('GET', '/api/brands')).body.brands as Array<{ id: string }>)[0].id;
    expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' }, brand_id: brandId })).status).toBe(200);

    // 401 → protected resource metadata → authorization server metadata → registration → authorization URL
    const first = new Client({ name: 'jest-agent', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    expect(provider.info?.client_id).toMatch(/^mcpc_/);
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${rt.url}/dashboard/apps/authorize`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(`${rt.url}/api/mcp`);

    // The consent page is behind the dashboard sign-in.
    const page = await browser.newPage();
    await page.goto(authUrl.toString());
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    const session = await signInThroughOutbox(rt.url, EMAIL);
    const [name, value] = session.cookie.split('=');
    await browser.addCookies([{ name: name!, value: value!, url: rt.url }]);
    await page.goto(authUrl.toString());
    await expect(page.locator('h1').textContent()).resolves.toBe('Allow Jest Agent to use your account?');
    const text = await page.locator('main').textContent();
    expect(text).toContain(EMAIL);
    expect(text).toContain('Default');
    expect(text).toContain('approve a post that waits for approval');
    expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.screenshot({ path: path.join(os.tmpdir(), 'mcp-consent.png'), fullPage: true });

    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.toString().startsWith(callbackUrl));
    const answer = codes.at(-1)!;
    expect(answer.get('iss')).toBe(rt.url);
    const code = answer.get('code')!;
    expect(code).toMatch(/^mcp_code_/);
    await page.close();

    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await transport.finishAuth(code);
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.stringMatching(/^mcp_at_/), refresh_token: expect.stringMatching(/^mcp_rt_/) });
    const app = new Client({ name: 'jest-agent', version: '1.0.0' });
    await app.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    expect((await app.listTools()).tools).toHaveLength(29);
    const posted = await app.callTool({ name: 'post_to_social', arguments: { platform: 'telegram', text: 'Posted by an AI app', brand_id: brandId, idempotency_key: 'app-1' } });
    expect(posted.isError).toBeFalsy();
    expect(telegram.methods.filter((m) => m === 'sendMessage')).toHaveLength(1);

    // The owner's guardrails for this AI app hold in its tool calls; no tool can approve a held post.
    const accountId = (await rt.deps.accounts.findIdByEmail(EMAIL))!;
    const [aiApp] = await rt.deps.mcpOAuth.listApps(accountId);
    const guard = (body: unknown) => fetch(`${rt.url}/api/guardrails/app/${aiApp!.id}`, {
      method: 'PUT', headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    expect((await guard({ allowed_platforms: ['discord'] })).status).toBe(200);
    const refused = await app.callTool({ name: 'post_to_social', arguments: { platform: 'telegram', text: 'Not for this network', brand_id: brandId } });
    expect((refused.structuredContent as { results: unknown[] }).results).toEqual([expect.objectContaining({ platform: 'telegram', ok: false, code: 'platform_not_allowed' })]);
    expect((await guard({ always_require_approval: true })).status).toBe(200);
    const held = await app.callTool({ name: 'post_to_social', arguments: { platform: 'telegram', text: 'Needs a human', brand_id: brandId } });
    expect(held.structuredContent).toMatchObject({ status: 'pending_approval', approval_id: expect.any(String), results: [{ platform: 'telegram', ok: true, status: 'pending_approval' }] });
    expect((held.content as Array<{ text: string }>)[0].text).toContain('held for the account owner');
    const names = (await app.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => /approv|guardrail|decide/.test(n))).toEqual([]);
    await expect(app.callTool({ name: 'approve_post', arguments: { approval_id: (held.structuredContent as { approval_id: string }).approval_id } })).rejects.toThrow(/Unknown tool/);
    expect(telegram.methods.filter((m) => m === 'sendMessage')).toHaveLength(1);
    // A key's guardrails are not the app's: the same account's API key still publishes.
    const byKey = await api('POST', '/api/post', { platform: 'telegram', text: 'From the key', brand_id: brandId });
    expect(byKey.status).toBe(200);
    expect((await guard({})).status).toBe(200);
    await app.close();

    // Codes and tokens are stored hashed only.
    const stored = await rt.deps.mcpOAuth.getToken(sha256Hex(provider.saved!.access_token));
    expect(stored).toMatchObject({ kind: 'access', resource: `${rt.url}/api/mcp` });
    expect(JSON.stringify(stored)).not.toContain(provider.saved!.access_token);
    expect(await rt.deps.mcpOAuth.redeemCode(code, Math.floor(Date.now() / 1000), new Date().toISOString())).toBeUndefined();
  });

  it('a code works once and only with its PKCE verifier; the refresh token rotates', async () => {
    const tokens = provider.saved!;
    const reuse = await fetch(`${rt.url}/oauth/token`, form({ grant_type: 'authorization_code', code: 'mcp_code_unknown', code_verifier: 'v'.repeat(43), client_id: provider.info!.client_id }));
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });

    const rotated = await fetch(`${rt.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: provider.info!.client_id, resource: `${rt.url}/api/mcp` }));
    const fresh = await rotated.json() as OAuthTokens;
    expect({ status: rotated.status, fresh }).toMatchObject({ status: 200, fresh: { token_type: 'Bearer' } });
    expect(fresh.refresh_token).not.toBe(tokens.refresh_token);
    const again = await fetch(`${rt.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: provider.info!.client_id }));
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    // the replay of a rotated refresh token revoked the whole grant (RFC 9700 §4.14), the fresh access token too
    expect((await rawMcp(fresh.access_token)).status).toBe(401);

    // A wrong verifier: a new authorization through the consent form, then the exchange with another verifier.
    const session = await signInThroughOutbox(rt.url, EMAIL);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const params = { response_type: 'code', client_id: provider.info!.client_id, redirect_uri: callbackUrl, code_challenge: challenge, code_challenge_method: 'S256', state: 's1', resource: `${rt.url}/api/mcp` };
    const allowed = await session.post('/dashboard/apps/authorize', { ...params, decision: 'allow' });
    expect(allowed.status).toBe(303);
    const code = new URL(allowed.headers.get('location')!).searchParams.get('code')!;
    const wrong = await fetch(`${rt.url}/oauth/token`, form({ grant_type: 'authorization_code', code, code_verifier: randomBytes(32).toString('base64url'), client_id: provider.info!.client_id, redirect_uri: callbackUrl }));
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier|used/) });
    const right = await fetch(`${rt.url}/oauth/token`, form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: provider.info!.client_id, redirect_uri: callbackUrl }));
    expect(await right.json()).toMatchObject({ error: 'invalid_grant' }); // the code was used by the wrong attempt

    const plain = await session.get(`/dashboard/apps/authorize?${new URLSearchParams({ ...params, code_challenge_method: 'plain' })}`);
    // before consent an error is a page, never a redirect to the app (RFC 9700 §4.11.2)
    expect([plain.status, plain.headers.get('location')]).toEqual([400, null]);
    const denied = await session.post('/dashboard/apps/authorize', { ...params, decision: 'deny' });
    expect(Object.fromEntries(new URL(denied.headers.get('location')!).searchParams)).toMatchObject({ error: 'access_denied', state: 's1' });

    // a new grant for the tests that follow
    const again2 = await session.post('/dashboard/apps/authorize', { ...params, decision: 'allow' });
    const code2 = new URL(again2.headers.get('location')!).searchParams.get('code')!;
    const renewed = await fetch(`${rt.url}/oauth/token`, form({ grant_type: 'authorization_code', code: code2, code_verifier: verifier, client_id: provider.info!.client_id, redirect_uri: callbackUrl }));
    expect(renewed.status).toBe(200);
    provider.saveTokens(await renewed.json() as OAuthTokens);
  });

  it('refuses a token for another resource, an expired or revoked token (401 with WWW-Authenticate)', async () => {
    const session = await signInThroughOutbox(rt.url, EMAIL);
    const other = await session.get(`/dashboard/apps/authorize?${new URLSearchParams({
      response_type: 'code', client_id: provider.info!.client_id, redirect_uri: callbackUrl, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', resource: 'https://other.example/mcp',
    })}`);
    expect([other.status, other.headers.get('location')]).toEqual([400, null]);
    expect(await other.text()).toContain('invalid_target');

    const deps = rt.deps;
    const access = provider.saved!.access_token;
    const record = (await deps.mcpOAuth.getToken(sha256Hex(access)))!;
    const foreign = 'mcp_at_foreign' + randomBytes(16).toString('hex');
    await deps.mcpOAuth.putToken({ ...record, hash: sha256Hex(foreign), resource: 'https://other.example/mcp' });
    const refused = await rawMcp(foreign);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${rt.url}/.well-known/oauth-protected-resource", error="invalid_token", error_description="The access token is for another resource"`);

    handlersClock.shift(3601 * 1000);
    try {
      const expired = await rawMcp(access);
      expect(expired.status).toBe(401);
      expect(expired.headers.get('www-authenticate')).toContain('error_description="The access token has expired"');
    } finally {
      handlersClock.shift(0);
    }
    expect((await rawMcp(access)).status).toBe(200);
    expect((await fetch(`${rt.url}/oauth/revoke`, form({ token: access, client_id: provider.info!.client_id }))).status).toBe(200);
    const revoked = await rawMcp(access);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('resource_metadata=');

    const none = await fetch(mcpUrl(), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${rt.url}/.well-known/oauth-protected-resource"`);
  });

  it('the owner sees the app on the AI apps page and revokes it: its tokens stop at once', async () => {
    const rotated = await fetch(`${rt.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: provider.info!.client_id }));
    const tokens = await rotated.json() as OAuthTokens;
    expect((await rawMcp(tokens.access_token)).status).toBe(200);

    const page = await browser.newPage();
    await page.goto(`${rt.url}/dashboard/apps`);
    await expect(page.locator('h1').textContent()).resolves.toBe('AI apps');
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').textContent()).toContain('Jest Agent');
    expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.screenshot({ path: path.join(os.tmpdir(), 'mcp-apps.png'), fullPage: true });
    await page.getByRole('button', { name: 'Revoke Jest Agent' }).click();
    await page.waitForURL(`${rt.url}/dashboard/apps?revoked=1`);
    expect(await page.locator('[role=status]').textContent()).toContain('revoked');
    expect(await page.locator('tbody tr').textContent()).toContain('Revoked');
    await page.close();

    const after = await rawMcp(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('The app was revoked');
    const refresh = await fetch(`${rt.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: provider.info!.client_id }));
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('MCP OAuth metadata and registration', () => {
  it('publishes protected resource and authorization server metadata', async () => {
    const prm = await (await fetch(`${rt.url}/.well-known/oauth-protected-resource`)).json();
    expect(prm).toMatchObject({ resource: `${rt.url}/api/mcp`, authorization_servers: [rt.url], bearer_methods_supported: ['header'] });
    const as = await (await fetch(`${rt.url}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: rt.url, token_endpoint: `${rt.url}/oauth/token`, registration_endpoint: `${rt.url}/oauth/register`, revocation_endpoint: `${rt.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'], grant_types_supported: ['authorization_code', 'refresh_token'], client_id_metadata_document_supported: true,
    });
  });

  it('registers public clients only, with safe redirect URIs', async () => {
    const register = (body: unknown) => fetch(`${rt.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const okRes = await register({ client_name: 'Desktop', redirect_uris: ['http://localhost:8765/cb', 'com.example.desktop:/cb'], software_id: 'ignored' });
    expect(okRes.status).toBe(201);
    expect(await okRes.json()).toMatchObject({ client_id: expect.stringMatching(/^mcpc_/), token_endpoint_auth_method: 'none', redirect_uris: ['http://localhost:8765/cb', 'com.example.desktop:/cb'] });
    for (const bad of [{ redirect_uris: ['http://evil.example/cb'] }, { redirect_uris: [] }, { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }]) {
      const res = await register(bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: expect.any(String) });
    }
  });
});

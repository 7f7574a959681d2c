import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TINY_PNG } from '../media/world';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * What an agent developer meets on the hosted MCP server, over HTTP against the whole local runtime: both protocol
 * eras from the one endpoint (SDK v2 client on 2026-07-28, v1 client on 2025-11-25), data in every result,
 * resources, prompts and completions, the user's action when a network is not connected, the upload link → media_url
 * flow, and the Origin allow-list with CORS.
 */

let rt: LocalRuntime;
let key: string;
let brandId: string;
const ALLOWED = 'https://inspector.example.org';

type Text = { type: string; text: string };
type Result = { content: Text[]; structuredContent?: Record<string, any>; isError?: boolean };

/** The JSON under the summary line of a result's one text block. */
const dataOf = (res: Result) => {
  expect(res.content).toHaveLength(1);
  const text = res.content[0]!.text;
  return JSON.parse(text.slice(text.indexOf('\n') + 1)) as Record<string, any>;
};

async function v1(): Promise<ClientV1> {
  const c = new ClientV1({ name: 'jest-v1', version: '1.0.0' });
  await c.connect(new TransportV1(new URL(`${rt.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return c;
}

async function v2(): Promise<ClientV2> {
  const c = new ClientV2({ name: 'jest-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(new TransportV2(new URL(`${rt.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return c;
}

beforeAll(async () => {
  rt = await startRuntime({ MCP_ALLOWED_ORIGINS: `${ALLOWED}, https://other.example.org` });
  key = await signupThroughApi(rt.url, 'agents@example.com', 'starter');
  brandId = ((await client(rt.url, key)('GET', '/api/brands')).body.brands as Array<{ id: string }>)[0]!.id;
});
afterAll(async () => { await rt?.stop(); });

describe('both protocol eras from the one endpoint', () => {
  it('the SDK v2 client on 2026-07-28 lists and calls tools (stateless, server/discover)', async () => {
    const c = await v2();
    expect(c.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(c.getServerVersion()).toMatchObject({ name: 'social-publishing' });
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['post_to_social', 'explain_error', 'get_media_upload', 'list_media', 'get_connection_health']));
    const res = await c.callTool({ name: 'explain_error', arguments: { code: 'not_connected' } }) as Result;
    expect(res.structuredContent).toMatchObject({ code: 'not_connected', known: true, fix: expect.stringContaining('create_connect_link') });
    expect(dataOf(res)).toEqual(res.structuredContent);
    await c.close();
  });

  it('the SDK v1 client on 2025-11-25 lists and calls tools', async () => {
    const c = await v1();
    expect(c.getServerVersion()).toMatchObject({ name: 'social-publishing' });
    expect((await c.listTools()).tools.length).toBeGreaterThanOrEqual(25);
    const res = await c.callTool({ name: 'list_brands', arguments: {} }) as Result;
    expect(res.content[0]!.text.split('\n')[0]).toBe(`1 brand: Default (${brandId}).`);
    expect(dataOf(res)).toEqual(res.structuredContent);
    await c.close();
  });

  it('server/discover answers the 2026-07-28 revision over plain HTTP, and initialize still negotiates 2025-11-25', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` };
    const init = await fetch(`${rt.url}/api/mcp`, {
      method: 'POST', headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(init.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await init.json()) as any).result).toMatchObject({ protocolVersion: '2025-11-25', capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} } });

    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {},
    };
    const discover = await fetch(`${rt.url}/api/mcp`, {
      method: 'POST', headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: envelope } }),
    });
    expect([discover.status, discover.status === 200 ? '' : await discover.text()]).toEqual([200, '']);
    const found = ((await discover.json()) as any).result;
    expect(found.supportedVersions).toEqual(['2026-07-28']); // 2025 revisions negotiate with initialize, above
    expect(found).toMatchObject({ capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'social-publishing' } } });
  });
});

describe('what an agent reads and is asked', () => {
  let c: ClientV1;
  beforeAll(async () => { c = await v1(); });
  afterAll(async () => { await c.close(); });

  it('resources and resource templates with stable URIs', async () => {
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['social://brands', 'social://connections', 'social://connections/health', 'social://errors', 'social://networks', 'social://usage']);
    const { resourceTemplates } = await c.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['social://connections/health/{brand_id}', 'social://errors/{code}', 'social://networks/{platform}', 'social://posts/{post_id}']);
    const read = async (uri: string) => JSON.parse(((await c.readResource({ uri })).contents[0] as { text: string }).text) as Record<string, any>;
    expect((await read('social://networks')).networks).toHaveLength(PLATFORM_NAMES.length);
    expect(await read('social://networks/bluesky')).toMatchObject({ name: 'bluesky', text: { limit: 300, unit: 'graphemes' }, max_media: 4, post_kinds: expect.arrayContaining(['thread']) });
    expect((await read('social://brands')).brands).toEqual([expect.objectContaining({ id: brandId, name: 'Default' })]);
    expect(await read('social://connections')).toEqual({ healthy: 0, unhealthy: 0, connections: [] });
    expect(await read('social://usage')).toMatchObject({ plan: 'starter' });
    expect(await read('social://errors/text_too_long')).toMatchObject({ code: 'text_too_long', known: true });
    await expect(c.readResource({ uri: 'social://posts/pst_doesnotexist' })).rejects.toThrow(/No such post/);
    await expect(c.readResource({ uri: 'social://nothing' })).rejects.toThrow(/No resource/);
  });

  it('prompts with arguments, and completions for networks and brand names', async () => {
    const { prompts } = await c.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['article_to_thread', 'cross_post_announcement', 'plan_week']);
    for (const p of prompts) expect(p.arguments!.length).toBeGreaterThan(0);
    const got = await c.getPrompt({ name: 'cross_post_announcement', arguments: { announcement: 'Dark mode is here', platforms: 'bluesky,mastodon', brand: 'Default' } });
    expect((got.messages[0]!.content as Text).text).toContain('Dark mode is here');
    await expect(c.getPrompt({ name: 'plan_week', arguments: {} })).rejects.toThrow(/needs: theme, platforms/);
    const nets = await c.complete({ ref: { type: 'ref/prompt', name: 'cross_post_announcement' }, argument: { name: 'platforms', value: 'bluesky,ma' } });
    expect(nets.completion.values).toEqual(['bluesky,mastodon']);
    const brands = await c.complete({ ref: { type: 'ref/prompt', name: 'plan_week' }, argument: { name: 'brand', value: 'de' } });
    expect(brands.completion.values).toEqual(['Default']);
  });

  it('a post to a network that is not connected says plainly what the user must do, with the connect link', async () => {
    const res = await c.callTool({ name: 'post_to_social', arguments: { platform: 'discord', text: 'Hello', brand_id: brandId } }) as Result;
    expect(res.isError).toBeFalsy();
    const out = dataOf(res);
    expect(out.results).toEqual([expect.objectContaining({ platform: 'discord', ok: false, code: 'not_connected', fix: expect.stringContaining('create_connect_link') })]);
    expect(out.user_action).toMatchObject({ kind: 'connect', platforms: ['discord'], url: expect.stringContaining('/connect/') });
    expect(res.content[0]!.text.split('\n')[0]).toContain(out.user_action.url);
    expect(JSON.stringify(out)).not.toMatch(/\/api\//);
    const health = await c.callTool({ name: 'get_connection_health', arguments: {} }) as Result;
    expect(health.structuredContent).toEqual({ healthy: 0, unhealthy: 0, connections: [] });
  });

  it('upload link → the person uploads on the hosted page → get_media_upload gives the media_url → list_media lists it', async () => {
    const link = (await c.callTool({ name: 'create_media_upload_link', arguments: { content_type: 'image/png', note: 'The logo' } }) as Result).structuredContent!;
    const waiting = await c.callTool({ name: 'get_media_upload', arguments: { token: link.token } }) as Result;
    expect(waiting.structuredContent).toMatchObject({ status: 'open' });
    expect(waiting.structuredContent!.media).toBeUndefined();

    // the person, on the hosted page: it sets its per-page cookie, asks for an upload URL, PUTs the bytes, completes
    const page = await fetch(link.url as string);
    const html = await page.text();
    expect(html).not.toMatch(/give this path|path back/i);
    const cookie = page.headers.getSetCookie().map((h) => h.split(';')[0]).join('; ');
    const cfg = JSON.parse(/<script type="application\/json" id="upload-config">([^<]*)<\/script>/.exec(html)![1]!.replace(/\\u003c/g, '<'));
    const pagePost = async (path: string, body: unknown) => (await fetch(`${rt.url}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-form-token': cfg.formToken, cookie, origin: rt.url }, body: JSON.stringify(body),
    })).json() as Promise<Record<string, any>>;
    const upload = await pagePost(cfg.urlEndpoint, { content_type: 'image/png', size_bytes: TINY_PNG.length });
    expect((await fetch(upload.upload_url, { method: 'PUT', headers: upload.headers, body: new Uint8Array(TINY_PNG) })).status).toBe(200);
    await pagePost(cfg.completeEndpoint, { path: upload.path });

    const arrived = await c.callTool({ name: 'get_media_upload', arguments: { token: link.token } }) as Result;
    expect(arrived.structuredContent).toMatchObject({ status: 'uploaded', media: { content_type: 'image/png', kind: 'image', bytes: TINY_PNG.length, media_url: expect.stringContaining('/media/') } });
    expect(arrived.content[0]!.text.split('\n')[0]).toContain(arrived.structuredContent!.media.media_url);
    expect(Buffer.from(await (await fetch(arrived.structuredContent!.media.media_url)).arrayBuffer())).toEqual(TINY_PNG);
    const listed = await c.callTool({ name: 'list_media', arguments: {} }) as Result;
    expect(listed.structuredContent!.media).toEqual([expect.objectContaining({ media_url: arrived.structuredContent!.media.media_url, content_type: 'image/png' })]);
    const again = await c.callTool({ name: 'get_media_upload', arguments: { token: link.token } }) as Result;
    expect(again.structuredContent).toEqual(arrived.structuredContent);
  });
});

describe('browser clients: the Origin allow-list and CORS', () => {
  const mcpPost = (origin: string) => fetch(`${rt.url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, origin },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'web', version: '1' } } }),
  });

  it('a foreign Origin is refused with 403 on the MCP endpoint and the OAuth endpoints; no Origin is a non-browser client', async () => {
    const foreign = await mcpPost('https://evil.example.com');
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: 'origin_not_allowed' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    for (const [method, path] of [['POST', '/oauth/token'], ['POST', '/oauth/register'], ['POST', '/oauth/revoke'], ['GET', '/.well-known/oauth-authorization-server'], ['GET', '/.well-known/oauth-protected-resource']] as const) {
      expect((await fetch(`${rt.url}${path}`, { method, headers: { origin: 'https://evil.example.com' } })).status).toBe(403);
    }
    expect((await fetch(`${rt.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });

  it('an allow-listed Origin gets CORS on the MCP endpoint (preflight, answers and errors) and on the OAuth endpoints', async () => {
    const pre = await fetch(`${rt.url}/api/mcp`, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/mcp-protocol-version/);
    const ok = await mcpPost(ALLOWED);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const unauth = await fetch(`${rt.url}/api/mcp`, { method: 'POST', headers: { origin: ALLOWED, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(unauth.headers.get('access-control-expose-headers')).toMatch(/www-authenticate/);
    for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke']) {
      const p = await fetch(`${rt.url}${path}`, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'POST' } });
      expect([path, p.status, p.headers.get('access-control-allow-origin')]).toEqual([path, 204, ALLOWED]);
    }
    const token = await fetch(`${rt.url}/oauth/token`, { method: 'POST', headers: { origin: ALLOWED, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=nope' });
    expect(token.status).toBe(400);
    expect(token.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource']) {
      const meta = await fetch(`${rt.url}${path}`, { headers: { origin: ALLOWED } });
      expect([path, meta.status, meta.headers.get('access-control-allow-origin')]).toEqual([path, 200, ALLOWED]);
    }
  });
});

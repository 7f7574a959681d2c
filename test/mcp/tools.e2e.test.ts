import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

let rt: LocalRuntime;
let key: string;
let mcp: Client;
let brandId: string;
const telegram = new TelegramFake();
const tg = { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } };

const TOOL_NAMES = [
  'list_platforms', 'list_brands', 'create_brand', 'create_connect_link', 'list_connections', 'check_connection',
  'generate_posts', 'plan_week', 'post_to_social', 'schedule_post', 'bulk_schedule', 'list_scheduled_posts',
  'cancel_scheduled_post', 'create_recurring_post', 'list_recurring_posts', 'delete_recurring_post', 'get_post_status',
  'list_posts', 'create_media_upload_link', 'get_usage', 'get_x_credits',
  'get_media_upload', 'list_media', 'get_connection_health', 'explain_error',
  'validate_post', 'delete_post', 'edit_post', 'get_post_analytics',
];

async function connect(apiKey: string): Promise<Client> {
  const c = new Client({ name: 'jest', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${rt.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));
  return c;
}

async function call(name: string, args: Record<string, unknown> = {}) {
  return await mcp.callTool({ name, arguments: args }) as CallToolResult & { structuredContent?: Record<string, any> };
}

/** Tools whose result (success or failure) was checked for its JSON text block. */
const checked = new Set<string>();

/** The one text block of a result: the summary line, then the data as JSON. */
function textBlock(res: CallToolResult): { summary: string; data: Record<string, any> } {
  expect(res.content).toEqual([{ type: 'text', text: expect.any(String) }]);
  const text = (res.content as Array<{ type: string; text: string }>)[0].text;
  const newline = text.indexOf('\n');
  expect(newline).toBeGreaterThan(0);
  return { summary: text.slice(0, newline), data: JSON.parse(text.slice(newline + 1)) as Record<string, any> };
}

/** A successful call: structured content, and the same object as JSON under a one-line summary in the text. */
async function ok(name: string, args: Record<string, unknown> = {}) {
  const res = await call(name, args);
  if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res.content)}`);
  const { summary, data } = textBlock(res);
  checked.add(name);
  expect(summary).toMatch(/^[^\n]+$/);
  expect(data).toEqual(res.structuredContent);
  return res.structuredContent!;
}

/** A domain failure: a tool result with isError and {code, error, what, fix} (fix names a tool, never a REST path). */
async function fails(name: string, args: Record<string, unknown>, code: string) {
  const res = await call(name, args);
  expect(res.isError).toBe(true);
  expect(res.structuredContent).toBeUndefined();
  const { summary, data: failure } = textBlock(res);
  checked.add(name);
  expect(summary).toContain(code);
  expect(failure).toMatchObject({ code, error: expect.any(String), what: expect.any(String), fix: expect.any(String) });
  expect(failure.fix).not.toMatch(/\/api\/|GET |POST /);
  return failure;
}

const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();

beforeAll(async () => {
  await telegram.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  key = await signupThroughApi(rt.url, 'agent@example.com', 'starter');
  const api = client(rt.url, key);
  brandId = ((await api('GET', '/api/brands')).body.brands as Array<{ id: string }>)[0].id;
  expect((await api('POST', '/api/connect', { ...tg, brand_id: brandId })).status).toBe(200);
  mcp = await connect(key);
});
afterAll(async () => {
  await mcp?.close();
  await rt?.stop();
  await telegram.stop();
});

describe('the hosted MCP server over HTTP (SDK client, local runtime)', () => {
  it('lists exactly the 29 tools, each with input and output schemas and the four annotations', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.description).toEqual(expect.any(String));
      expect(t.annotations).toMatchObject({
        readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean), openWorldHint: expect.any(Boolean),
      });
    }
    const post = tools.find((t) => t.name === 'post_to_social')!;
    expect(Object.keys(post.inputSchema.properties!)).toEqual(expect.arrayContaining(['platform', 'platforms', 'text', 'brand_id', 'idempotency_key']));
    expect(post.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(tools.find((t) => t.name === 'list_posts')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === 'cancel_scheduled_post')!.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.map((t) => t.name).filter((n) => /approve|guardrail|secret|key/.test(n))).toEqual([]);
  });

  it('post_to_social publishes once to the network even when retried with the same idempotency key', async () => {
    const args = { platform: 'telegram', text: 'Hello from an agent', brand_id: brandId, idempotency_key: 'agent-run-1' };
    const first = await ok('post_to_social', args);
    expect(first.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true, status: 'published' })]);
    const retried = await fails('post_to_social', args, 'duplicate_post');
    expect(retried.post_id).toBe(first.post_id);
    expect(telegram.methods.filter((m) => m === 'sendMessage')).toHaveLength(1);

    const status = await ok('get_post_status', { platform: 'telegram', id: first.post_id });
    expect(status).toMatchObject({ post_id: first.post_id, status: 'published' });
    await fails('get_post_status', { platform: 'telegram', id: 'pst_doesnotexist' }, 'not_found');
    // telegram offers no post analytics: tracked at publish as not_offered, every figure null
    const analytics = await ok('get_post_analytics', { id: first.post_id, refresh: true });
    expect(analytics).toMatchObject({ post_id: first.post_id, networks: [expect.objectContaining({ platform: 'telegram', status: 'not_offered', refreshed: false, fetched_at: null })] });
    expect(Object.values(analytics.networks[0].metrics).every((v) => v === null)).toBe(true);
    await fails('get_post_analytics', { id: 'pst_doesnotexist' }, 'not_found');
    expect((await ok('list_posts', { limit: 5 })).posts.map((p: { id: string }) => p.id)).toEqual([first.post_id]);
    await fails('list_posts', { limit: 500 }, 'invalid_request');
    await fails('post_to_social', { text: 'no network named' }, 'invalid_request');
    await fails('post_to_social', { platform: 'telegram', text: 'x', brand_id: brandId, surprise: true }, 'invalid_request');
    // a key no schema can name is refused as the REST API refuses it, never dropped
    const unnameable = await fails('post_to_social', JSON.parse(`{"platform":"telegram","text":"x","brand_id":"${brandId}","per_platform":{"__proto__":{"text":"y"}}}`) as Record<string, unknown>, 'unknown_field');
    expect(unnameable.fields).toEqual(['per_platform.__proto__']);
  });

  it('validate_post checks without sending; edit_post and delete_post change the published post on its network', async () => {
    const sentBefore = telegram.methods.filter((m) => m === 'sendMessage').length;
    const dry = await ok('validate_post', { platform: 'telegram', text: 'Checked before sending', brand_id: brandId });
    expect(dry).toMatchObject({ ok: true, results: [expect.objectContaining({ platform: 'telegram', ok: true })] });
    const tooLong = await ok('validate_post', { platform: 'telegram', text: 'x'.repeat(5000), brand_id: brandId });
    expect(tooLong.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: false, code: 'text_too_long' })]);
    expect(telegram.methods.filter((m) => m === 'sendMessage')).toHaveLength(sentBefore);

    const posted = await ok('post_to_social', { platform: 'telegram', text: 'Soon edited, then deleted', brand_id: brandId });
    const edited = await ok('edit_post', { id: posted.post_id, text: 'Edited by an agent' });
    expect(edited.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true, status: 'edited' })]);
    expect(telegram.methods).toContain('editMessageText');
    const deleted = await ok('delete_post', { id: posted.post_id });
    expect(deleted.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true, status: 'deleted' })]);
    expect(telegram.methods.filter((m) => m === 'deleteMessage')).toHaveLength(1);
    await fails('delete_post', { id: 'pst_doesnotexist' }, 'not_found');
    await fails('edit_post', { id: posted.post_id }, 'empty_text');
    await fails('validate_post', { text: 'no network named' }, 'invalid_request');
  });

  it('catalog, brands, connections and links: success and a domain error each', async () => {
    expect((await ok('list_platforms')).platforms).toHaveLength(19);
    await fails('list_platforms', { extra: 1 }, 'invalid_request');
    expect((await ok('list_brands')).brands[0]).toMatchObject({ id: brandId, name: 'Default' });
    await fails('list_brands', { extra: 1 }, 'invalid_request');
    const created = await ok('create_brand', { name: 'Agent brand' });
    expect(created).toMatchObject({ ok: true, brand: { name: 'Agent brand' } });
    await ok('create_brand', { name: 'Third brand' });
    expect(await fails('create_brand', { name: 'Fourth brand' }, 'brand_limit_reached')).toMatchObject({ upgrade_url: expect.any(String) });

    const link = await ok('create_connect_link', { brand_id: created.brand.id });
    expect(link).toMatchObject({ brand_id: created.brand.id, expires_in: 3600, url: expect.stringContaining('/connect/') });
    await fails('create_connect_link', { brand_id: 'brd_doesnotexist' }, 'brand_not_found');

    const connections = await ok('list_connections');
    expect(connections.connections).toEqual([expect.objectContaining({ platform: 'telegram', brand_id: brandId })]);
    expect(JSON.stringify(connections)).not.toContain(telegram.token);
    await fails('list_connections', { extra: 1 }, 'invalid_request');
    expect(await ok('check_connection', { platform: 'telegram', brand_id: brandId })).toMatchObject({ platform: 'telegram', ok: true });
    await fails('check_connection', { platform: 'discord', brand_id: brandId }, 'not_connected');

    const upload = await ok('create_media_upload_link', { note: 'The launch photo' });
    expect(upload).toMatchObject({ url: expect.stringContaining('/upload/'), expires_in: 3600 });
    await fails('create_media_upload_link', { content_type: 'text/plain' }, 'invalid_request');
    expect(await ok('get_usage')).toMatchObject({ plan: 'starter' });
    await fails('get_usage', { extra: 1 }, 'invalid_request');
    expect(await ok('get_x_credits')).toMatchObject({ platform: 'x', plan: 'starter' });
    await fails('get_x_credits', { extra: 1 }, 'invalid_request');
  });

  it('scheduling tools: schedule, bulk, list, cancel, recurring', async () => {
    const scheduled = await ok('schedule_post', { platform: 'telegram', text: 'Later', brand_id: brandId, run_at: inOneHour() });
    expect(scheduled).toMatchObject({ status: 'scheduled', platforms: ['telegram'] });
    await fails('schedule_post', { platform: 'telegram', text: 'Past', brand_id: brandId, run_at: '2001-01-01T00:00:00Z' }, 'invalid_run_at');
    const bulk = await ok('bulk_schedule', { posts: [{ platform: 'telegram', text: 'Bulk one', brand_id: brandId, run_at: inOneHour() }, { platform: 'telegram', text: '' }] });
    expect(bulk).toMatchObject({ total: 2, accepted: 1, rejected: 1 });
    await fails('bulk_schedule', { posts: [] }, 'invalid_request');
    const listed = await ok('list_scheduled_posts', { status: 'scheduled' });
    expect(listed.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toContain(scheduled.schedule_id);
    expect(listed.schedules).toHaveLength(2);
    await fails('list_scheduled_posts', { status: 'someday' }, 'invalid_request');
    expect(await ok('cancel_scheduled_post', { id: scheduled.schedule_id })).toMatchObject({ status: 'canceled' });
    await fails('cancel_scheduled_post', { id: scheduled.schedule_id }, 'schedule_not_pending');

    const recurring = await ok('create_recurring_post', { platform: 'telegram', text: 'Every Monday', brand_id: brandId, cron: '0 9 * * 1', timezone: 'Europe/Paris' });
    expect(recurring).toMatchObject({ status: 'active', next_run_at: expect.any(String) });
    await fails('create_recurring_post', { platform: 'telegram', text: 'Bad', brand_id: brandId, cron: 'whenever' }, 'invalid_cron');
    expect((await ok('list_recurring_posts')).recurring.map((r: { recurring_id: string }) => r.recurring_id)).toEqual([recurring.recurring_id]);
    await fails('list_recurring_posts', { extra: 1 }, 'invalid_request');
    expect(await ok('delete_recurring_post', { id: recurring.recurring_id })).toMatchObject({ status: 'canceled' });
    await fails('delete_recurring_post', { id: recurring.recurring_id }, 'recurring_not_active');
  });

  it('generate_posts and plan_week draft with the AI drafts use cases (local drafter)', async () => {
    const drafts = await ok('generate_posts', { prompt: 'Our launch day', platforms: ['telegram', 'x'] });
    expect(Object.keys(drafts.drafts).sort()).toEqual(['telegram', 'x']);
    expect(drafts.drafts.x).toMatchObject({ text: expect.any(String), chars: expect.any(Number), limit: expect.any(Number) });
    expect(drafts.provider).toBe('local');
    await fails('generate_posts', { prompt: 'Our launch day', platforms: ['myspace'] }, 'invalid_request');
    const week = await ok('plan_week', { prompt: 'Launch week', platforms: ['telegram'], brand_id: brandId });
    expect(week.days).toHaveLength(7);
    expect(week.scheduled).toBeUndefined();
    await fails('plan_week', { prompt: 'Launch week', platforms: ['telegram'], brand_id: 'brd_doesnotexist' }, 'brand_not_found');
  });

  it('media, health and error tools; every tool answered its data as JSON under the summary line', async () => {
    const link = await ok('create_media_upload_link', {});
    expect(await ok('get_media_upload', { token: link.token })).toMatchObject({ status: 'open' });
    await fails('get_media_upload', { token: 'x'.repeat(43) }, 'not_found');
    expect(await ok('list_media', { limit: 5 })).toEqual({ media: [], next_before: null });
    const health = await ok('get_connection_health', { brand_id: brandId });
    expect(health).toMatchObject({ healthy: 1, unhealthy: 0, connections: [expect.objectContaining({ platform: 'telegram', ok: true, health: { state: 'healthy' } })] });
    // the same answer as resources with stable URIs: every brand, and one brand
    const read = async (uri: string) => JSON.parse(((await mcp.readResource({ uri })).contents[0] as { text: string }).text) as Record<string, any>;
    expect(await read('social://connections/health')).toEqual(health);
    expect(await read(`social://connections/health/${brandId}`)).toEqual(health);
    expect(await read('social://connections/health/brd_other')).toEqual({ healthy: 0, unhealthy: 0, connections: [] });
    expect(await ok('explain_error', { code: 'text_too_long' })).toMatchObject({ known: true, fix: expect.stringContaining('generate_posts') });
    expect([...checked].sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('an unknown tool is a protocol error, not a tool result', async () => {
    await expect(mcp.callTool({ name: 'approve_post', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('the MCP endpoint over plain HTTP', () => {
  const initialize = (protocolVersion: string, headers: Record<string, string> = {}) => fetch(`${rt.url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
  });

  it('negotiates every protocol revision the SDK supports, and falls back to the latest for an unknown one', async () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const res = await initialize(version);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = await res.json() as { result: { protocolVersion: string; serverInfo: { name: string } } };
      expect(body.result).toMatchObject({ protocolVersion: version, serverInfo: { name: 'social-publishing' } });
    }
    const unknown = await (await initialize('1999-01-01')).json() as { result: { protocolVersion: string } };
    expect(unknown.result.protocolVersion).toBe(SUPPORTED_PROTOCOL_VERSIONS[0]);
    expect(SUPPORTED_PROTOCOL_VERSIONS.length).toBeGreaterThanOrEqual(5);
  });

  it('GET and DELETE answer 405; no key or a bad key answers 401; a missing Accept answers 406', async () => {
    const get = await fetch(`${rt.url}/api/mcp`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${key}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${rt.url}/api/mcp`, { method: 'DELETE' })).status).toBe(405);
    expect((await initialize(SUPPORTED_PROTOCOL_VERSIONS[0], { authorization: '' })).status).toBe(401);
    const bad = await initialize(SUPPORTED_PROTOCOL_VERSIONS[0], { authorization: 'Bearer svc_live_' + 'x'.repeat(40) });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ code: 'unauthorized' });
    expect((await initialize(SUPPORTED_PROTOCOL_VERSIONS[0], { accept: 'application/json' })).status).toBe(406);
  });

  it('a revoked key is refused at once', async () => {
    const api = client(rt.url, key);
    const second = await api('POST', '/api/keys', { name: 'agent' });
    const agent = await connect(second.body.api_key as string);
    expect((await agent.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    expect((await api('DELETE', `/api/keys/${second.body.id}`)).status).toBe(200);
    await expect(agent.listTools()).rejects.toThrow(/revoked/);
    await agent.close();
  });
});

import { createHash } from 'node:crypto';
import { publishingWorld } from '../support/publishing';
import { call, sampleEvent } from '../support/invoke';
import { handler as mcp } from '../../functions/mcp/handler';
import { handler as postPost } from '../../functions/http/post-post';
import { createApiKey } from '../../shared/app/api-keys';
import type { Deps } from '../../shared/app/deps';
import type { Account } from '../../shared/ports/store';
import { registerClient } from '../../shared/app/mcp-oauth/clients';
import { decideAuthorization } from '../../shared/app/mcp-oauth/authorize';
import { tokenRequest } from '../../shared/app/mcp-oauth/tokens';

/**
 * The MCP function's request path on one warm instance, called as Lambda calls it (the handler over a test's deps,
 * the embedded DynamoDB and a Discord fake): what each tools/call reads, and that callers never see each other's data.
 */
let world: Awaited<ReturnType<typeof publishingWorld>>;
/** Store reads by name, while `counting` is on. */
let reads: Record<string, number> = {};
let deps: Deps;

const counted = <T extends object>(store: T, prefix: string): T => new Proxy(store, {
  get(target, prop, receiver) {
    const value = Reflect.get(target, prop, receiver) as unknown;
    if (typeof value !== 'function') return value;
    return (...args: unknown[]) => {
      reads[`${prefix}.${String(prop)}`] = (reads[`${prefix}.${String(prop)}`] ?? 0) + 1;
      return (value as (...a: unknown[]) => unknown).apply(target, args);
    };
  },
});

beforeAll(async () => {
  world = await publishingWorld();
  deps = world.rebuild((chosen) => ({ accounts: counted(chosen.accounts, 'accounts'), publishContext: counted(chosen.publishContext, 'publishContext') }));
});
afterAll(async () => { await world.stop(); });

/** A new account with Discord connected and an API key of the given scopes. */
async function caller(scopes?: Array<'read' | 'publish' | 'manage'>): Promise<{ account: Account; key: string }> {
  const account = await world.discordAccount('pro');
  const { api_key } = await createApiKey(world.deps, account.id, { name: 'mcp', ...(scopes ? { scopes } : {}) });
  return { account, key: api_key };
}

const event = (path: string, key: string, body: unknown, headers: Record<string, string> = {}) => sampleEvent('http/post-validate.json', {
  rawPath: path, routeKey: `POST ${path}`, body: JSON.stringify(body),
  headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
});

let ids = 0;
type ToolAnswer = { id: number; result: { isError?: boolean; structuredContent?: Record<string, any>; content: Array<{ text: string }> } };
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'jest', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/**
 * A tools/call as one stateless POST: on the 2025-11-25 revision, or on 2026-07-28 with the request's own envelope.
 * `on` is the handler instance (one warm Lambda instance serves its requests one after another, the local runtime's
 * concurrently).
 */
async function toolCall(key: string, name: string, args: Record<string, unknown>, era: 'legacy' | 'modern' = 'legacy', on = mcp.using(deps)): Promise<ToolAnswer> {
  const id = ++ids;
  const res = await call(on, era === 'legacy'
    ? event('/api/mcp', key, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
    : event('/api/mcp', key, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: ENVELOPE } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name }));
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id });
  return res.body as ToolAnswer;
}

describe('tools/call on a warm MCP function', () => {
  it('post_to_social reads the account and what publishing needs in one query, as POST /api/post does', async () => {
    const { key } = await caller();
    reads = {};
    const rest = await call(postPost.using(deps), event('/api/post', key, { platform: 'discord', text: 'REST reads' }));
    expect(rest.status).toBe(200);
    const restReads = reads;
    reads = {};
    const viaMcp = await toolCall(key, 'post_to_social', { platform: 'discord', text: 'MCP reads' });
    expect(viaMcp.result.isError).toBeUndefined();
    expect(viaMcp.result.structuredContent).toMatchObject({ results: [{ platform: 'discord', ok: true }] });
    expect(reads).toEqual(restReads);
    expect(reads).toEqual({ 'publishContext.load': 1 });
  });

  it('post_to_social by an AI app signed in with OAuth reads its account with what publishing needs too', async () => {
    const { account } = await caller();
    const client = await registerClient(world.deps, { client_name: 'Agent', redirect_uris: ['https://agent.example/cb'] });
    const verifier = 'v'.repeat(43);
    const back = new URL(await decideAuthorization(world.deps, account, {
      response_type: 'code', client_id: client.client_id, redirect_uri: 'https://agent.example/cb', state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    } as never, true));
    const tokens = await tokenRequest(world.deps, {
      grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier,
      client_id: client.client_id, redirect_uri: 'https://agent.example/cb',
    }) as { access_token: string };
    reads = {};
    const res = await toolCall(tokens.access_token, 'post_to_social', { platform: 'discord', text: 'OAuth reads' });
    expect(res.result.structuredContent).toMatchObject({ results: [{ platform: 'discord', ok: true }] });
    expect(reads).toEqual({ 'publishContext.load': 1 });
  });

  it('a tool that does not publish reads the account alone', async () => {
    const { key } = await caller();
    reads = {};
    const res = await toolCall(key, 'list_connections', {});
    expect(res.result.isError).toBeUndefined();
    expect(reads).toEqual({ 'accounts.get': 1 });
  });
});

describe('two accounts calling one warm MCP function at once', () => {
  it('each call answers with its own caller\'s data, on both protocol revisions', async () => {
    const [a, b] = await Promise.all([caller(), caller()]);
    const names = new Map<string, string>([[a.key, `Alpha ${Date.now()}`], [b.key, `Beta ${Date.now()}`]]);
    for (const [key, name] of names) expect((await toolCall(key, 'create_brand', { name })).result.isError).toBeUndefined();
    const brandsOf = async (key: string) => ((await toolCall(key, 'list_brands', {})).result.structuredContent!.brands as Array<{ id: string; name: string }>);
    const own = new Map([[a.key, await brandsOf(a.key)], [b.key, await brandsOf(b.key)]]);
    expect(own.get(a.key)!.map((x) => x.name)).toContain(names.get(a.key));
    expect(own.get(b.key)!.map((x) => x.name)).toContain(names.get(b.key));

    // one handler instance, as one warm instance: 16 calls of both callers in flight together, interleaved
    const warm = mcp.using(deps);
    const calls = Array.from({ length: 16 }, (_, i) => {
      const key = i % 2 ? b.key : a.key;
      const era = i % 4 < 2 ? 'legacy' as const : 'modern' as const;
      return i % 3 === 0
        ? toolCall(key, 'post_to_social', { platform: 'discord', text: `Concurrent ${i}` }, era, warm).then((r) => ({ key, kind: 'post' as const, r }))
        : toolCall(key, 'list_brands', {}, era, warm).then((r) => ({ key, kind: 'brands' as const, r }));
    });
    const answers = await Promise.all(calls);
    const posted = new Map<string, string[]>([[a.key, []], [b.key, []]]);
    for (const { key, kind, r } of answers) {
      expect(r.result.isError).toBeUndefined();
      const ownBrandIds = own.get(key)!.map((x) => x.id);
      if (kind === 'brands') {
        expect(r.result.structuredContent!.brands.map((x: { id: string }) => x.id).sort()).toEqual([...ownBrandIds].sort());
      } else {
        expect(ownBrandIds).toContain(r.result.structuredContent!.brand_id);
        expect(r.result.structuredContent!.results).toMatchObject([{ platform: 'discord', ok: true }]);
        posted.get(key)!.push(r.result.structuredContent!.post_id);
      }
    }
    // every post is its caller's: the other caller cannot see it
    await Promise.all([...posted].flatMap(([key, ids]) => ids.map(async (id) => {
      const other = key === a.key ? b.key : a.key;
      expect((await toolCall(key, 'get_post_status', { platform: 'discord', id }, 'legacy', warm)).result.isError).toBeUndefined();
      expect((await toolCall(other, 'get_post_status', { platform: 'discord', id }, 'modern', warm)).result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('not_found') }] });
    })));
  });
});

describe('the request as the MCP function hands it to the SDK', () => {
  it('a body that is not JSON answers the JSON-RPC parse error', async () => {
    const { key } = await caller();
    const res = await call(mcp.using(deps), sampleEvent('http/post-validate.json', {
      rawPath: '/api/mcp', routeKey: 'POST /api/mcp', body: '{"jsonrpc": "2.0", "id": 1, "method": ',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('the text block carries structuredContent as JSON, character for character, on both revisions', async () => {
    const { key } = await caller();
    for (const era of ['legacy', 'modern'] as const) {
      const res = await toolCall(key, 'post_to_social', { platform: 'discord', text: `Same JSON ${era}` }, era);
      const text = res.result.content[0]!.text;
      expect(text.slice(text.indexOf('\n') + 1)).toBe(JSON.stringify(res.result.structuredContent));
      expect(text.split('\n')[0]).toMatch(/^Post pst_\w+: discord published\.$/);
    }
  });
});

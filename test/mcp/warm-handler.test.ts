import { publishingWorld } from '../support/publishing';
import { call, sampleEvent } from '../support/invoke';
import { handler as mcp } from '../../functions/mcp/handler';
import { handler as postPost } from '../../functions/http/post-post';
import { createApiKey } from '../../shared/app/api-keys';
import type { Deps } from '../../shared/app/deps';
import type { Account } from '../../shared/ports/store';

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
/** A tools/call on the 2025-11-25 revision (one stateless POST), answering the JSON-RPC response. */
async function toolCall(key: string, name: string, args: Record<string, unknown>) {
  const res = await call(mcp.using(deps), event('/api/mcp', key, { jsonrpc: '2.0', id: ++ids, method: 'tools/call', params: { name, arguments: args } }));
  expect(res.status).toBe(200);
  return res.body as { id: number; result: { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ text: string }> } };
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

  it('a tool that does not publish reads the account alone', async () => {
    const { key } = await caller();
    reads = {};
    const res = await toolCall(key, 'list_connections', {});
    expect(res.result.isError).toBeUndefined();
    expect(reads).toEqual({ 'accounts.get': 1 });
  });
});

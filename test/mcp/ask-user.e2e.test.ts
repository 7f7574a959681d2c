import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { signInThroughOutbox } from '../support/dashboard';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * Where the user must act (a network not connected, a post held for approval), the tool result says so plainly with
 * the link, and a client that declared URL-mode elicitation is also asked through its revision's means: an
 * `elicitation/create` request in URL mode on 2025-11-25, the input-required result of multi round-trip requests on
 * 2026-07-28. A client that declared nothing is never asked.
 */

let rt: LocalRuntime;
const telegram = new TelegramFake();
type Text = { type: string; text: string };
type Result = { content: Text[]; structuredContent?: Record<string, any>; isError?: boolean };
type Elicited = { mode?: string; message: string; url?: string; elicitationId?: string };

const sends = () => telegram.methods.filter((m) => m.startsWith('send')).length;

/** An account with telegram connected (discord is not); with `held`, an approval rule holds every post. */
async function account(email: string, held = false) {
  const key = await signupThroughApi(rt.url, email, 'starter');
  const api = client(rt.url, key);
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
  if (held) expect((await (await signInThroughOutbox(rt.url, email)).post('/dashboard/approvals/rules', { scope: 'account', always: 'on' })).status).toBe(303);
  return { key, api };
}

async function v1(key: string, capabilities: Record<string, unknown>, asked: Elicited[]): Promise<ClientV1> {
  const c = new ClientV1({ name: 'jest-v1', version: '1.0.0' }, { capabilities });
  if (capabilities.elicitation) c.setRequestHandler(ElicitRequestSchema, async (req) => { asked.push(req.params as Elicited); return { action: 'accept' }; });
  await c.connect(new TransportV1(new URL(`${rt.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return c;
}

async function v2(key: string, asked: Elicited[]): Promise<ClientV2> {
  const c = new ClientV2({ name: 'jest-v2', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  c.setRequestHandler('elicitation/create', async (req) => { asked.push(req.params as Elicited); return { action: 'accept' }; });
  await c.connect(new TransportV2(new URL(`${rt.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return c;
}

/** One raw 2026-07-28 tools/call (the wire as the spec writes it), with the request's own envelope. */
async function modernCall(key: string, args: Record<string, unknown>, capabilities: Record<string, unknown>, retry: Record<string, unknown> = {}) {
  const res = await fetch(`${rt.url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'post_to_social' },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 7, method: 'tools/call',
      params: {
        name: 'post_to_social', arguments: args, ...retry,
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities },
      },
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { result?: Record<string, any>; error?: { code: number; message: string } };
}

/** Shared by the cases (each posts its own text): telegram connected, discord not; `held` holds every post. */
let plain: Awaited<ReturnType<typeof account>>;
let held: Awaited<ReturnType<typeof account>>;

beforeAll(async () => {
  await telegram.start();
  // accounts and sign-ins from 127.0.0.1: the per-IP limits are not what this file tests
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url, DISABLE_RATE_LIMITS: '1' });
  [plain, held] = await Promise.all([account('ask-plain@example.com'), account('ask-held@example.com', true)]);
});
afterAll(async () => {
  await rt?.stop();
  await telegram.stop();
});
beforeEach(() => telegram.reset());

describe('2025-11-25: URL-mode elicitation pushed ahead of the plain result', () => {
  it('a client that declared elicitation.url is asked to open the connect link, and the result still says it plainly', async () => {
    const { key } = plain;
    const asked: Elicited[] = [];
    const c = await v1(key, { elicitation: { url: {} } }, asked);
    const res = await c.callTool({ name: 'post_to_social', arguments: { platforms: ['telegram', 'discord'], text: 'Hello both' } }) as Result;
    const out = res.structuredContent!;
    expect(out.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true }), expect.objectContaining({ platform: 'discord', code: 'not_connected' })]);
    expect(out.user_action).toMatchObject({ kind: 'connect', platforms: ['discord'], url: expect.stringContaining('/connect/') });
    expect(res.content[0]!.text.split('\n')[0]).toContain(out.user_action.url);
    expect(asked).toEqual([{ mode: 'url', url: out.user_action.url, message: out.user_action.message, elicitationId: expect.any(String) }]);
    expect(sends()).toBe(1);
    await c.close();
  });

  it('a held post asks to open the dashboard approvals page, with the link in the result', async () => {
    const { key } = held;
    const asked: Elicited[] = [];
    const c = await v1(key, { elicitation: { url: {} } }, asked);
    const res = await c.callTool({ name: 'post_to_social', arguments: { platform: 'telegram', text: 'Hold me' } }) as Result;
    expect(res.structuredContent).toMatchObject({ status: 'pending_approval', user_action: { kind: 'approve', url: `${rt.url}/dashboard/approvals` } });
    expect(res.content[0]!.text.split('\n')[0]).toContain(`${rt.url}/dashboard/approvals`);
    expect(asked).toEqual([expect.objectContaining({ mode: 'url', url: `${rt.url}/dashboard/approvals` })]);
    expect(sends()).toBe(0);
    await c.close();
  });

  it('a client without elicitation.url is never asked: no session id, a JSON answer, the link only in the result', async () => {
    const { key } = plain;
    const asked: Elicited[] = [];
    const c = await v1(key, { elicitation: { form: {} } }, asked);
    const res = await c.callTool({ name: 'post_to_social', arguments: { platform: 'discord', text: 'Hello' } }) as Result;
    expect(res.structuredContent!.user_action).toMatchObject({ kind: 'connect', url: expect.stringContaining('/connect/') });
    expect(asked).toEqual([]);
    expect(c.transport).toBeDefined();
    expect((c.transport as TransportV1).sessionId).toBeUndefined();
    await c.close();

    const withUrl = await v1(key, { elicitation: { url: {} } }, []);
    expect((withUrl.transport as TransportV1).sessionId).toMatch(/\.url-elicitation$/);
    await withUrl.close();
  });
});

describe('2026-07-28: the input-required result (multi round-trip requests)', () => {
  it('a missing connection answers input_required with the connect link before anything is sent; the retry posts', async () => {
    const { key } = plain;
    const args = { platforms: ['telegram', 'discord'], text: 'Hello after connecting', idempotency_key: 'mrtr-connect-1' };
    const first = await modernCall(key, args, { elicitation: { url: {} } });
    expect(first.result).toEqual({
      resultType: 'input_required',
      inputRequests: { connect: { method: 'elicitation/create', params: { mode: 'url', message: expect.stringContaining('discord'), url: expect.stringContaining('/connect/') } } },
      _meta: expect.anything(),
    });
    expect(first.result!.content).toBeUndefined();
    expect(sends()).toBe(0);

    const retry = await modernCall(key, args, { elicitation: { url: {} } }, { inputResponses: { connect: { action: 'accept' } } });
    expect(retry.result).toMatchObject({ structuredContent: { results: [{ platform: 'telegram', ok: true }, { platform: 'discord', code: 'not_connected' }], user_action: { kind: 'connect' } } });
    expect(retry.result!.content[0].text.split('\n')[0]).toContain(retry.result!.structuredContent.user_action.url);
    expect(sends()).toBe(1);
  });

  it('the SDK v2 client fulfils the elicitation and retries by itself', async () => {
    const { key } = plain;
    const asked: Elicited[] = [];
    const c = await v2(key, asked);
    const res = await c.callTool({ name: 'post_to_social', arguments: { platform: 'discord', text: 'Hi' } }) as Result;
    expect(asked).toEqual([expect.objectContaining({ mode: 'url', url: expect.stringContaining('/connect/') })]);
    expect(res.structuredContent).toMatchObject({ results: [{ platform: 'discord', code: 'not_connected' }], user_action: { kind: 'connect' } });
    await c.close();
  });

  it('a held post answers input_required with the dashboard link and a sealed state; the retry answers the held post, never a second one', async () => {
    const { key, api } = held;
    const before = ((await api('GET', '/api/posts')).body.posts as unknown[]).length;
    const args = { platform: 'telegram', text: 'Hold me once' };
    const first = await modernCall(key, args, { elicitation: { url: {} } });
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { approve: { method: 'elicitation/create', params: { mode: 'url', url: `${rt.url}/dashboard/approvals` } } },
      requestState: expect.any(String),
    });
    const state = first.result!.requestState as string;
    expect(state).not.toContain('Hold me');

    const retry = await modernCall(key, args, { elicitation: { url: {} } }, { inputResponses: { approve: { action: 'accept' } }, requestState: state });
    expect(retry.result!.structuredContent).toMatchObject({ status: 'pending_approval', user_action: { kind: 'approve' } });
    const posts = (await api('GET', '/api/posts')).body.posts as Array<{ id: string }>;
    expect([posts.length - before, posts[0]!.id]).toEqual([1, retry.result!.structuredContent.post_id]);

    const forged = await modernCall(key, args, { elicitation: { url: {} } }, { inputResponses: { approve: { action: 'accept' } }, requestState: `${state.slice(0, -4)}AAAA` });
    expect(forged.error).toMatchObject({ code: -32602, message: expect.stringContaining('requestState') });
    const foreign = await modernCall(plain.key, args, { elicitation: { url: {} } }, { inputResponses: { approve: { action: 'accept' } }, requestState: state });
    expect(foreign.error).toMatchObject({ code: -32602 });
    expect(sends()).toBe(0);
  });

  it('a client that did not declare elicitation.url gets the plain result with the link', async () => {
    const { key } = plain;
    const answer = await modernCall(key, { platform: 'discord', text: 'Hi without asking' }, { elicitation: { form: {} } });
    expect(answer.result!.resultType).not.toBe('input_required');
    expect(answer.result!.structuredContent.user_action).toMatchObject({ kind: 'connect', url: expect.stringContaining('/connect/') });
  });
});

import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { answer, sdkAnswer, type CallerInfo } from '../../functions/mcp/handler';
import { fastAnswer, LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from '../../functions/mcp/fast-answers';
import { sampleEvent } from '../support/invoke';

/**
 * The answers fast-answers.ts builds without the SDK (a cold start's initialize, server/discover, ping) are the SDK's
 * own: each request of a matrix (every 2025 revision, an unknown one, capabilities with and without URL elicitation,
 * the 2026-07-28 envelope) goes through the handler's answer (the fast path) and through the SDK alone (sdkAnswer),
 * and status, headers and body must be the same bytes. Requests of any other shape must not be answered fast.
 */

/** A caller for the SDK path: initialize, server/discover and ping never read it. */
const caller = { ctx: { deps: {}, principal: { actor: { kind: 'key', id: 'key-1' }, scopes: ['read'] } }, requestId: 'req-1' } as unknown as CallerInfo;

const ENVELOPE = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'matrix', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

interface Case { name: string; body: unknown; headers?: Record<string, string> }

const event = ({ body, headers = {} }: Case) => sampleEvent('http/post-validate.json', {
  rawPath: '/api/mcp', routeKey: 'POST /api/mcp', body: JSON.stringify(body),
  headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
});

/** The answer with a session id's random part blanked (both paths make a new one), the suffix kept. */
async function answered(via: typeof answer, c: Case) {
  const e = event(c);
  const res = await via(e, e.body!, JSON.parse(e.body!), caller);
  const headers = { ...(res.headers as Record<string, string>) };
  if (headers['mcp-session-id']) headers['mcp-session-id'] = headers['mcp-session-id'].replace(/^[0-9a-f-]{36}/, '<uuid>');
  return { status: res.statusCode, headers, body: res.body };
}

const CAPABILITIES: Array<[string, Record<string, unknown>]> = [
  ['no capabilities', {}],
  ['bare elicitation', { elicitation: {} }],
  ['URL elicitation', { elicitation: { url: {} } }],
  ['form and URL elicitation', { elicitation: { form: { applyDefaults: true }, url: {} } }],
  ['roots and sampling', { roots: { listChanged: true }, sampling: { context: {}, tools: {} } }],
  ['experimental and extensions', { experimental: { 'x.example/feature': { on: true } }, extensions: { 'io.example/ext': {} } }],
];

const initialize = (version: string, capabilities: Record<string, unknown>, id: string | number = 1): unknown => ({
  jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: version, capabilities, clientInfo: { name: 'matrix', version: '1.0.0' } },
});

const FAST: Case[] = [
  ...[...LEGACY_PROTOCOL_VERSIONS, '2099-01-01', '2024-01-01'].flatMap((version) => CAPABILITIES.map(([what, caps]) => ({
    name: `initialize ${version}, ${what}`, body: initialize(version, caps),
  }))),
  { name: 'initialize with a string id and the revision header', body: initialize('2025-06-18', {}, 'a-1'), headers: { 'mcp-protocol-version': '2025-06-18' } },
  { name: 'initialize, JSON with a charset', body: initialize('2025-11-25', {}), headers: { 'content-type': 'application/json; charset=utf-8' } },
  { name: 'initialize, client title and description', body: { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '2', title: 'C', description: 'd', websiteUrl: 'https://c.example' } } } },
  ...CAPABILITIES.map(([what, caps]) => ({
    name: `server/discover, ${what}`, body: { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: ENVELOPE(caps) } },
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
  })),
  { name: 'server/discover with a string id', body: { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: ENVELOPE() } }, headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' } },
  { name: 'ping (2025-11-25)', body: { jsonrpc: '2.0', id: 2, method: 'ping' }, headers: { 'mcp-protocol-version': '2025-11-25' } },
  { name: 'ping without a revision header, empty params', body: { jsonrpc: '2.0', id: 'p', method: 'ping', params: {} } },
  { name: 'ping in a session that declared URL elicitation', body: { jsonrpc: '2.0', id: 5, method: 'ping' }, headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': '3f0c1c9e-8a53-4a43-9f5e-0d1b2c3d4e5f.url-elicitation' } },
];

/** Shapes the fast answers leave to the SDK: a different answer, an error, or fields they do not check. */
const TO_THE_SDK: Case[] = [
  { name: 'tools/list', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { 'mcp-protocol-version': '2025-11-25' } },
  { name: 'initialize with a modern revision header', body: initialize('2025-11-25', {}), headers: { 'mcp-protocol-version': '2026-07-28' } },
  { name: 'initialize without capabilities', body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', clientInfo: { name: 'c', version: '1' } } } },
  { name: 'initialize, clientInfo without version', body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c' } } } },
  { name: 'initialize, client icons', body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1', icons: [{ src: 'x' }] } } } },
  { name: 'initialize, roots.listChanged not a boolean', body: initialize('2025-11-25', { roots: { listChanged: 'yes' } }) },
  { name: 'initialize, an unknown capability', body: initialize('2025-11-25', { telepathy: {} }) },
  { name: 'initialize, a _meta', body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' }, _meta: { progressToken: 1 } } } },
  { name: 'initialize, a fractional id', body: initialize('2025-11-25', {}, 1.5) },
  { name: 'initialize, an extra member', body: { ...(initialize('2025-11-25', {}) as object), extra: true } },
  { name: 'initialize, text/plain', body: initialize('2025-11-25', {}), headers: { 'content-type': 'text/plain' } },
  { name: 'initialize, JSON in another spelling', body: initialize('2025-11-25', {}), headers: { 'content-type': 'Application/JSON;charset=UTF-8' } },
  { name: 'initialize, no event stream accepted', body: initialize('2025-11-25', {}), headers: { accept: 'application/json' } },
  { name: 'ping, an unknown revision header', body: { jsonrpc: '2.0', id: 2, method: 'ping' }, headers: { 'mcp-protocol-version': '1999-01-01' } },
  { name: 'ping with an Mcp-Method header', body: { jsonrpc: '2.0', id: 2, method: 'ping' }, headers: { 'mcp-method': 'ping' } },
  { name: 'ping (2026-07-28)', body: { jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: ENVELOPE() } }, headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'ping' } },
  { name: 'server/discover without Mcp-Method', body: { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: ENVELOPE() } }, headers: { 'mcp-protocol-version': '2026-07-28' } },
  { name: 'server/discover, header and envelope disagree', body: { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: ENVELOPE() } }, headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'server/discover' } },
  { name: 'server/discover, tasks (not a 2026 capability)', body: { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: ENVELOPE({ tasks: {} }) } }, headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' } },
  { name: 'server/discover, no client info', body: { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' } },
];

describe('answers built without the SDK', () => {
  it('serve the revisions the SDK serves', () => {
    expect([...LEGACY_PROTOCOL_VERSIONS]).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(MODERN_PROTOCOL_VERSIONS).toEqual(['2026-07-28']);
  });

  it.each(FAST.map((c) => [c.name, c] as const))('%s: answered fast, with the SDK\'s status, headers and body', async (_name, c) => {
    const e = event(c);
    expect(fastAnswer(e.headers, JSON.parse(e.body!))).toBeDefined();
    const fast = await answered(answer, c);
    expect(fast).toEqual(await answered(sdkAnswer, c));
    expect(fast.status).toBe(200);
  });

  it('give a session id to an initialize that declares URL elicitation on 2025-11-25, as the SDK path does', async () => {
    const withUrl = await answered(answer, { name: 'u', body: initialize('2025-11-25', { elicitation: { url: {} } }) });
    expect(withUrl.headers['mcp-session-id']).toBe('<uuid>.url-elicitation');
    const older = await answered(answer, { name: 'o', body: initialize('2025-06-18', { elicitation: { url: {} } }) });
    expect(older.headers['mcp-session-id']).toBeUndefined();
  });

  it.each(TO_THE_SDK.map((c) => [c.name, c] as const))('%s: left to the SDK', async (_name, c) => {
    const e = event(c);
    expect(fastAnswer(e.headers, JSON.parse(e.body!))).toBeUndefined();
    expect(await answered(answer, c)).toEqual(await answered(sdkAnswer, c));
  });
});

import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { CallerInfo } from '../../functions/mcp/handler';

/**
 * What a cold start of the MCP function evaluates before and for its first initialize / server/discover: not the MCP
 * SDK, not the server built on it, not the tools (their use cases and REST wire schemas), not the resources, not the
 * route table's OAuth routes, and no Intl.Segmenter (tens of milliseconds each to build). Each is loaded or made by
 * the first request that needs it. The figures are printed by bench/mcp.bench.ts; this file holds the behaviour.
 */
const LAZY = {
  sdk: '@modelcontextprotocol/server',
  server: '../../functions/mcp/server',
  tools: '../../functions/mcp/tools',
  resources: '../../functions/mcp/resources',
  routeTable: '../../functions/routes/mcp',
} as const;

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'cold', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const caller = { ctx: { deps: {}, principal: { actor: { kind: 'key', id: 'key-1' }, scopes: ['read'] } }, requestId: 'cold' } as unknown as CallerInfo;

/** The handler's answer (after the key check) to one JSON-RPC message, on 2025-11-25 or with the 2026-07-28 envelope. */
async function firstAnswer(method: string, params: Record<string, unknown> | undefined, era: 'legacy' | 'modern'): Promise<{ statusCode?: number; body?: string }> {
  const { answer } = require('../../functions/mcp/handler') as typeof import('../../functions/mcp/handler');
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(era === 'modern' ? { params: { ...params, _meta: ENVELOPE } } : params ? { params } : {}) });
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...(era === 'modern' ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method } : { 'mcp-protocol-version': '2025-11-25' }) };
  const event = { version: '2.0', rawPath: '/', rawQueryString: '', headers, isBase64Encoded: false, body, requestContext: { domainName: 'fn.example', http: { method: 'POST', path: '/', sourceIp: '203.0.113.1' } } } as unknown as APIGatewayProxyEventV2;
  return answer(event, body, JSON.parse(body), caller) as Promise<{ statusCode?: number; body?: string }>;
}

/** Loads `load` in a fresh module registry and answers which of the LAZY modules it evaluated. */
async function evaluated(load: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  await jest.isolateModulesAsync(async () => {
    for (const [name, path] of Object.entries(LAZY)) {
      jest.doMock(path, () => { seen.push(name); return jest.requireActual(path); });
    }
    await load();
  });
  return seen.sort();
}

describe('the MCP cold start', () => {
  it('loading the handler evaluates neither the SDK, the server, the tools, the resources nor the route table', async () => {
    expect(await evaluated(async () => require('../../functions/mcp/handler'))).toEqual([]);
  });

  it('the first initialize, server/discover or ping is answered without loading any of them, and without a web Request', async () => {
    const Original = globalThis.Request;
    let made = 0;
    globalThis.Request = class extends Original { constructor(...args: ConstructorParameters<typeof Original>) { super(...args); made++; } };
    try {
      expect(await evaluated(async () => {
        const init = await firstAnswer('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cold', version: '1' } }, 'legacy');
        expect(JSON.parse(init.body!).result.serverInfo.name).toBe('social-publishing');
        expect(JSON.parse((await firstAnswer('server/discover', {}, 'modern')).body!).result.supportedVersions).toEqual(['2026-07-28']);
        expect(JSON.parse((await firstAnswer('ping', undefined, 'legacy')).body!).result).toEqual({});
      })).toEqual([]);
      expect(made).toBe(0);
      // the same counter sees the SDK path's Request
      await evaluated(() => firstAnswer('prompts/list', undefined, 'legacy'));
      expect(made).toBe(1);
    } finally {
      globalThis.Request = Original;
    }
  });

  it('the first request of another method loads the SDK and the server (and what it needs)', async () => {
    expect(await evaluated(async () => {
      expect((await firstAnswer('prompts/list', undefined, 'legacy')).statusCode).toBe(200);
    })).toEqual(['sdk', 'server']);
  });

  it('the first tools/list loads the tools (with the server and the SDK), not the resources or the route table', async () => {
    expect(await evaluated(async () => {
      const server = require('../../functions/mcp/server') as typeof import('../../functions/mcp/server');
      const tools = await server.toolList();
      expect(tools.map((t) => t.name)).toContain('post_to_social');
    })).toEqual(['sdk', 'server', 'tools']);
  });

  it('no Intl.Segmenter is built by loading the text modules; the first measure or split builds one', () => {
    const Original = Intl.Segmenter;
    let built = 0;
    const intl = Intl as { Segmenter: typeof Intl.Segmenter };
    intl.Segmenter = class extends Original { constructor(...args: ConstructorParameters<typeof Original>) { super(...args); built++; } };
    try {
      jest.isolateModules(() => {
        const length = require('../../shared/domain/text-length') as typeof import('../../shared/domain/text-length');
        const split = require('../../shared/domain/text-split') as typeof import('../../shared/domain/text-split');
        expect(built).toBe(0);
        // the first count to segment builds it, whichever it is (X's weighting first here); the others share it
        expect(length.xWeightedLength('👨‍👩‍👧 hi')).toBe(5);
        expect(built).toBe(1);
        expect(length.threadsLength('👨‍👩‍👧 hi')).toBe(21);
        expect(length.graphemeLength('e\u0301 👨‍👩‍👧')).toBe(3);
        expect(built).toBe(1);
        expect(split.sentencesOf('One. Two.').map((p) => p.text)).toEqual(['One.', 'Two.']);
        expect(built).toBe(2);
      });
    } finally {
      intl.Segmenter = Original;
    }
  });
});

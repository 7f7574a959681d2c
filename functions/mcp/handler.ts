// Bundle init order: zod must be evaluated before the MCP SDK's module-level schemas. The container requires some
// adapters lazily (billing's Stripe adapter imports zod), so esbuild wraps zod in lazy initialisers; without this
// first use, the SDK's top-level z.custom() runs against a half-initialised zod and the bundle throws when the SDK is
// loaded ("Class is not a constructor"; test/infra/mcp-bundle.test.ts).
import * as z from 'zod';
z.string();
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { MCP_ROUTE } from './tool-routes';
import { requestState, stateOf } from '../../shared/http/middlewares/request-state';
import { requestLog } from '../../shared/http/middlewares/request-log';
import { browserCors } from '../../shared/http/middlewares/browser-cors';
import { errorHandler } from '../../shared/http/middlewares/error-handler';
import { authenticateMcp } from '../../shared/app/mcp-oauth/authenticate';
import { fromWebResponse, toWebRequest } from '../../shared/http/web-request';
import { MethodNotAllowedError, PayloadTooLargeError } from '../../shared/domain/errors';
import type { PushElicitation } from './server';
import { fastAnswer } from './fast-answers';
import { canOpenUrls, sessionIdFor, toolCallId } from './legacy-session';
import { randomUUID } from 'node:crypto';
import type { ToolContext } from './tools';
import { wiredHandler } from '../../shared/container';
import { config } from '../../shared/config';

/**
 * The MCP SDK and the server built on it (tools, resources, prompts), loaded by the first request the fast answers
 * (fast-answers.ts) do not cover: a cold start's initialize / server/discover evaluates neither (docs/decisions.md
 * "MCP cold start"). esbuild keeps a dynamically imported module out of the bundle's start-up code; the promises are
 * kept, as server.ts keeps its own (an `import()` per request costs CPU under tsx and in the bundle).
 */
let servingModule: Promise<typeof import('./sdk-serving')> | undefined;
const serving = () => (servingModule ??= import('./sdk-serving'));

const route = MCP_ROUTE;

/** What a request's server instance runs with, handed through the SDK's pass-through authInfo. */
export interface CallerInfo { ctx: ToolContext; requestId: string }

const MAX_BODY = 1_000_000;
const callerOf = (authInfo: AuthInfo | undefined): CallerInfo => {
  const info = authInfo?.extra as CallerInfo | undefined;
  if (!info) throw new Error('The MCP handler was called without the authenticated caller');
  return info;
};

type ModernHandler = ReturnType<Awaited<ReturnType<typeof serving>>['createMcpHandler']>;
let modern: ModernHandler | undefined;

/**
 * The 2026-07-28 revision (stateless, per-request envelope, server/discover): the SDK's handler, one per cold start
 * (made by its first modern request), asks the factory for a fresh server for each request. 2025-era requests never
 * reach it (`legacy` below serves them); server/discover lists the modern revisions, as the SDK does (2025 clients
 * negotiate with initialize).
 */
async function modernHandler(): Promise<ModernHandler> {
  const { createMcpHandler, mcpServer } = await serving();
  return modern ??= createMcpHandler((req) => {
    const info = callerOf(req.authInfo);
    return mcpServer(info.ctx, info.requestId, req.era);
  }, { legacy: 'reject', maxRequestBodySize: MAX_BODY });
}

/**
 * The 2025 revisions (initialize, then one POST per request): a fresh server and stateless transport per request,
 * answering JSON (the SDK's own legacy leg answers an event stream, which a buffered Lambda response gains nothing
 * from). The same factory, so both eras see the same tools, resources and prompts. A tools/call of a session that
 * declared URL-mode elicitation (legacy-session.ts) answers an event stream instead, so that an `elicitation/create`
 * can ride ahead of the result.
 */
async function legacy(request: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> {
  const { WebStandardStreamableHTTPServerTransport, mcpServer } = await serving();
  const info = callerOf(authInfo);
  const callId = canOpenUrls(request.headers.get('mcp-session-id')) ? toolCallId(parsedBody) : undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: callId === undefined });
  const push: PushElicitation | undefined = callId === undefined ? undefined : (relatedRequestId, { message, url }) => transport.send(
    { jsonrpc: '2.0', id: `elicit-${randomUUID()}`, method: 'elicitation/create', params: { mode: 'url', elicitationId: randomUUID(), message, url } },
    { relatedRequestId },
  );
  const server = mcpServer(info.ctx, info.requestId, 'legacy', push);
  await server.connect(transport);
  try {
    const res = await transport.handleRequest(request, { authInfo, ...(parsedBody === undefined ? {} : { parsedBody }) });
    const sessionId = res.ok ? sessionIdFor(parsedBody) : undefined;
    if (sessionId) res.headers.set('mcp-session-id', sessionId);
    // an event stream ends with the call's result: read it whole before the server closes (the response is buffered)
    return callId === undefined ? res : new Response(await res.text(), { status: res.status, headers: res.headers });
  } finally {
    await server.close();
  }
}

const parse = (body: string): unknown => { try { return JSON.parse(body); } catch { return undefined; } };

/** Headers of every answer the handler itself builds (the error handler's answers carry their own). */
const ANSWER_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

/**
 * The SDK's answer to an authenticated request: its own classification (envelope or MCP-Protocol-Version 2026-07-28
 * → modern); unparsable JSON goes to the legacy transport, which answers the JSON-RPC parse error.
 */
export async function sdkAnswer(event: APIGatewayProxyEventV2, body: string, parsedBody: unknown, caller: CallerInfo): Promise<APIGatewayProxyStructuredResultV2> {
  const authInfo: AuthInfo = { token: 'verified', clientId: caller.ctx.principal.actor.id, scopes: caller.ctx.principal.scopes, extra: caller as unknown as Record<string, unknown> };
  // the SDK is handed the parsed body and never reads the Request's: only an unparsable one rides along (the legacy
  // transport answers its parse error)
  const request = toWebRequest(event, parsedBody === undefined ? body : undefined);
  const res = parsedBody !== undefined && !(await (await serving()).isLegacyRequest(request, parsedBody, { maxRequestBodySize: MAX_BODY }))
    ? await (await modernHandler()).fetch(request, { authInfo, parsedBody })
    : await legacy(request, authInfo, parsedBody);
  return fromWebResponse(res, ANSWER_HEADERS);
}

/**
 * The answer to an authenticated request: a connection's opening request of a shape fast-answers.ts knows is answered
 * there, with the SDK's very status, headers and body (and the session id legacy-session.ts gives an initialize);
 * every other request by the SDK.
 */
export async function answer(event: APIGatewayProxyEventV2, body: string, parsedBody: unknown, caller: CallerInfo): Promise<APIGatewayProxyStructuredResultV2> {
  const fast = parsedBody === undefined ? undefined : fastAnswer(event.headers, parsedBody);
  if (!fast) return sdkAnswer(event, body, parsedBody, caller);
  const sessionId = sessionIdFor(parsedBody);
  return { statusCode: fast.status, headers: { ...fast.headers, ...(sessionId ? { 'mcp-session-id': sessionId } : {}), ...ANSWER_HEADERS }, body: fast.body };
}

/** Whether a JSON-RPC message calls a publishing tool (its account is then read with what publishing needs). */
async function callsPublishingTool(message: unknown): Promise<boolean> {
  const method = (message as { method?: unknown } | null)?.method;
  return method === 'tools/call' && (await serving()).callsPublishingTool(message);
}

/**
 * The hosted MCP server (Streamable HTTP, stateless): behind the HTTP API route /api/mcp and its own function URL.
 * A browser Origin outside the allow-list answers 403 (browserCors), OPTIONS is the CORS preflight; GET (an event
 * stream that would never end in stateless mode) and DELETE (no sessions) answer 405.
 */
export const handler = wiredHandler((deps) => middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>()
  .use(requestState(deps))
  .use(requestLog(route))
  .use(browserCors(route))
  .use(errorHandler())
  .use({
    before: (req) => {
      const method = req.event.requestContext?.http?.method;
      if (method !== 'POST') throw new MethodNotAllowedError('The MCP endpoint is stateless: send JSON-RPC with POST', { headers: { allow: 'POST' } });
    },
  })
  .handler(async (event, context) => {
    const s = stateOf(context);
    const body = !event.body ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const oversized = Buffer.byteLength(body) > config().MAX_BODY_BYTES;
    const parsedBody = oversized ? undefined : parse(body);
    // a call of a publishing tool has its account read with what publishing needs (one query, as POST /api/post)
    const caller = await authenticateMcp(s.deps, event.headers?.authorization, { publishing: await callsPublishingTool(parsedBody) });
    if (oversized) throw new PayloadTooLargeError(`The request body is larger than ${config().MAX_BODY_BYTES} bytes`);
    return answer(event, body, parsedBody, { ctx: { deps: s.deps, principal: caller }, requestId: s.requestId });
  }));

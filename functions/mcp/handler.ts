// Bundle init order: zod must be evaluated before the MCP SDK's module-level schemas. The container requires some
// adapters lazily (billing's Stripe adapter imports zod), so esbuild wraps zod in lazy initialisers; without this
// first use, the SDK's top-level z.custom() runs against a half-initialised zod and the bundle throws at cold start
// ("Class is not a constructor"; test/infra/mcp-bundle.test.ts).
import * as z from 'zod';
z.string();
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { mcpRoutes as routes } from '../../infra/routes/mcp';
import { errorHandler, requestLog, requestState, stateOf } from '../../shared/http/middlewares';
import { authenticateMcp } from '../../shared/app/mcp-oauth/authenticate';
import { fromWebResponse, toWebRequest } from '../../shared/http/web-request';
import { MethodNotAllowedError, PayloadTooLargeError } from '../../shared/domain/errors';
import { mcpServer } from './server';
import { depsFor } from '../../shared/container';
import { config } from '../../shared/config';

const route = routes.postMcp;

/**
 * The hosted MCP server (Streamable HTTP, stateless): behind the HTTP API route /api/mcp and its own function URL.
 * Each POST gets a new server and transport with JSON responses; GET (an event stream that would never end in
 * stateless mode) and DELETE (no sessions) answer 405.
 */
export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>()
  .use(requestState(depsFor('route post-mcp', routes.postMcp)))
  .use(requestLog(route))
  .use(errorHandler())
  .use({
    before: (req) => {
      const method = req.event.requestContext?.http?.method;
      if (method !== 'POST') throw new MethodNotAllowedError('The MCP endpoint is stateless: send JSON-RPC with POST', { headers: { allow: 'POST' } });
    },
  })
  .handler(async (event, context) => {
    const s = stateOf(context);
    const caller = await authenticateMcp(s.deps, event.headers?.authorization);
    const body = !event.body ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    if (Buffer.byteLength(body) > config().MAX_BODY_BYTES) throw new PayloadTooLargeError(`The request body is larger than ${config().MAX_BODY_BYTES} bytes`);
    const server = mcpServer({ deps: s.deps, principal: caller }, s.requestId);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await fromWebResponse(await transport.handleRequest(toWebRequest(event, body)), { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    } finally {
      await server.close();
    }
  });

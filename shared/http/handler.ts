import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { RouteDef } from './route';
import type { Reply } from './reply';
import type { DepsOf } from '../wiring/declaration';
import type { Deps } from '../app/deps';
import type { Principal } from '../app/auth';
import type { SessionPrincipal } from '../app/dashboard/sign-in';
import { JSON_HEADERS } from './reply';
import { requestState, stateOf } from './middlewares/request-state';
import { requestLog } from './middlewares/request-log';
import { browserCors } from './middlewares/browser-cors';
import { rateLimitHeaders } from './middlewares/rate-limit-headers';
import { errorHandler } from './middlewares/error-handler';
import { loopbackOnly } from './middlewares/loopback-only';
import { edgeOnly } from './middlewares/edge-only';
import { auth } from './middlewares/auth';
import { rateLimit } from './middlewares/rate-limit';
import { parseRequest } from './middlewares/parse-request';
import { wiredHandler, type Wired } from '../container';
import { config } from '../config';
import { withLogContext } from '../log';
import { coldStart } from '../metrics';

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** What a route function receives: validated input, the caller, and the use-case dependencies. */
export interface HttpRequest<R extends RouteDef> {
  body: Infer<R['body']>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
  /** Raw text of a body sent in one of the route's extraContentTypes (e.g. CSV). */
  rawBody?: string;
  /** The body's exact bytes, for routes with `rawBody` (signed webhooks). */
  rawBytes?: Buffer;
  contentType?: string;
  /** Key routes: the API key's principal; session routes: the signed-in owner (shared/app/dashboard/sign-in.ts). */
  principal: R['auth'] extends 'key' ? Principal : R['auth'] extends 'session' ? SessionPrincipal : Principal | undefined;
  /** Only the dependencies the route declares (grants, networks): reading another one does not compile. */
  deps: DepsOf<R>;
  ip: string;
  requestId: string;
  headers: Record<string, string | undefined>;
  event: APIGatewayProxyEventV2;
}

/**
 * Headers of every HTML response (a page may tighten or widen the CSP with its own): nothing loads but inline
 * style, no framing, no Referer (tokens live in page addresses), no sniffing; HSTS when served over https.
 */
export function htmlHeaders(https: boolean): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

function toResult(reply: Reply, https: boolean): APIGatewayProxyStructuredResultV2 {
  if (reply.html !== undefined) {
    return { statusCode: reply.status, headers: { ...htmlHeaders(https), ...reply.headers }, body: reply.html, cookies: reply.cookies };
  }
  return {
    statusCode: reply.status,
    headers: { ...JSON_HEADERS, ...reply.headers },
    body: reply.body === undefined ? '' : JSON.stringify(reply.body),
    cookies: reply.cookies,
  };
}

/**
 * Builds the Lambda handler of one route: middy with request state, logging, error mapping, auth, rate limits and
 * zod validation, around a route function that calls one use case and returns a Reply. The export runs on the
 * default wiring; `using(deps)` makes the same handler over other dependencies (the local runtime, tests).
 */
export function httpHandler<R extends RouteDef>(route: R, fn: (req: HttpRequest<R>) => Promise<Reply>): Wired<LambdaHttpHandler> {
  return wiredHandler((deps) => routeHandler(route, deps, fn));
}

function routeHandler<R extends RouteDef>(route: R, deps: () => Deps, fn: (req: HttpRequest<R>) => Promise<Reply>): LambdaHttpHandler {
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(requestState(deps))
    .use(requestLog(route))
    // before errorHandler: its onError runs after the error answer exists and adds the CORS headers to it
    .use(browserCors(route))
    .use(rateLimitHeaders())
    .use(errorHandler(route))
    .use(edgeOnly())
    .use(loopbackOnly(route))
    .use(auth(route))
    .use(rateLimit(route))
    .use(parseRequest(route, () => config().MAX_BODY_BYTES))
    .handler(async (event: APIGatewayProxyEventV2, context: Context) => {
      const s = stateOf(context);
      const reply = await fn({
        body: s.body as Infer<R['body']>,
        query: s.query as Infer<R['query']>,
        params: s.params as Infer<R['params']>,
        rawBody: s.rawBody,
        rawBytes: s.rawBytes,
        contentType: s.contentType,
        principal: (route.auth === 'session' ? s.session : s.principal) as HttpRequest<R>['principal'],
        deps: s.deps, ip: s.ip, requestId: s.requestId,
        headers: event.headers ?? {}, event,
      });
      return toResult(reply, s.deps.settings.publicBaseUrl.startsWith('https:'));
    });
  // One correlation id per request (API Gateway's request id), carried into every log line, queue message and
  // webhook delivery the request causes.
  return (event, context) => {
    coldStart(context.functionName);
    const requestId = event.requestContext?.requestId ?? context.awsRequestId ?? 'local';
    return withLogContext({ correlation_id: requestId, route: route.id }, () => handler(event, context));
  };
}

export type LambdaHttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

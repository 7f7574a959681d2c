import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Deps } from '../../app/deps';
import type { Principal } from '../../app/auth';
import type { SessionPrincipal } from '../../app/dashboard/sign-in';
import type { WindowLeft } from '../../app/rate-limit';
import { clientIp } from '../client-ip';
import { config } from '../../config';

/** Per-request state the middlewares fill in for the route function. */
export interface RequestState {
  deps: Deps;
  startedAt: number;
  ip: string;
  requestId: string;
  principal?: Principal;
  /** The signed-in dashboard owner (session routes). */
  session?: SessionPrincipal;
  body?: unknown;
  rawBody?: string;
  /** The body's exact bytes (routes with `rawBody`). */
  rawBytes?: Buffer;
  contentType?: string;
  query?: unknown;
  params?: unknown;
  /** The request limits this request was counted against (RateLimit-Policy / RateLimit headers), by policy name. */
  rates?: Array<{ name: string } & WindowLeft>;
}

export type HttpContext = Context & { state: RequestState };
export type Req = Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;
export type Mw = MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;

/** The state the first middleware attached to the Lambda context. */
export const stateOf = (context: Context): RequestState => (context as HttpContext).state;

/** Sets up the request state (deps, client IP, request id). */
export function requestState(depsOf: () => Deps): Mw {
  return {
    before: (req: Req) => {
      const e = req.event;
      const deps = depsOf();
      (req.context as HttpContext).state = {
        deps,
        startedAt: deps.clock.now(),
        ip: clientIp(e, config().EDGE_ORIGIN_SECRET),
        requestId: e.requestContext?.requestId ?? req.context.awsRequestId ?? 'local',
      };
    },
  };
}

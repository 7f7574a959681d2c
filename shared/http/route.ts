import type { z } from 'zod';
import type { KeyScope } from '../domain/api-key';
import type { Grant } from '../wiring/declaration';

/**
 * One entry of THE route table (functions/routes.ts). The CDK stack, the local server and the OpenAPI document are all
 * derived from these entries; the handler of route `id` lives in functions/http/<id>.ts.
 */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** AWS resources a route's function may use (THE wiring table, shared/wiring/declaration.ts); CDK grants exactly these. */
export type { Grant } from '../wiring/declaration';

export interface ResponseDef {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

export interface RouteDef {
  id: string;
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  /** open: no auth; key: bearer API key; session: dashboard session (403 for a key). */
  auth: 'open' | 'key' | 'session';
  /** Key routes: the key scope needed (403 key_scope without it); absent = `read` for GET/HEAD, `manage` otherwise. */
  scope?: KeyScope;
  /** Served only by the local runtime (e.g. /dev/outbox); never deployed. */
  localOnly?: boolean;
  /** Per-account (key routes) or per-IP (open routes) request limit of spec §8.1. */
  rateLimit?: { limit: number; windowSeconds: number };
  /** Request body: JSON validated with this schema; `optionalBody` lets an empty body stand for {}. */
  body?: z.ZodType;
  optionalBody?: boolean;
  /** Content types accepted besides JSON (e.g. text/csv); the handler gets the raw text for those. */
  extraContentTypes?: readonly string[];
  /** The body's exact bytes are handed to the function unparsed (`rawBytes`), e.g. for a signed provider webhook. */
  rawBody?: boolean;
  query?: z.ZodObject;
  params?: z.ZodObject;
  responses: Record<number, ResponseDef>;
  grants: readonly Grant[];
  /**
   * The function talks to the social networks (network adapters, OAuth sign-in providers): only then are they in its
   * bundle (shared/wiring/declaration.ts).
   */
  networks?: boolean;
  /** The function signs S3 URLs but needs no S3 permission (its bundle gets the S3 client, its role no S3 grant). */
  presigns?: boolean;
  timeoutSeconds?: number;
  memoryMb?: number;
  // --- MCP server ---
  /**
   * Browser clients (MCP endpoint, OAuth endpoints): an Origin outside the allow-list (shared/http/origins.ts) gets
   * 403, an allow-listed one gets CORS headers, and OPTIONS (list it in extraMethods) answers the preflight.
   */
  browserCors?: boolean;
  /** Project-relative handler file when it is not functions/http/<id>.ts (e.g. the MCP server's own function). */
  handler?: string;
  /** Other methods on the same path answered by the same function (the MCP endpoint answers 405 to GET itself). */
  extraMethods?: readonly HttpMethod[];
  /** The function also gets a Lambda function URL (no IAM auth: the function authenticates), output under this name. */
  functionUrlOutput?: string;
  /**
   * Deploy this route's function in its own stack `SocialPublishing-<stage>-<stack>` (routes on the same HTTP API),
   * so that the API stack stays under CloudFormation's 500 resources; default: the API stack.
   */
  stack?: string;
  /**
   * Its Lambda bundle is ES modules split at the handler's dynamic imports (infra/bundling.ts): a cold start loads and
   * compiles only the start-up chunk; what a later request needs loads with it. Default: one CommonJS file.
   */
  splitBundle?: boolean;
}

export const handlerFile = (route: Pick<RouteDef, 'id' | 'handler'>) => route.handler ?? `functions/http/${route.id}.ts`;

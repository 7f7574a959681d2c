import type { z } from 'zod';
import type { KeyScope } from '../domain/api-key';

/**
 * One entry of THE route table (functions/routes.ts). The CDK stack, the local server and the OpenAPI document are all
 * derived from these entries; the handler of route `id` lives in functions/http/<id>.ts.
 */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** AWS resources a route's function may use; the CDK stack grants exactly these. */
/** `oauthConfig`: read the OAuth client registrations under OAUTH_SSM_PREFIX in SSM Parameter Store. */
/** `bucket`: read, write and delete media objects; `bucketRead`: read them only. */
/** `billingConfig`: read Stripe's keys and prices under BILLING_SSM_PREFIX in SSM Parameter Store (billing routes only). */
/** `bedrock`: bedrock:InvokeModel on the configured model (BEDROCK_MODEL_ID) only (AI drafts, issue 12). */
/** `kms`: encrypt and decrypt secrets; `kmsEncrypt` / `kmsDecrypt`: only new data keys / only unwrapping them. */
export type Grant = 'table' | 'publishQueue' | 'webhookQueue' | 'bucket' | 'bucketRead' | 'scheduler' | 'kms' | 'kmsEncrypt' | 'kmsDecrypt' | 'ses' | 'oauthConfig' | 'billingConfig' | 'bedrock';

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
  // --- MCP server (issue 11) ---
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
}

export const handlerFile = (route: Pick<RouteDef, 'id' | 'handler'>) => route.handler ?? `functions/http/${route.id}.ts`;

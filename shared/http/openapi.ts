import * as z from 'zod';
import type { RouteDef } from './route';
import { requiredScope as requiredScopeOf } from '../domain/api-key';
import { ErrorBody } from '../api/schemas';

type Json = Record<string, unknown>;

/** Converts one zod schema to JSON Schema 2020-12, moving named sub-schemas (meta id) into `components`. */
function convert(schema: z.ZodType, components: Json, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io }) as Json;
  const { $schema: _s, $defs, ...rest } = out;
  const rewrite = (v: unknown): Json => JSON.parse(JSON.stringify(v).replaceAll('"#/$defs/', '"#/components/schemas/'));
  for (const [name, def] of Object.entries(($defs ?? {}) as Json)) components[name] = rewrite(def);
  return rewrite(rest);
}

const toOpenApiPath = (path: string) => path; // API Gateway and OpenAPI share the {param} form

/**
 * The answers the shared middleware chain (shared/http/middlewares/) can give on a route besides its own, with the
 * codes: a route's own entry for the same status names its use cases' codes and is kept, with these codes added.
 */
export function middlewareResponses(r: RouteDef): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  const add = (status: number, code: string) => { (out[status] ??= []).push(code); };
  if (r.auth === 'key') {
    add(401, 'unauthorized');
    add(403, 'key_scope');
    add(403, 'email_unverified');
    add(429, 'rate_limited');
    add(503, 'auth_unavailable');
  }
  if (r.auth === 'session') add(403, r.method === 'GET' || r.method === 'HEAD' ? 'session_required' : 'csrf_failed');
  if (r.rateLimit) add(429, 'rate_limited');
  // a browser route refuses an Origin outside the allow-list before anything runs (middlewares/browser-cors.ts)
  if (r.browserCors) add(403, 'origin_not_allowed');
  if (r.params) add(404, 'not_found');
  // every route refuses a query parameter it does not take (one without a query schema takes none), and a JSON
  // body with fields where it takes no body
  add(400, 'unknown_field');
  if (r.body || r.rawBody) add(413, 'payload_too_large');
  if (r.body && !r.rawBody) {
    add(400, 'invalid_request');
    add(400, 'invalid_json');
    add(400, 'unknown_field');
    add(415, 'unsupported_media_type');
  }
  if (r.localOnly) add(404, 'not_found');
  add(503, 'service_unavailable');
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...new Set(v)]]));
}

/** The tags of the route table, in the order they first appear, with a line each. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Catalog: 'The networks and plans on offer, and this document.',
  Account: 'Sign-up, the account and its usage.',
  'API keys': 'Keys with scopes (publish, read, manage).',
  Brands: "Brands keep each customer's connections apart.",
  Connections: 'Connecting networks: credentials, OAuth, hosted connect links, health.',
  Publishing: 'Publish, validate (dry run), and read posts and their per-network results.',
  Media: 'Uploads (presigned) and upload links.',
  Webhooks: 'Signed event deliveries.',
  Scheduling: 'Scheduled, bulk and recurring posts.',
  Local: 'The local runtime only (never deployed).',
  Billing: 'Plans, Stripe checkout and portal.',
  Dashboard: 'The hosted dashboard pages (session cookie).',
  Guardrails: 'Per key or AI app limits.',
  Approvals: 'Posts held for approval and their decisions.',
  MCP: 'The MCP server and its OAuth endpoints.',
  'AI drafts': 'Drafts written per network by a model.',
  Analytics: 'Post figures per network (impressions, reach, likes, comments, shares, …; null where not offered), totals, daily series, CSV.',
};

/** The OpenAPI 3.1 document, generated from the route table and its zod schemas. */
export function openApiDocument(routes: RouteDef[], serverUrl: string): Json {
  const schemas: Json = {};
  const paths: Record<string, Json> = {};
  for (const r of routes) {
    const parameters: Json[] = [];
    for (const [where, obj] of [['path', r.params], ['query', r.query]] as const) {
      if (!obj) continue;
      const js = convert(obj, schemas, 'input') as { properties?: Json; required?: string[] };
      for (const [name, schema] of Object.entries(js.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema });
      }
    }
    const responses: Json = {};
    const implied = middlewareResponses(r);
    for (const [status, res] of Object.entries(r.responses)) {
      const extra = (implied[Number(status)] ?? []).filter((c) => !res.description.includes(c));
      responses[status] = {
        description: extra.length ? `${res.description}; also ${extra.join(', ')}` : res.description,
        ...(res.schema ? { content: { [res.contentType ?? 'application/json']: { schema: convert(res.schema, schemas, 'output') } } } : {}),
      };
    }
    for (const [status, codes] of Object.entries(implied)) {
      if (responses[status]) continue;
      responses[status] = { description: codes.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    const description = [
      r.summary.endsWith('.') ? r.summary : `${r.summary}.`,
      r.auth === 'key' ? `Auth: an API key with the ${requiredScopeOf(r)} scope.` : r.auth === 'session' ? 'Auth: a dashboard session (API keys are refused).' : 'Auth: none.',
      ...(r.rateLimit ? [`Limit: ${r.rateLimit.limit} requests per ${r.rateLimit.windowSeconds} s per ${r.auth === 'open' ? 'IP address' : 'account'}, besides the key's per-minute rate.`] : []),
    ].join(' ');
    const op: Json = {
      operationId: r.id, summary: r.summary, description, tags: [r.tag],
      ...(r.auth === 'open' ? { security: [] } : {}),
      ...(r.auth === 'session' ? { security: [{ sessionCookie: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(r.body ? {
        requestBody: {
          required: !r.optionalBody,
          content: {
            'application/json': { schema: convert(r.body, schemas, 'input') },
            ...Object.fromEntries((r.extraContentTypes ?? []).map((ct) => [ct, { schema: { type: 'string' } }])),
          },
        },
      } : {}),
      responses,
    };
    const p = toOpenApiPath(r.path);
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: op };
  }
  schemas.Error ??= convert(ErrorBody, schemas, 'output');
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Social Publishing API', version: '0.1.0', description: 'Publish to many social and publishing networks with one call.',
      contact: { name: 'The operators of this deployment', url: `${serverUrl.replace(/\/$/, '')}/dashboard` },
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: { schemas, securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: svc_live_…' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: '__Host-session', description: 'The dashboard session (docs/dashboard.md); API keys are refused with 403 session_required' },
    } },
  };
}

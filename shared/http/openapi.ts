import * as z from 'zod';
import type { RouteDef } from './route';

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
    for (const [status, res] of Object.entries(r.responses)) {
      responses[status] = {
        description: res.description,
        ...(res.schema ? { content: { [res.contentType ?? 'application/json']: { schema: convert(res.schema, schemas, 'output') } } } : {}),
      };
    }
    const op: Json = {
      operationId: r.id, summary: r.summary, tags: [r.tag],
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
  return {
    openapi: '3.1.0',
    info: { title: 'Social Publishing API', version: '0.1.0', description: 'Publish to many social and publishing networks with one call.' },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: { schemas, securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: svc_live_…' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: '__Host-session', description: 'The dashboard session (docs/dashboard.md); API keys are refused with 403 session_required' },
    } },
  };
}

import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';

interface Parameter { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Record<string, unknown>; $ref?: string }
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}
/** Checks a request; `answer` also checks the simulator's reply to it against the documented response. */
export type ContractCheck = ((req: RecordedRequest) => Promise<string[]>) & { answer(req: RecordedRequest, reply: { status?: number; body?: unknown }): Promise<string[]> };

export interface OpenApiDoc { paths: Record<string, Record<string, Operation | Parameter[]>>; components?: { parameters?: Record<string, Parameter> } }

/**
 * Checks requests against a network's published OpenAPI 3.0 document: the method and path are an operation of the
 * document, path and query parameters fit their schemas (arrays as comma-separated `form` values, no undeclared
 * query parameter), and a JSON or multipart body fits the operation's request body schema (for multipart, each part
 * is a string field, a file part included). `only` narrows the check to the paths the document covers; `basePath` is
 * the path of the document's server URL (Pinterest's paths are under /v5).
 */
export function openApiRequestCheck(doc: OpenApiDoc, only: (req: RecordedRequest) => boolean, basePath = ''): ContractCheck {
  const strict = new Ajv({ strict: false, allErrors: true });
  const coercing = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
  for (const ajv of [strict, coercing]) {
    addFormats(ajv);
    ajv.addFormat('binary', true);
    // X's document writes `format: integer` on integer-valued strings and `format: long` on numbers; the type
    // already says what matters
    ajv.addFormat('integer', true);
    ajv.addFormat('long', true);
    ajv.addSchema(stripLoneNullable(doc) as object, 'doc');
  }
  const compiled = new Map<Ajv, Map<unknown, ValidateFunction>>([[strict, new Map()], [coercing, new Map()]]);
  const validator = (ajv: Ajv, schema: Record<string, unknown>): ValidateFunction => {
    let v = compiled.get(ajv)!.get(schema);
    // the document's own "#/components/…" refs resolve inside it
    if (!v) compiled.get(ajv)!.set(schema, (v = ajv.compile(rebase(schema) as object)));
    return v;
  };
  const errors = (v: ValidateFunction, where: string) => (v.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
  const routes = Object.entries(doc.paths).map(([template, item]) => ({
    template,
    pattern: new RegExp(`^${basePath}${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{(\w+)\\\}/g, '(?<$1>[^/]+)')}$`),
    item,
  }));
  const param = (p: Parameter): Parameter => (p.$ref ? doc.components!.parameters![p.$ref.split('/').pop()!] : p);

  const check = async (req: RecordedRequest, reply?: { status?: number; body?: unknown }): Promise<string[]> => {
    if (!only(req)) return [];
    const method = req.method.toLowerCase();
    const matches = routes.filter((r) => r.pattern.test(req.path) && r.item[method]);
    // a literal path wins over a templated one (/2/media/upload vs /2/media/{media_key})
    const route = matches.find((r) => !r.template.includes('{')) ?? matches[0];
    if (!route) return [`${req.method} ${req.path} is no operation of the document`];
    const op = route.item[method] as Operation;
    const params = [...((route.item.parameters as Parameter[] | undefined) ?? []), ...(op.parameters ?? [])].map(param);
    const out: string[] = [];
    const pathValues = route.pattern.exec(req.path)!.groups ?? {};
    for (const p of params) {
      if (p.in === 'path') {
        const v = validator(coercing, p.schema ?? {});
        if (!v(decodeURIComponent(pathValues[p.name] ?? ''))) out.push(...errors(v, `path ${p.name}`));
      }
      if (p.in !== 'query') continue;
      const raw = req.url.searchParams.get(p.name);
      if (raw === null) { if (p.required) out.push(`query ${p.name} is required`); continue; }
      const value = p.schema?.type === 'array' ? raw.split(',') : raw;
      const v = validator(coercing, p.schema ?? {});
      if (!v(value)) out.push(...errors(v, `query ${p.name}`));
    }
    for (const name of new Set(req.url.searchParams.keys())) {
      if (!params.some((p) => p.in === 'query' && p.name === name)) out.push(`query ${name} is not a parameter of ${route.template}`);
    }
    out.push(...await bodyViolations(op, req));
    if (reply) out.push(...answerViolations(op, reply));
    return out;
  };

  async function bodyViolations(op: Operation, req: RecordedRequest): Promise<string[]> {
    const out: string[] = [];
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim();
    const content = op.requestBody?.content;
    if (!req.body.length) return op.requestBody?.required ? ['a request body is required'] : [];
    if (!content?.[type]) return [`body of type "${type}" where the operation takes ${content ? Object.keys(content).join(', ') : 'none'}`];
    if (type === 'application/json') {
      const v = validator(strict, content[type].schema);
      if (!v(req.json)) out.push(...errors(v, 'body'));
    } else if (type === 'multipart/form-data') {
      const form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
      const fields: Record<string, unknown> = {};
      form.forEach((value, k) => { fields[k] = typeof value === 'string' ? value : `<file ${value.size} bytes>`; });
      // form values stay strings, as the document's string alternatives expect (segment_index: "0")
      const v = validator(strict, content[type].schema);
      if (!v(fields)) out.push(...errors(v, 'form'));
    }
    return out;
  }

  /** A simulator's answer against the operation's documented response of that status (JSON bodies only). */
  function answerViolations(op: Operation, reply: { status?: number; body?: unknown }): string[] {
    const status = String(reply.status ?? 200);
    const res = op.responses?.[status] ?? (status.startsWith('2') ? undefined : op.responses?.default);
    if (!res) return status.startsWith('2') ? [`answer ${status} is not a documented status`] : [];
    const schema = res.content?.['application/json']?.schema;
    if (!schema || reply.body === undefined || Buffer.isBuffer(reply.body) || typeof reply.body === 'string') return [];
    const v = validator(strict, schema);
    return v(reply.body) ? [] : errors(v, `answer ${status}`);
  }

  return Object.assign((req: RecordedRequest) => check(req), { answer: check });
}

/** "#/components/…" refs of a schema taken out of the document, pointed back at it (also in the document itself). */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!schema || typeof schema !== 'object') return schema;
  // OpenAPI 3.0 allows `nullable` beside allOf without a type; ajv refuses to compile that, and it adds nothing there
  const entries = Object.entries(schema).filter(([k]) => !(k === 'nullable' && !('type' in schema)));
  return Object.fromEntries(entries.map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `doc${v}` : rebase(v)]));
}

/** The document with `nullable` removed where no `type` stands beside it (see rebase). */
function stripLoneNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripLoneNullable);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => !(k === 'nullable' && !('type' in node))).map(([k, v]) => [k, stripLoneNullable(v)]));
}

import { SERVER_INFO, SERVER_INSTRUCTIONS, serverCapabilities } from './server-identity';

/**
 * The answers to a connection's opening requests — `initialize` (2025 revisions), `server/discover` (2026-07-28)
 * and a 2025 `ping` — built without the MCP SDK: no Server, no transport, no web Request/Response, so a cold start
 * that opens with them neither evaluates the SDK's protocol schemas nor loads Node's fetch implementation. Only a
 * request of exactly the shape below is answered here; anything else (another method, an unknown capability or
 * client field, a `_meta` beyond the 2026 envelope, a header the SDK would weigh) returns undefined and goes to the
 * SDK. For the shapes answered here the status, headers and body are byte for byte the SDK's: the
 * equivalence test (test/mcp/fast-answers.test.ts) sends a matrix of requests through both and compares.
 */

/** The 2025-era revisions the SDK negotiates at initialize, its preference first (its SUPPORTED_PROTOCOL_VERSIONS). */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

/** The revisions the SDK serves per request, listed by server/discover. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/** The envelope keys of a 2026-07-28 request's `_meta`. */
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** A ready answer: what the SDK's transport would have returned for the same request. */
export interface FastAnswer { status: 200; headers: Record<string, string>; body: string }

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasOnly = (o: Json, keys: readonly string[]): boolean => Object.keys(o).every((k) => keys.includes(k));
const optional = (o: Json, key: string, ok: (v: unknown) => boolean): boolean => o[key] === undefined || ok(o[key]);
const isString = (v: unknown): v is string => typeof v === 'string';
const isRecordOfObjects = (v: unknown): boolean => isObject(v) && Object.values(v).every(isObject);

/** A client's name and version (the SDK's Implementation) with no field it would strip or check further. */
const isClientInfo = (v: unknown): boolean => isObject(v) && hasOnly(v, ['name', 'version', 'title', 'websiteUrl', 'description'])
  && isString(v.name) && isString(v.version) && optional(v, 'title', isString) && optional(v, 'websiteUrl', isString) && optional(v, 'description', isString);

/** Capabilities the SDK's schema accepts as they are: known keys only, each of the type the schema asks. */
function isCapabilities(v: unknown, era: 'legacy' | 'modern'): boolean {
  if (!isObject(v)) return false;
  const known = era === 'legacy' ? ['experimental', 'sampling', 'elicitation', 'roots', 'tasks', 'extensions'] : ['experimental', 'sampling', 'elicitation', 'roots', 'extensions'];
  if (!hasOnly(v, known)) return false;
  const { experimental, sampling, elicitation, roots, tasks, extensions } = v;
  if (experimental !== undefined && !isRecordOfObjects(experimental)) return false;
  if (extensions !== undefined && !isRecordOfObjects(extensions)) return false;
  if (sampling !== undefined && !(isObject(sampling) && hasOnly(sampling, ['context', 'tools']) && optional(sampling, 'context', isObject) && optional(sampling, 'tools', isObject))) return false;
  if (elicitation !== undefined && !(isObject(elicitation) && hasOnly(elicitation, ['form', 'url'])
    && optional(elicitation, 'form', (f) => isObject(f) && hasOnly(f, ['applyDefaults']) && optional(f, 'applyDefaults', (b) => typeof b === 'boolean')) && optional(elicitation, 'url', (u) => isObject(u) && hasOnly(u, [])))) return false;
  if (roots !== undefined && !(isObject(roots) && hasOnly(roots, ['listChanged']) && optional(roots, 'listChanged', (b) => typeof b === 'boolean'))) return false;
  if (tasks !== undefined && !(isObject(tasks) && hasOnly(tasks, []))) return false;
  return true;
}

/** A JSON-RPC request the SDK's message schema accepts: exactly jsonrpc, id (string or integer), method, params. */
const isRequest = (b: Json): b is Json & { id: string | number } => hasOnly(b, ['jsonrpc', 'id', 'method', 'params']) && b.jsonrpc === '2.0'
  && (typeof b.id === 'string' || Number.isSafeInteger(b.id));

/** Content types the SDK takes as JSON, in the spellings clients send (any other spelling goes to the SDK's own check). */
const JSON_TYPES = ['application/json', 'application/json; charset=utf-8'];

const json = (message: Json): FastAnswer => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });

/** The request's headers by lower-case name (a function URL's are lower case already; the local runtime's may not be). */
function lowerCased(headers: Record<string, string | undefined> | undefined): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

/**
 * The SDK's answer to this request when it is one of the shapes above, else undefined. Call only for an authenticated
 * POST whose body parsed as JSON (the handler's checks before the SDK are the same for both paths).
 */
export function fastAnswer(rawHeaders: Record<string, string | undefined> | undefined, body: unknown): FastAnswer | undefined {
  if (!isObject(body) || !isRequest(body)) return undefined;
  const headers = lowerCased(rawHeaders);
  const accept = headers.accept;
  if (!JSON_TYPES.includes(headers['content-type'] ?? '') || !accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  const version = headers['mcp-protocol-version'];
  const { id, method, params } = body;
  if (method === 'server/discover') return discover(id, params, version, headers);
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return undefined;
  if (version !== undefined && !(LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version)) return undefined;
  if (method === 'initialize') return initialize(id, params);
  if (method === 'ping' && (params === undefined || (isObject(params) && hasOnly(params, [])))) return json({ result: {}, jsonrpc: '2.0', id });
  return undefined;
}

/** initialize (2025 revisions): the requested revision when the SDK serves it, else its latest. */
function initialize(id: string | number, params: unknown): FastAnswer | undefined {
  if (!isObject(params) || !hasOnly(params, ['protocolVersion', 'capabilities', 'clientInfo'])) return undefined;
  if (!isString(params.protocolVersion) || !isCapabilities(params.capabilities, 'legacy') || !isClientInfo(params.clientInfo)) return undefined;
  const requested = params.protocolVersion;
  const protocolVersion = (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : LEGACY_PROTOCOL_VERSIONS[0];
  return json({
    result: { protocolVersion, capabilities: serverCapabilities(), serverInfo: SERVER_INFO, instructions: SERVER_INSTRUCTIONS },
    jsonrpc: '2.0', id,
  });
}

/** server/discover (2026-07-28): the request's envelope and standard headers as the SDK requires them. */
function discover(id: string | number, params: unknown, version: string | undefined, headers: Record<string, string | undefined>): FastAnswer | undefined {
  if (version !== MODERN_PROTOCOL_VERSIONS[0] || headers['mcp-method'] !== 'server/discover' || headers['mcp-name'] !== undefined) return undefined;
  if (!isObject(params) || !hasOnly(params, ['_meta']) || !isObject(params._meta)) return undefined;
  const meta = params._meta;
  if (!hasOnly(meta, [PROTOCOL_VERSION_KEY, CLIENT_INFO_KEY, CLIENT_CAPABILITIES_KEY]) || meta[PROTOCOL_VERSION_KEY] !== version
    || !isClientInfo(meta[CLIENT_INFO_KEY]) || !isCapabilities(meta[CLIENT_CAPABILITIES_KEY], 'modern')) return undefined;
  return json({
    result: {
      supportedVersions: MODERN_PROTOCOL_VERSIONS, capabilities: serverCapabilities(), instructions: SERVER_INSTRUCTIONS,
      resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { [SERVER_INFO_KEY]: SERVER_INFO },
    },
    jsonrpc: '2.0', id,
  });
}

import { requireScope } from '../../shared/app/auth';
import { requiredScope } from '../../shared/domain/api-key';
import * as z from 'zod';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type InputRequiredResult, type ServerContext, type Tool } from '@modelcontextprotocol/server';
import { hit, perMinute } from '../../shared/app/rate-limit';
import { PLANS } from '../../shared/domain/plans';
import { AppError } from '../../shared/domain/errors';
import { errorFields, log } from '../../shared/log';
import type { ToolContext, ToolDef } from './tools';
import { internalFailure, invalidInput, toolFailure, unknownField, type ToolFailure } from './errors';
import { describeInput } from './schema-docs';
import { prototypeKeys } from '../../shared/app/unknown-fields';
import { ICONS } from './icons';
import { SERVER_INFO, SERVER_INSTRUCTIONS, serverCapabilities } from './server-identity';
import { completePromptArgument, getPrompt, PROMPTS } from './prompts';
import { actionOf, askToOpen, mayAsk, openResult, pushAction, sealResult, type Asking, type UrlElicitation } from './ask-user';

type Json = Record<string, unknown>;

/**
 * The tools and resources, with every use case and REST schema behind them: evaluated by the first request that needs
 * them, not at a cold start's initialize / server/discover (docs/decisions.md "MCP cold start"). esbuild keeps a
 * dynamically imported module out of the bundle's start-up code. The module's promise is kept: an `import()` per call
 * costs a module-namespace copy in the bundle and, under tsx (the local runtime), a round trip to its loader thread
 * (about 0.3 ms of CPU, twice per tools/call).
 */
let toolsModule: Promise<typeof import('./tools')> | undefined;
let resourcesModule: Promise<typeof import('./resources')> | undefined;
const tools = () => (toolsModule ??= import('./tools'));
const resources = () => (resourcesModule ??= import('./resources'));

/**
 * JSON Schema (2020-12 vocabulary, no $schema key) of a tool's input or output zod schema. A named schema (meta id)
 * comes out as a bare $ref; MCP wants `type: object` at the root, so the root definition is inlined.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as Json;
  const ref = typeof rest.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(rest.$ref)?.[1] : undefined;
  if (ref === undefined) return rest;
  const defs = rest.$defs as Record<string, Json>;
  const { [ref]: root, ...others } = defs;
  return { ...root, ...(Object.keys(others).length ? { $defs: others } : {}) };
}

let listed: Tool[] | undefined;
/** The tools/list answer (computed once per cold start). */
export async function toolList(): Promise<Tool[]> {
  const { TOOLS } = await tools();
  listed ??= TOOLS.map((t) => ({
    name: t.name, title: t.title, description: t.description,
    inputSchema: describeInput(jsonSchema(t.input, 'input')) as Tool['inputSchema'],
    outputSchema: jsonSchema(t.output, 'output') as Tool['outputSchema'],
    annotations: { title: t.title, ...t.annotations },
    icons: ICONS,
  }));
  return listed;
}

/**
 * The one text block every result carries: the summary line first, then the same object as structuredContent as
 * compact JSON (most clients hand the model only `content`, so the data must be there too).
 */
export const resultText = (summary: string, data: unknown): string => textOf(summary, JSON.stringify(data));
const textOf = (summary: string, json: string): string => `${summary}\n${json}`;

/**
 * A failed call: isError with {code, error, what, fix, ...} in the text block (the error line first). Not as
 * structuredContent: clients check structuredContent against the tool's outputSchema even on errors (the v1 SDK's
 * Client does), and a failure is not the tool's output.
 */
const failed = (f: ToolFailure): CallToolResult => ({ isError: true, content: [{ type: 'text', text: resultText(`Failed (${f.code}): ${f.error}`, f) }] });

/**
 * Limits of one tool call: the caller's requests a minute (its own counter: `key#<id>` is the API key's REST counter,
 * `app#<id>` an AI app's), then the REST route's own limit per account.
 */
async function limit(ctx: ToolContext, def: ToolDef): Promise<void> {
  const { deps, principal } = ctx;
  await hit(deps, `${principal.actor.kind}#${principal.actor.id}`, perMinute(PLANS[principal.account.plan].api_requests_per_minute_per_key));
  if (def.route?.rateLimit) await hit(deps, `${def.route.id}#acc#${principal.account.id}`, def.route.rateLimit);
}

/**
 * Runs one tool: validate the input, count the limits, call the use case; a domain failure is a tool result. Where the
 * user must act (connect a network, approve a held post) the result says so plainly (`user_action`), and a client that
 * can open URLs for its user is also asked through its revision's means (`asking`, ask-user.ts).
 */
export async function callTool(ctx: ToolContext, name: string, args: unknown, requestId: string): Promise<CallToolResult>;
export async function callTool(ctx: ToolContext, name: string, args: unknown, requestId: string, asking: Asking | undefined): Promise<CallToolResult | InputRequiredResult>;
export async function callTool(ctx: ToolContext, name: string, args: unknown, requestId: string, asking?: Asking): Promise<CallToolResult | InputRequiredResult> {
  const { TOOLS, toolByName } = await tools();
  const def = toolByName.get(name);
  if (!def) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${name}: tools/list names the ${TOOLS.length} tools`);
  // the retry of a call whose work was done: its sealed result, never the work twice
  if (asking?.kind === 'input-required' && asking.state !== undefined) return openResult(ctx, name, asking.state);
  // a `__proto__` key no schema can name is refused, as the REST API refuses it, never silently dropped
  const unnameable = prototypeKeys(args);
  if (unnameable.length) return failed(unknownField(unnameable.map((u) => u.field)));
  const parsed = def.input.safeParse(args ?? {});
  if (!parsed.success) return failed(invalidInput(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))));
  try {
    // each tool needs the scope of the REST route it wraps (a read-only key lists, a publish key posts)
    if (def.route) requireScope(ctx.principal, requiredScope(def.route));
    await limit(ctx, def);
    if (def.precheck && mayAsk(asking, 'connect')) {
      const before = await def.precheck(ctx, parsed.data);
      if (before) return askToOpen(before);
    }
    // the answer as JSON once: structuredContent is its parse (plain data, as the client receives it) and the text
    // block carries the same characters
    const json = JSON.stringify(await def.run(ctx, parsed.data));
    const out = JSON.parse(json) as Json;
    const checked = def.output.safeParse(out);
    if (!checked.success) throw new Error(`${name} answered outside its output schema: ${checked.error.message}`);
    const result: CallToolResult = { structuredContent: out, content: [{ type: 'text', text: textOf(def.summary(checked.data), json) }] };
    const action = actionOf(out);
    if (action && mayAsk(asking, action.kind)) return askToOpen(action, await sealResult(ctx, name, result));
    await pushAction(asking, action);
    return result;
  } catch (err) {
    if (err instanceof AppError) return failed(toolFailure(err));
    log.error('mcp tool failed', { tool: name, request_id: requestId, ...errorFields(err) });
    return failed(internalFailure(requestId));
  }
}

/** Whether a JSON-RPC message calls a tool whose use case reads the publishing context (ToolDef.publishing). */
export async function callsPublishingTool(message: unknown): Promise<boolean> {
  const m = message as { method?: unknown; params?: { name?: unknown } } | null;
  if (typeof m !== 'object' || m === null || m.method !== 'tools/call' || typeof m.params?.name !== 'string') return false;
  return (await tools()).toolByName.get(m.params.name)?.publishing === true;
}

/** Runs a resource or prompt use case: a domain failure is a JSON-RPC error naming its code (not found → invalid params). */
async function guarded<T>(what: string, requestId: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    if (err instanceof AppError) throw new ProtocolError(err.status === 404 || err.status === 400 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError, `${err.message} (${err.code})`, toolFailure(err));
    log.error('mcp request failed', { what, request_id: requestId, ...errorFields(err) });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error: nothing was changed; try again (request_id ${requestId})`);
  }
}

/** Whether capabilities declare URL-mode elicitation (`elicitation.url`). */
const opensUrls = (capabilities: unknown): boolean => {
  const elicitation = (capabilities as { elicitation?: { url?: unknown } } | undefined)?.elicitation;
  return typeof elicitation?.url === 'object' && elicitation.url !== null;
};

/** How a 2025-era request may push an elicitation to its client: only a tools/call of a session that can open URLs. */
export type PushElicitation = (relatedRequestId: string | number, elicitation: UrlElicitation) => Promise<void>;

/** How this tools/call may ask its user (ask-user.ts): from the request's own envelope (2026-07-28) or the 2025 session. */
function askingOf(era: 'legacy' | 'modern', req: ServerContext, push?: PushElicitation): Asking | undefined {
  if (era === 'modern') {
    if (!opensUrls((req.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY])) return undefined;
    const state = req.mcpReq.requestState();
    return { kind: 'input-required', answered: new Set(Object.keys(req.mcpReq.inputResponses ?? {})), ...(typeof state === 'string' ? { state } : {}) };
  }
  return push ? { kind: 'push', send: (e) => push(req.mcpReq.id, e) } : undefined;
}

/**
 * A new MCP server for one request (stateless: it lives as long as the HTTP request), for either protocol era. Tools,
 * resources (read scope), prompts and argument completions; nothing changes between calls, so no listChanged.
 */
export function mcpServer(ctx: ToolContext, requestId: string, era: 'legacy' | 'modern' = 'legacy', push?: PushElicitation): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: serverCapabilities(),
    instructions: SERVER_INSTRUCTIONS,
    // elicitation answers are never validated here (URL mode only: nothing comes back but accept/decline): no JSON Schema validator is built
    jsonSchemaValidator: { getValidator: () => (input: unknown) => ({ valid: true, data: input, errorMessage: undefined }) } as never,
  });
  server.setRequestHandler('tools/list', async () => ({ tools: await toolList() }));
  server.setRequestHandler('tools/call', (req, extra) => callTool(ctx, req.params.name, req.params.arguments, requestId, askingOf(era, extra, push)));
  server.setRequestHandler('resources/list', async () => ({ resources: (await resources()).listResources() }));
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: (await resources()).listResourceTemplates() }));
  server.setRequestHandler('resources/read', (req) => guarded('resources/read', requestId, async () => (await resources()).readResource(ctx, req.params.uri)));
  server.setRequestHandler('prompts/list', () => ({ prompts: PROMPTS.map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: p.arguments, icons: ICONS })) }));
  server.setRequestHandler('prompts/get', (req) => guarded('prompts/get', requestId, async () => getPrompt(ctx, req.params.name, req.params.arguments ?? {})));
  server.setRequestHandler('completion/complete', (req) => guarded('completion/complete', requestId, () => completePromptArgument(ctx, req.params)));
  return server;
}

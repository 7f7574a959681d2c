import { requireScope } from '../../shared/app/auth';
import { requiredScope } from '../../shared/domain/api-key';
import * as z from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { hit, perMinute } from '../../shared/app/rate-limit';
import { PLANS } from '../../shared/domain/plans';
import { AppError } from '../../shared/domain/errors';
import { errorFields, log } from '../../shared/log';
import { TOOLS, toolByName, type ToolContext, type ToolDef } from './tools';
import { internalFailure, invalidInput, toolFailure, type ToolFailure } from './errors';

export const SERVER_INFO = { name: 'social-publishing', title: 'Social publishing', version: '0.1.0' } as const;

const INSTRUCTIONS = 'Publish one post to up to 16 social networks with post_to_social (one result per network), schedule it with '
  + 'schedule_post, and follow it with get_post_status. Connect networks with create_connect_link. Send an '
  + 'idempotency_key with each publish so that a retry never posts twice. Held posts wait for the account owner: no '
  + 'tool approves a post.';

type Json = Record<string, unknown>;

/**
 * JSON Schema (2020-12 vocabulary, no $schema key) of a tool's input or output zod schema. A named schema (meta id)
 * comes out as a bare $ref; MCP wants `type: object` at the root, so the root definition is inlined.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as Json;
  const ref = typeof rest.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(rest.$ref)?.[1] : undefined;
  if (ref === undefined) return rest as Tool['inputSchema'];
  const defs = rest.$defs as Record<string, Json>;
  return { ...defs[ref], $defs: defs } as unknown as Tool['inputSchema'];
}

let listed: Tool[] | undefined;
/** The tools/list answer (computed once per cold start). */
export function toolList(): Tool[] {
  listed ??= TOOLS.map((t) => ({
    name: t.name, title: t.title, description: t.description,
    inputSchema: jsonSchema(t.input, 'input'),
    outputSchema: jsonSchema(t.output, 'output') as Tool['outputSchema'],
    annotations: { title: t.title, ...t.annotations },
  }));
  return listed;
}

/**
 * A failed call: isError with {code, error, what, fix, ...} as JSON text. Not as structuredContent: clients check
 * structuredContent against the tool's outputSchema even on errors (the SDK's Client does), and a failure is not
 * the tool's output.
 */
const failed = (f: ToolFailure): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(f) }] });

/**
 * Limits of one tool call: the caller's requests a minute (its own counter: `key#<id>` is the API key's REST counter,
 * `app#<id>` an AI app's), then the REST route's own limit per account.
 */
async function limit(ctx: ToolContext, def: ToolDef): Promise<void> {
  const { deps, principal } = ctx;
  await hit(deps, `${principal.actor.kind}#${principal.actor.id}`, perMinute(PLANS[principal.account.plan].api_requests_per_minute_per_key));
  if (def.route?.rateLimit) await hit(deps, `${def.route.id}#acc#${principal.account.id}`, def.route.rateLimit);
}

/** Runs one tool: validate the input, count the limits, call the use case; a domain failure is a tool result. */
export async function callTool(ctx: ToolContext, name: string, args: unknown, requestId: string): Promise<CallToolResult> {
  const def = toolByName.get(name);
  if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}: tools/list names the 21 tools`);
  const parsed = def.input.safeParse(args ?? {});
  if (!parsed.success) return failed(invalidInput(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))));
  try {
    // each tool needs the scope of the REST route it wraps (a read-only key lists, a publish key posts)
    if (def.route) requireScope(ctx.principal, requiredScope(def.route));
    await limit(ctx, def);
    const out = JSON.parse(JSON.stringify(await def.run(ctx, parsed.data))) as Json;
    const checked = def.output.safeParse(out);
    if (!checked.success) throw new Error(`${name} answered outside its output schema: ${checked.error.message}`);
    return { structuredContent: out, content: [{ type: 'text', text: def.summary(checked.data) }] };
  } catch (err) {
    if (err instanceof AppError) return failed(toolFailure(err));
    log.error('mcp tool failed', { tool: name, request_id: requestId, ...errorFields(err) });
    return failed(internalFailure(requestId));
  }
}

/** A new MCP server for one request (stateless: the transport and server live as long as the HTTP request). */
export function mcpServer(ctx: ToolContext, requestId: string): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, (req) => callTool(ctx, req.params.name, req.params.arguments, requestId));
  return server;
}

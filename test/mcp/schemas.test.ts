import { routes } from '../../functions/routes';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import { toolList, resultText } from '../../functions/mcp/server';
import { SERVER_INSTRUCTIONS } from '../../functions/mcp/server-identity';
import type { Tool } from '@modelcontextprotocol/server';
import { MCP_ROUTE, TOOL_ROUTES } from '../../functions/mcp/tool-routes';
import { explainCode, KNOWN_CODES, mcpFix } from '../../functions/mcp/errors';
import { RESULT_CODES } from '../../shared/domain/result-codes';
import { ID_PREFIXES } from '../../shared/domain/ids';
import { listResources, listResourceTemplates } from '../../functions/mcp/resources';
import { PROMPTS } from '../../functions/mcp/prompts';

type Json = Record<string, any>;

/** Every property of a JSON Schema, with its path (nested objects, array items, unions and $defs included). */
function properties(node: unknown, at: string, out: Array<[string, Json]> = []): Array<[string, Json]> {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) { node.forEach((n, i) => properties(n, `${at}[${i}]`, out)); return out; }
  const s = node as Json;
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Json>)) { out.push([`${at}.${k}`, v]); properties(v, `${at}.${k}`, out); }
  for (const key of ['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf']) properties(s[key], `${at}.${key}`, out);
  for (const [k, v] of Object.entries((s.$defs ?? {}) as Record<string, Json>)) properties(v, `${at}.$defs.${k}`, out);
  return out;
}

describe('tool schemas say what to send', () => {
  let tools: Tool[];
  beforeAll(async () => { tools = await toolList(); });

  it('every input property of every tool has a description', () => {
    const undescribed = tools.flatMap((t) => properties(t.inputSchema, t.name)).filter(([, p]) => typeof p.description !== 'string' || p.description.length < 8).map(([at]) => at);
    expect(undescribed).toEqual([]);
  });

  it('networks are enums of every network name, text a string with its limit, run_at its format and time zone rule, with examples', () => {
    const post = tools.find((t) => t.name === 'post_to_social')!.inputSchema as Json;
    expect(post.properties.platform.enum).toEqual([...PLATFORM_NAMES]);
    expect(post.properties.platforms.items.enum).toEqual([...PLATFORM_NAMES]);
    expect(post.properties.text).toMatchObject({ type: 'string', maxLength: 100_000, description: expect.stringMatching(/text_too_long/) });
    expect(post.properties.idempotency_key.examples).toHaveLength(1);
    const schedule = tools.find((t) => t.name === 'schedule_post')!.inputSchema as Json;
    expect(schedule.properties.run_at.description).toMatch(/offset/);
    expect(schedule.properties.run_at.examples).toContain('next_slot');
    expect((tools.find((t) => t.name === 'check_connection')!.inputSchema as Json).properties.platform.enum).toHaveLength(PLATFORM_NAMES.length);
    expect((tools.find((t) => t.name === 'generate_posts')!.inputSchema as Json).properties.platforms.items.enum).toHaveLength(PLATFORM_NAMES.length);
  });

  it('every id a tool takes says which tool answers it; platform offers platforms only where the tool takes both', () => {
    const toolNames = new Set(tools.map((t) => t.name));
    const vague = tools.flatMap((t) => Object.entries(((t.inputSchema as Json).properties ?? {}) as Record<string, Json>)
      .filter(([k]) => /^id$|_id$|^token$/.test(k))
      .filter(([, p]) => !(String(p.description).match(/\b[a-z]+_[a-z_]+\b/g) ?? []).some((w) => toolNames.has(w)))
      .map(([k, p]) => `${t.name}.${k}: ${p.description}`));
    expect(vague).toEqual([]);
    const misleading = tools.filter((t) => {
      const props = ((t.inputSchema as Json).properties ?? {}) as Record<string, Json>;
      return props.platform && !props.platforms && /\bplatforms\b/.test(String(props.platform.description));
    }).map((t) => t.name);
    expect(misleading).toEqual([]);
  });

  it('an input property tells the MCP way, never a REST path, and every id prefix it shows is a real one', () => {
    const rest = tools.flatMap((t) => properties(t.inputSchema, t.name)).filter(([, p]) => /\/api\/|\b(GET|POST|PATCH|DELETE) \//.test(String(p.description))).map(([at, p]) => `${at}: ${p.description}`);
    expect(rest).toEqual([]);
    const prefixes = tools.flatMap((t) => [...JSON.stringify([t.description, t.inputSchema, t.outputSchema]).matchAll(/\b([a-z]+)_…/g)].map((m) => `${t.name}: ${m[1]}_`));
    expect(prefixes.length).toBeGreaterThan(0);
    expect(prefixes.filter((p) => !(ID_PREFIXES as readonly string[]).includes(p.split(': ')[1]!.slice(0, -1)))).toEqual([]);
    const validateRunAt = (tools.find((t) => t.name === 'validate_post')!.inputSchema as Json).properties.run_at;
    expect(validateRunAt.description).toMatch(/offset/);
  });

  it('every tool has a title, an icon and an output schema', () => {
    for (const t of tools) {
      expect([t.name, t.title, t.icons?.[0]?.mimeType, (t.outputSchema as Json | undefined)?.type]).toEqual([t.name, expect.any(String), 'image/svg+xml', 'object']);
    }
  });
});

describe('what the server tells an agent about the networks', () => {
  it('every count of networks in a tool, resource or prompt text is the number of networks there are', async () => {
    const texts = [
      SERVER_INSTRUCTIONS,
      ...(await toolList()).flatMap((t) => [t.description ?? '', JSON.stringify(t.inputSchema)]),
      ...listResources().map((r) => r.description ?? ''), ...listResourceTemplates().map((r) => r.description ?? ''),
      ...PROMPTS.map((p) => JSON.stringify(p)),
    ];
    const counts = texts.flatMap((t) => [...t.matchAll(/\b(\d+) (?:social )?networks\b/g)].map((m) => `${m[1]} networks`));
    expect(counts.filter((c) => c !== `${PLATFORM_NAMES.length} networks`)).toEqual([]);
  });
});

describe('results and failures', () => {
  it('a result text is the summary line, then the same object as JSON', () => {
    const text = resultText('2 brands.', { brands: [{ id: 'b1' }] });
    expect(text.split('\n')).toEqual(['2 brands.', '{"brands":[{"id":"b1"}]}']);
  });

  it('every fix an MCP answer can carry names a tool, never a REST path', () => {
    const codes = [...new Set([...KNOWN_CODES, ...Object.keys(RESULT_CODES)])];
    const rest = codes.map((c) => [c, mcpFix(c)]).filter(([, fix]) => /\/api\/|\b(GET|POST|PATCH|DELETE) \//.test(fix!));
    expect(rest).toEqual([]);
    expect(explainCode('not_connected')).toMatchObject({ known: true, fix: expect.stringContaining('create_connect_link'), doc: 'social://errors/not_connected' });
    expect(explainCode('no_such_code')).toMatchObject({ known: false });
  });
});

describe('the tools enforce their REST routes', () => {
  it('each tool route copy equals the route table: id, method, scope and rate limit', () => {
    const byKey = routes as unknown as Record<string, { id: string; method: string; scope?: string; rateLimit?: unknown }>;
    for (const [name, copy] of Object.entries(TOOL_ROUTES)) {
      const r = byKey[name]!;
      expect({ name, ...copy }).toEqual({ name, id: r.id, method: r.method, scope: r.scope, ...(r.rateLimit ? { rateLimit: r.rateLimit } : {}) });
    }
  });

  it("the MCP handler's copy of its own route equals the route table: id, method, browser CORS", () => {
    expect(MCP_ROUTE).toEqual({ id: routes.postMcp.id, method: routes.postMcp.method, browserCors: routes.postMcp.browserCors });
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';

/** The MCP Inspector's CLI (@modelcontextprotocol/inspector-cli) against the local runtime: a third-party client. */
const CLI = path.join(path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'index.js');
const run = promisify(execFile);

let rt: LocalRuntime;
let key: string;
beforeAll(async () => {
  rt = await startRuntime();
  key = await signupThroughApi(rt.url, 'inspector@example.com');
});
afterAll(() => rt?.stop());

// cwd: the CLI finds its own package.json relative to the working directory.
const inspector = (...args: string[]) => run(process.execPath, [CLI, `${rt.url}/api/mcp`, '--transport', 'http', ...args], { timeout: 20_000, cwd: path.dirname(CLI) });

describe('MCP Inspector CLI', () => {
  it('lists the 29 tools with a bearer API key', async () => {
    const { stdout } = await inspector('--method', 'tools/list', '--header', `Authorization: Bearer ${key}`);
    const tools = (JSON.parse(stdout) as { tools: Array<{ name: string; outputSchema?: unknown }> }).tools;
    expect(tools).toHaveLength(29);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['post_to_social', 'schedule_post', 'get_post_status', 'create_brand', 'create_connect_link', 'generate_posts']));
    expect(tools.every((t) => t.outputSchema)).toBe(true);
  });

  it('calls a tool, and fails without credentials', async () => {
    const { stdout } = await inspector('--method', 'tools/call', '--tool-name', 'list_brands', '--header', `Authorization: Bearer ${key}`);
    expect(JSON.parse(stdout)).toMatchObject({ structuredContent: { brands: [{ name: 'Default' }] } });
    await expect(inspector('--method', 'tools/list')).rejects.toMatchObject({ code: 1 });
  });
});

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, server mode) against the hosted MCP
 * server of the local runtime, offline. How it runs:
 * - the CLI is `node --import test/support/conformance/register.mjs node_modules/@modelcontextprotocol/conformance/
 *   dist/index.js server --url … --scenario …`: the CLI imports Node 22's `fs.globSync`; on Node 20 a resolve hook
 *   hands it node:fs plus the `glob` package's sync (test/support/conformance/);
 * - its client sends no credentials, so it talks to a loopback proxy that adds the API key's Authorization header
 *   and forwards everything else (Host and Origin included) to /api/mcp;
 * - dns-rebinding-protection sends Origin http://evil.example.com (must be 4xx) and the proxy's own loopback origin
 *   (must be 2xx; the local runtime allows loopback origins, shared/http/origins.ts).
 */

const CLI = path.join(__dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');
const REGISTER = path.join(__dirname, '../support/conformance/register.mjs');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection'];

let rt: LocalRuntime;
let proxy: http.Server;
let proxyUrl: string;
let outDir: string;

beforeAll(async () => {
  rt = await startRuntime();
  const key = await signupThroughApi(rt.url, 'conformance@example.com', 'starter');
  const target = new URL(`${rt.url}/api/mcp`);
  proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: req.headers.authorization ?? `Bearer ${key}` };
    const up = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  await new Promise<void>((resolve) => { proxy?.close(() => resolve()); proxy?.closeAllConnections(); });
  await rt?.stop();
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

interface Check { id: string; status: string; errorMessage?: string }

/** Runs one scenario; answers its checks (from the CLI's checks.json) and the CLI's output. */
function run(scenario: string): Promise<{ code: number; output: string; checks: Check[] }> {
  const dir = path.join(outDir, scenario);
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', REGISTER, CLI, 'server', '--url', proxyUrl, '--scenario', scenario, '-o', dir], {
      timeout: 60_000, env: { ...process.env, NO_COLOR: '1' },
    }, (err, stdout, stderr) => {
      const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('checks.json')) : [];
      const checks = files.flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Check[]);
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}\n${stderr}`, checks });
    });
  });
}

describe('the official MCP conformance suite (server mode) against the local runtime', () => {
  // the CLI takes seconds to start: the scenarios run side by side, each test reads its own outcome
  let outcomes: Map<string, Awaited<ReturnType<typeof run>>>;
  beforeAll(async () => {
    outcomes = new Map(await Promise.all(SCENARIOS.map(async (s) => [s, await run(s)] as const)));
  }, 120_000);

  it.each(SCENARIOS)('%s passes', (scenario) => {
    const { code, output, checks } = outcomes.get(scenario)!;
    const failed = checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`);
    expect({ scenario, failed, code, output: code === 0 ? '' : output }).toEqual({ scenario, failed: [], code: 0, output: '' });
    expect(checks.filter((c) => c.status === 'SUCCESS').length).toBeGreaterThan(0);
  });
});

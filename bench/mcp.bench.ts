import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startLocalRuntime, TABLE_NAME, type LocalRuntime } from '../infra/local/runtime';
import { routes } from '../functions/routes';
import { handlerFile } from '../shared/http/route';
import { TOOLS } from '../functions/mcp/tools';
import { client, must, signup } from './support/api';
import { BenchNetworks } from './support/networks';
import { fmt, percentile, printRows } from './support/stats';

/**
 * The MCP server through the whole local runtime.
 *
 * 1. `tools/call post_to_social` (the SDK's Client over Streamable HTTP, one initialize, then one stateless POST per
 *    call) against `POST /api/post` with the same post to one network (Discord's fake answering at once), N
 *    sequential posts each, interleaved (one REST, one MCP, …) so that both see the same machine load; p50/p99 and the
 *    MCP/REST ratio. Both publish through the same use case, queue and worker: the difference is the MCP layer
 *    (JSON-RPC parsing, a new server and transport per request, schema checks of input and output) and the SDK
 *    client's own work, which runs in this process beside the runtime. A third leg sends the same tools/call as one
 *    plain JSON-RPC POST (the client's headers, no SDK client): the server's share alone.
 * 2. Cold start of the MCP function bundle (infra/bundling.ts's esbuild options, as the CDK bundles it: split ES
 *    modules): in a fresh `node`, the time to import the bundle's entry as Lambda's runtime does (import() of
 *    index.mjs; require() of a CommonJS index.js) — what Lambda's init phase runs for this function (it loads the
 *    handler module; the first request runs in the invoke after it) —, then the first request and a `tools/list` through the
 *    handler (a function-URL event with an API key, against the runtime's embedded DynamoDB); the first request is
 *    `initialize` (2025-11-25) or `server/discover` (2026-07-28); median of 5 processes each, wall time and the child's
 *    CPU time (user + system: steadier than wall time on a loaded machine), and the sum of init and first request.
 *    Lambda's own start-up (its runtime, Node itself) is not in it; the AWS SDK's first DynamoDB call is, with the
 *    SDK loaded from the layer every function carries (infra/constructs/sdk-layer.ts, built as `cdk synth` builds it).
 *    MCP_BENCH_POSTS=0 runs the cold start alone. MCP_COLD_BASELINE=<git revision> also starts that revision's build
 *    (its own bundling and SDK layer, in a temporary worktree), alternating with this checkout's. MCP_COLD_PROFILE=<dir> writes each child's CPU profile there
 *    (--cpu-prof) with its phases' bounds (<pid>.phases.json, µs on the profile's clock): profiling slows the figures.
 */
const N = Number(process.env.MCP_BENCH_POSTS ?? 40);
const RUNS = 5;
const RUN = Date.now().toString(36);
const ROOT = path.resolve(__dirname, '..');

const median = (xs: number[]) => percentile(xs, 50);

async function compare(base: string, key: string): Promise<void> {
  const api = client(base, key);
  const mcp = new Client({ name: 'bench', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  const rest: number[] = [];
  const tool: number[] = [];
  const raw: number[] = [];
  const post = async (i: number, via: 'rest' | 'mcp' | 'raw') => {
    const body = { platform: 'discord', text: `Bench MCP ${RUN} ${via} ${i}` };
    const t = performance.now();
    if (via === 'rest') {
      must(await api('POST', '/api/post', body), 'POST /api/post');
      rest.push(performance.now() - t);
    } else if (via === 'raw') {
      // the same tools/call as one plain JSON-RPC POST (the SDK client's headers): the server's share without the client's
      const res = await api('POST', '/api/mcp', { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'post_to_social', arguments: body } },
        { accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION });
      if (res.status !== 200 || !(res.body.result as { isError?: boolean } | undefined) || (res.body.result as { isError?: boolean }).isError) throw new Error(`post_to_social (plain POST) failed: ${res.text.slice(0, 300)}`);
      raw.push(performance.now() - t);
    } else {
      const res = await mcp.callTool({ name: 'post_to_social', arguments: body });
      if (res.isError) throw new Error(`post_to_social failed: ${JSON.stringify(res.content)}`);
      tool.push(performance.now() - t);
    }
  };
  for (let i = 0; i < 3; i++) { await post(-i - 1, 'rest'); await post(-i - 1, 'mcp'); await post(-i - 1, 'raw'); }
  rest.length = 0;
  tool.length = 0;
  raw.length = 0;
  for (let i = 0; i < N; i++) { await post(i, 'rest'); await post(i, 'mcp'); await post(i, 'raw'); }
  await mcp.close();
  console.log(`\n### Publish one post to 1 network (Discord fake, D = 0), ${N} sequential each way, interleaved`);
  printRows([
    ['POST /api/post', `p50 ${fmt(percentile(rest, 50))} ms, p99 ${fmt(percentile(rest, 99))} ms`],
    ['tools/call post_to_social', `p50 ${fmt(percentile(tool, 50))} ms, p99 ${fmt(percentile(tool, 99))} ms`],
    ['ratio MCP / REST', `p50 ${fmt(percentile(tool, 50) / percentile(rest, 50), 2)}×, p99 ${fmt(percentile(tool, 99) / percentile(rest, 99), 2)}×`],
    ['tools/call as a plain JSON-RPC POST', `p50 ${fmt(percentile(raw, 50))} ms, p99 ${fmt(percentile(raw, 99))} ms`],
    ['ratio plain MCP POST / REST', `p50 ${fmt(percentile(raw, 50) / percentile(rest, 50), 2)}×, p99 ${fmt(percentile(raw, 99) / percentile(rest, 99), 2)}×`],
  ]);
}

const COLD_SCRIPT = `
(async () => {
const t0 = process.hrtime.bigint(); const c0 = process.cpuUsage();
// as Lambda's runtime loads a handler: import() for an ES module (a split bundle's index.mjs), require() otherwise
const { handler } = process.argv[1].endsWith('.mjs') ? await import(process.argv[1]) : require(process.argv[1]);
const t1 = process.hrtime.bigint(); const c1 = process.cpuUsage();
const key = process.argv[2];
const modern = process.argv[3] === 'discover';
const TOOLS = Number(process.argv[4]);
const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'cold', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const ev = (id, method, params) => ({
  version: '2.0', rawPath: '/', rawQueryString: '', isBase64Encoded: false,
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer ' + key,
    'mcp-protocol-version': modern ? '2026-07-28' : '${LATEST_PROTOCOL_VERSION}', ...(modern ? { 'mcp-method': method } : {}) },
  requestContext: { domainName: 'fn.lambda-url.local', http: { method: 'POST', path: '/', sourceIp: '127.0.0.1' }, requestId: 'r' + id },
  body: JSON.stringify({ jsonrpc: '2.0', id, method, params: modern ? { ...params, _meta: envelope } : params }),
});
const ctx = { awsRequestId: 'cold', functionName: 'post-mcp', getRemainingTimeInMillis: () => 29000 };
  const a = modern ? await handler(ev(1, 'server/discover', {}), ctx)
    : await handler(ev(1, 'initialize', { protocolVersion: '${LATEST_PROTOCOL_VERSION}', capabilities: {}, clientInfo: { name: 'cold', version: '1' } }), ctx);
  const t2 = process.hrtime.bigint(); const c2 = process.cpuUsage();
  const b = await handler(ev(2, 'tools/list', {}), ctx);
  const t3 = process.hrtime.bigint(); const c3 = process.cpuUsage();
  if (a.statusCode !== 200 || b.statusCode !== 200 || JSON.parse(b.body).result.tools.length !== TOOLS) throw new Error('bad answer ' + a.statusCode + ' ' + b.statusCode + ' ' + a.body.slice(0, 200) + b.body.slice(0, 200));
  const ms = (x, y) => Number(y - x) / 1e6;
  const cpu = (x, y) => (y.user + y.system - x.user - x.system) / 1000;
  // MCP_COLD_PROFILE: the phases' bounds (µs, the clock of the CPU profile's timestamps) beside each profile
  if (process.env.MCP_COLD_PROFILE) require('node:fs').writeFileSync(process.env.MCP_COLD_PROFILE + '/' + process.pid + '.phases.json', JSON.stringify([t0, t1, t2, t3].map((t) => Number(t / 1000n))));
  console.log(JSON.stringify({ require: ms(t0, t1), first: ms(t1, t2), list: ms(t2, t3), cpuRequire: cpu(c0, c1), cpuFirst: cpu(c1, c2), cpuList: cpu(c2, c3) }));
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
`;

type ColdSample = Record<'require' | 'first' | 'list' | 'cpuRequire' | 'cpuFirst' | 'cpuList', number>;

/** A build of the MCP function to start cold: the file Lambda loads, where its SDK is found, its sizes. */
interface ColdBuild { label: string; file: string; nodePath: string; bytes: number; files: number; startUpBytes: number }

/**
 * Builds the MCP function of the project at `root` (this checkout, or a baseline revision's worktree) with that
 * revision's own bundling options and SDK layer, into `dir`.
 */
async function buildAt(label: string, root: string, dir: string): Promise<ColdBuild> {
  const bundling = await import(path.join(root, 'infra/bundling.ts')) as typeof import('../infra/bundling');
  const layer = await import(path.join(root, 'infra/constructs/sdk-layer.ts')) as typeof import('../infra/constructs/sdk-layer');
  const out = await build({ ...bundling.esbuildOptions(root, handlerFile(routes.postMcp), path.join(dir, 'index.js')), sourcemap: false, write: true, metafile: true, logLevel: 'silent' });
  // a split bundle's entry is index.mjs (a revision before split bundles wrote index.js)
  const file = fs.existsSync(path.join(dir, 'index.mjs')) ? path.join(dir, 'index.mjs') : path.join(dir, 'index.js');
  const outputs = Object.entries(out.metafile.outputs);
  const outputOf = (f: string) => outputs.find(([o]) => path.resolve(root, o) === path.resolve(f))?.[1];
  // what a cold start loads: the entry and what it imports statically (a split bundle's other chunks load on first use)
  const startUp = new Set([file]);
  for (const f of startUp) for (const i of outputOf(f)?.imports ?? []) if (i.kind === 'import-statement' && !i.external) startUp.add(path.resolve(root, i.path));
  return {
    label, file,
    // the bundle leaves the AWS SDK out: it loads it from the layer every function carries (built here as cdk synth builds it)
    nodePath: path.join(layer.sdkLayerDirectory(), 'nodejs', 'node_modules'),
    bytes: outputs.reduce((n, [, o]) => n + o.bytes, 0), files: outputs.length,
    startUpBytes: [...startUp].reduce((n, f) => n + (outputOf(f)?.bytes ?? 0), 0),
  };
}

/**
 * The cold start of this checkout's MCP function and, with MCP_COLD_BASELINE=<git revision>, of that revision's
 * (built in a temporary worktree with its own bundling and SDK layer), their children alternating so that both see
 * the same machine load: before/after figures from one run.
 */
async function coldStart(key: string, dataDir: string): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bench-mcp-'));
  const baseline = process.env.MCP_COLD_BASELINE;
  const worktree = path.join(tmp, 'baseline');
  try {
    const builds: ColdBuild[] = [];
    if (baseline) {
      execFileSync('git', ['worktree', 'add', '--detach', worktree, baseline], { cwd: ROOT, stdio: 'ignore' });
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(worktree, 'node_modules'));
      builds.push(await buildAt(`baseline ${baseline}`, worktree, path.join(tmp, 'baseline-out')));
    }
    builds.push(await buildAt('this checkout', ROOT, path.join(tmp, 'out')));
    const profileArgs = process.env.MCP_COLD_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.MCP_COLD_PROFILE}`] : [];
    const env = {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'error',
      // set in every Lambda: the configuration is then parsed at init (shared/container.ts), as it is there
      AWS_LAMBDA_FUNCTION_NAME: 'post-mcp',
      RUNTIME: 'local', DATA_DIR: dataDir, TABLE_NAME, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local',
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT ?? '', MCP_COLD_PROFILE: process.env.MCP_COLD_PROFILE ?? '', PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? '',
    };
    for (const b of builds) {
      console.log(`\n### MCP function cold start (${b.label}): bundle ${(b.bytes / 1024).toFixed(0)} KB (${b.bytes} B) in ${b.files} file(s), `
        + `${(b.startUpBytes / 1024).toFixed(0)} KB loaded at start; ${RUNS} fresh processes per first request`);
    }
    for (const first of ['initialize', 'discover'] as const) {
      const samples = builds.map(() => [] as ColdSample[]);
      for (let i = 0; i < RUNS; i++) {
        for (const [n, b] of builds.entries()) {
          // async: the embedded DynamoDB answering the child runs in this process's event loop
          const { stdout: text } = await promisify(execFile)(process.execPath, [...profileArgs, '-e', COLD_SCRIPT, b.file, key, first, String(TOOLS.length)],
            { env: { ...env, NODE_PATH: b.nodePath }, cwd: path.dirname(b.file), encoding: 'utf8', timeout: 60_000 });
          samples[n]!.push(JSON.parse(text.trim().split('\n').pop()!));
        }
      }
      const cpuOf = { require: 'cpuRequire', first: 'cpuFirst', list: 'cpuList' } as const;
      const label = first === 'initialize' ? 'first initialize (2025-11-25; key lookup included)' : 'first server/discover (2026-07-28; key lookup included)';
      for (const [n, b] of builds.entries()) {
        const got = samples[n]!;
        const row = (k: 'require' | 'first' | 'list') => `median ${fmt(median(got.map((s) => s[k])))} ms (min ${fmt(Math.min(...got.map((s) => s[k])))}, max ${fmt(Math.max(...got.map((s) => s[k])))}); `
          + `CPU ${fmt(median(got.map((s) => s[cpuOf[k]])))} ms`;
        if (builds.length > 1) console.log(`  ${b.label}:`);
        printRows([
          ['Lambda init: load the bundle', row('require')],
          [`invoke: ${label}`, row('first')],
          ['then tools/list', row('list')],
          [`init + first ${first === 'initialize' ? 'initialize' : 'server/discover'}`, `median ${fmt(median(got.map((s) => s.require + s.first)))} ms; CPU ${fmt(median(got.map((s) => s.cpuRequire + s.cpuFirst)))} ms`],
        ]);
      }
    }
  } finally {
    if (baseline && fs.existsSync(worktree)) execFileSync('git', ['worktree', 'remove', '--force', worktree], { cwd: ROOT, stdio: 'ignore' });
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  console.log('\n## MCP server — tools/call post_to_social vs POST /api/post, and the MCP function\'s cold start');
  const nets = new BenchNetworks();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bench-mcp-data-'));
  let rt: LocalRuntime | undefined;
  try {
    await nets.start();
    rt = await startLocalRuntime({ port: 0, dataDir, env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_TARGETS: '1', DISABLE_RATE_LIMITS: '1', ...nets.runtimeEnv() } });
    const key = await signup(rt.url, `bench-mcp-${RUN}@example.com`);
    const api = client(rt.url, key);
    for (const body of nets.connectBodies().filter((b) => b.platform === 'discord')) must(await api('POST', '/api/connect', body), 'POST /api/connect discord');
    nets.setDelay(0);
    // MCP_BENCH_POSTS=0: the cold start alone
    if (N > 0) await compare(rt.url, key);
    await coldStart(key, dataDir);
  } finally {
    await rt?.stop();
    await nets.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The MCP function bundles for real (prebuilt as `cdk synth` does, then AppFunction's asset through a CDK synth) into
 * split ES modules (infra/bundling.ts) that load and answer outside the project (no node_modules): a GET is 405 and a
 * POST without credentials is 401 with the protected resource metadata. Guards the cold start: the bundle once threw at load time when zod was
 * initialised after the MCP SDK's module-level schemas (see the comment at the top of functions/mcp/handler.ts). The
 * SDK now loads with the first request that needs it, so the bundle's own answer functions (after the key check) are
 * called too: an initialize answered without the SDK equals the SDK's, and a tools/list loads the SDK, the server and
 * the tools inside the bundle.
 */
process.env.CDK_VALIDATION = 'false';

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { AppFunction } from '../../infra/constructs/app-function';
import { prebuildBundles } from '../../infra/lambda-bundles';
import { lambdaFunctions } from '../../infra/bundling';
import { routes } from '../../functions/routes';
import { handlerFile } from '../../shared/http/route';

/** The MCP function's bundle ceiling (bytes of its code: index.mjs and every chunk; the source maps not counted). */
const MCP_BUNDLE_CEILING = 900 * 1024;

let outdir: string;
afterAll(() => { if (outdir) fs.rmSync(outdir, { recursive: true, force: true }); });

test('the MCP handler bundles into split ES modules of at most 900 KB in all that load, answer 405 / 401 with WWW-Authenticate, and after the key check answer initialize and (loading the SDK) tools/list', async () => {
  await prebuildBundles(lambdaFunctions().filter((f) => f.handler === handlerFile(routes.postMcp)));
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bundle-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'McpBundleCheck');
  new AppFunction(stack, 'Mcp', { handlerFile: handlerFile(routes.postMcp), memoryMb: 1024 });
  app.synth();
  // the function's asset (the AWS SDK layer is an asset too)
  const dir = fs.readdirSync(outdir).map((d) => path.join(outdir, d)).find((d) => d.includes('asset.') && fs.existsSync(path.join(d, 'index.mjs')))!;
  const bundle = path.join(dir, 'index.mjs');
  const code = fs.readdirSync(dir).filter((f) => f.endsWith('.mjs'));
  // the SDK and the MCP server are chunks of their own, imported by the first request that needs them
  expect(code.length).toBeGreaterThan(2);
  // what a cold start loads: index.mjs and the chunks it imports statically, transitively; the MCP SDK's server is
  // in a chunk outside it (its "already initialized" refusal stands for its code)
  const startUp = new Set(['index.mjs']);
  for (const f of startUp) {
    for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/(?:from|import)\s*"\.\/(chunk-[A-Z0-9]+\.mjs)"/g)) startUp.add(m[1]!);
  }
  const holdsSdkServer = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8').includes('Server already initialized');
  expect(code.filter(holdsSdkServer)).toHaveLength(1);
  expect([...startUp].filter(holdsSdkServer)).toEqual([]);
  // the function's code: at most 900 KB in all (no network send code, shared/networks/verifiers.ts)
  expect(code.reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0)).toBeLessThanOrEqual(MCP_BUNDLE_CEILING);
  const script = `
    const { handler, answer, sdkAnswer } = await import(${JSON.stringify(bundle)});
    const ev = (method, headers) => ({ version: '2.0', rawPath: '/', rawQueryString: '', headers, isBase64Encoded: false,
      requestContext: { domainName: 'fn.lambda-url.us-east-1.on.aws', http: { method, path: '/', sourceIp: '203.0.113.9' }, requestId: 'b' },
      body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) : undefined });
    const ctx = { awsRequestId: 'bundle', functionName: 'post-mcp', getRemainingTimeInMillis: () => 29000 };
    const caller = { ctx: { deps: {}, principal: { actor: { kind: 'key', id: 'key-1' }, scopes: ['read'] } }, requestId: 'bundle' };
    const rpc = (message) => [{ ...ev('POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }), body: JSON.stringify(message) }, JSON.stringify(message), message, caller];
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bundle', version: '1' } } };
    (async () => {
      const get = await handler(ev('GET', { accept: 'text/event-stream' }), ctx);
      const post = await handler(ev('POST', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }), ctx);
      const fast = await answer(...rpc(init));
      const viaSdk = await sdkAnswer(...rpc(init));
      const list = await sdkAnswer(...rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
      process.stdout.write(JSON.stringify({
        get: [get.statusCode, get.headers.allow], post: [post.statusCode, post.headers['www-authenticate']],
        initialize: [fast.statusCode, fast.body === viaSdk.body, JSON.parse(fast.body).result.protocolVersion],
        toolsList: [list.statusCode, JSON.parse(list.body).result.tools.some((t) => t.name === 'post_to_social')],
      }));
    })().catch((e) => { console.error(e); process.exit(1); });
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: os.tmpdir(), encoding: 'utf8', timeout: 20_000,
    env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1', RUNTIME: 'aws', LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'https://api.example.org', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  expect(JSON.parse(out)).toEqual({
    get: [405, 'POST'],
    post: [401, 'Bearer resource_metadata="https://api.example.org/.well-known/oauth-protected-resource"'],
    initialize: [200, true, '2025-11-25'],
    toolsList: [200, true],
  });
});

/**
 * The one test that bundles for real: a synth without the bundling-stacks shortcut runs esbuild on the
 * get-platforms handler through AppFunction (the project's NodejsFunction defaults), then the bundle is loaded in a
 * plain Node process and invoked with the sample API Gateway event. Proves the handler (middy 6 is ESM-only) bundles
 * into a CommonJS file that runs without node_modules.
 */
process.env.CDK_VALIDATION = 'false';

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AppFunction, PROJECT_ROOT } from '../../infra/constructs/app-function';
import { routes } from '../../functions/routes';
import { handlerFile } from '../../shared/http/route';
import { LAMBDA_BUNDLE } from '../../infra/bundling';

let outdir: string;
afterAll(() => { if (outdir) fs.rmSync(outdir, { recursive: true, force: true }); });

test('get-platforms bundles with esbuild into a CJS file that answers its route', () => {
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'BundleCheck');
  new AppFunction(stack, 'GetPlatforms', { handlerFile: handlerFile(routes.getPlatforms) });
  app.synth();

  // The function's code is the bundled asset (an S3 key), not an inline placeholder.
  const fn = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'))[0] as { Properties: { Code: Record<string, unknown> } };
  expect(fn.Properties.Code).toHaveProperty('S3Key');
  // the function's bundle (the other asset is its stack's layer of the locked AWS SDK, infra/constructs/sdk-layer.ts)
  const assetDirs = fs.readdirSync(outdir).filter((d) => d.startsWith('asset.') && fs.existsSync(path.join(outdir, d, 'index.js')));
  expect(assetDirs).toHaveLength(1);
  const dir = path.join(outdir, assetDirs[0]!);
  expect(fs.readdirSync(dir).sort()).toEqual(['index.js', 'index.js.map']);
  const code = fs.readFileSync(path.join(dir, 'index.js'), 'utf8');
  expect(code.length / code.split('\n').length).toBeGreaterThan(1000); // minified: long lines
  expect(code.length).toBeLessThan(5_000_000);
  expect(code).not.toMatch(/require\(["']@middy\/core["']\)/); // bundled, not left external
  // infra/bundling.ts reaches the CDK build
  expect(code).not.toContain('@aws-sdk/credential-provider-node - defaultProvider'); // the chain's own log lines
  if (LAMBDA_BUNDLE.awsSdk === 'runtime') {
    // the SDK is left to the Lambda runtime's copy: required by name, none of its code inside
    expect(code).toMatch(/require\("@aws-sdk\/client-ssm"\)/);
    expect(code).not.toContain('Lambda sets them from the execution role');
    expect(code).not.toMatch(/GetParametersByPathCommand_base|SSMServiceException\b.*extends/);
  } else {
    // the env-only credential source replaces the SDK's default chain
    expect(code).toContain('Lambda sets them from the execution role');
  }

  // Load the bundle outside the project (no node_modules reachable) and invoke it.
  const event = path.join(PROJECT_ROOT, 'events/http/get-platforms.json');
  const script = `
    const { handler } = require(${JSON.stringify(path.join(dir, 'index.js'))});
    const event = require(${JSON.stringify(event)});
    const context = { awsRequestId: 'bundle-test', functionName: 'get-platforms', getRemainingTimeInMillis: () => 29000 };
    handler(event, context).then((r) => { process.stdout.write(JSON.stringify(r)); }, (e) => { console.error(e); process.exit(1); });
  `;
  const out = execFileSync(process.execPath, ['-e', script], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1', RUNTIME: 'aws', LOG_LEVEL: 'silent', POWERTOOLS_METRICS_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    encoding: 'utf8',
    timeout: 15_000,
  });
  const result = JSON.parse(out) as { statusCode: number; body: string };
  expect(result.statusCode).toBe(200);
  expect(JSON.parse(result.body)).toHaveProperty('platforms');
});

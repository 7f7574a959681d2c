import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';

/**
 * The AWS SDK the tests ran with, shipped as a Lambda layer: the bundles leave `@aws-sdk/*` and `@smithy/*` out
 * (infra/bundling.ts, for size), and without this layer they would load whatever SDK the Node.js runtime carries that
 * day — a version nobody locked or tested. A layer's `nodejs/node_modules` comes before the runtime's own copy on
 * NODE_PATH (Lambda developer guide, "Layer paths for each Lambda runtime"), so every function loads these versions.
 *
 * The layer holds the SDK packages the code imports (SDK_PACKAGES) and their dependency closure, copied from
 * node_modules as package-lock.json pinned them, without type declarations and ES module builds (a `require` of the
 * CommonJS bundle never reads them). One layer version per stack (a layer shared across stacks would be an export
 * that CloudFormation refuses to change while in use); the asset is the same, uploaded once.
 */
const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const NODE_MODULES = path.join(PROJECT_ROOT, 'node_modules');

/** The SDK packages the functions import (test/infra/sdk-layer.test.ts fails when the code imports another). */
export const SDK_PACKAGES = [
  '@aws-sdk/client-bedrock-runtime',
  '@aws-sdk/client-dynamodb',
  '@aws-sdk/client-kms',
  '@aws-sdk/client-s3',
  '@aws-sdk/client-scheduler',
  '@aws-sdk/client-sesv2',
  '@aws-sdk/client-sqs',
  '@aws-sdk/client-ssm',
  '@aws-sdk/lib-dynamodb',
  '@aws-sdk/s3-request-presigner',
] as const;

/** Folders no `require` of a package's CommonJS entry reads. */
const LEFT_OUT = new Set(['dist-types', 'dist-es', 'node_modules']);

/** The directory `dep` resolves to from `fromDir`, as Node resolves it (nearest node_modules upwards). */
function resolvePackage(dep: string, fromDir: string): string {
  for (let dir = fromDir; dir.startsWith(PROJECT_ROOT); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', dep);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === PROJECT_ROOT) break;
  }
  throw new Error(`${dep} (needed from ${path.relative(PROJECT_ROOT, fromDir)}) is not installed: run npm ci`);
}

/** Every package directory the SDK packages need at run time (dependencies, recursively), project-relative. */
export function sdkClosure(roots: readonly string[] = SDK_PACKAGES): Map<string, string> {
  const found = new Map<string, string>(); // directory → version
  const visit = (dir: string): void => {
    if (found.has(dir)) return;
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string> };
    found.set(dir, manifest.version);
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(resolvePackage(dep, dir));
  };
  for (const root of roots) visit(resolvePackage(root, PROJECT_ROOT));
  return new Map([...found].map(([dir, v]) => [path.relative(NODE_MODULES, dir), v]));
}

/** Writes the layer's content (nodejs/node_modules/...) once per lock state, under node_modules/.cache; answers its directory. */
export function sdkLayerDirectory(): string {
  const closure = sdkClosure();
  const key = createHash('sha256').update(JSON.stringify([...closure].sort())).digest('hex').slice(0, 16);
  const root = path.join(NODE_MODULES, '.cache', 'sdk-layer', key);
  if (fs.existsSync(path.join(root, 'complete'))) return root;
  fs.rmSync(root, { recursive: true, force: true });
  for (const rel of closure.keys()) {
    const from = path.join(NODE_MODULES, rel);
    fs.cpSync(from, path.join(root, 'nodejs', 'node_modules', rel), {
      recursive: true,
      filter: (src) => src === from || !LEFT_OUT.has(path.basename(src)) || path.dirname(src) !== from,
    });
  }
  fs.writeFileSync(path.join(root, 'complete'), key);
  return root;
}

function emptyLayerDirectory(): string {
  const dir = path.join(NODE_MODULES, '.cache', 'sdk-layer', 'empty', 'nodejs');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'README'), 'not bundled: this synth bundled no stack\n');
  return path.dirname(dir);
}

const LAYERS = new WeakMap<Stack, lambda.LayerVersion>();

/** This stack's layer of the locked SDK (created on first use). */
export function sdkLayer(scope: Construct): lambda.ILayerVersion {
  const stack = Stack.of(scope);
  let layer = LAYERS.get(stack);
  if (!layer) {
    // a synth that bundles nothing (tests, `cdk ls`) stages an empty layer instead of copying the SDK
    const code = stack.bundlingRequired ? lambda.Code.fromAsset(sdkLayerDirectory(), { exclude: ['complete'] }) : lambda.Code.fromAsset(emptyLayerDirectory());
    layer = new lambda.LayerVersion(stack, 'AwsSdkLayer', {
      code,
      compatibleRuntimes: [lambda.Runtime.NODEJS_22_X],
      compatibleArchitectures: [lambda.Architecture.ARM_64],
      description: 'The AWS SDK for JavaScript v3 as package-lock.json pins it (infra/constructs/sdk-layer.ts)',
      removalPolicy: RemovalPolicy.DESTROY,
    });
    LAYERS.set(stack, layer);
  }
  return layer;
}

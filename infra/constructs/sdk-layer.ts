import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { ENV_CREDENTIALS } from '../bundling';

/**
 * The AWS SDK the tests ran with, shipped as a Lambda layer: the bundles leave `@aws-sdk/*` and `@smithy/*` out
 * (infra/bundling.ts, for size), and without this layer they would load whatever SDK the Node.js runtime carries that
 * day — a version nobody locked or tested. A layer's `nodejs/node_modules` comes before the runtime's own copy on
 * NODE_PATH (Lambda developer guide, "Layer paths for each Lambda runtime"), so every function loads these versions.
 *
 * The layer holds the SDK packages the code imports (SDK_PACKAGES), built from node_modules as package-lock.json
 * pinned them (their dependency closure): one minified CommonJS file per client (SDK_GROUPS) holding only what the
 * code imports from it (`importedNames`, tree-shaken by esbuild), and for each package a stub `@aws-sdk/<name>` that
 * hands out its part of that file. A client's first use then compiles one small file instead of the ~900 KB of its
 * packages' CommonJS builds (the DynamoDB client and its first request: −39% CPU, docs/benchmarks.md). Inside, the
 * SDK's default credential chain is the environment-only one (shared/wiring/lambda-credentials.ts: Lambda puts the
 * role's credentials there). Packages a bundled dependency requires from the SDK's side (LAYER_COPIES) are copied
 * as installed. One layer version per stack (a layer shared across stacks would be an export that CloudFormation
 * refuses to change while in use); the asset is the same, uploaded once.
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

type SdkPackage = (typeof SDK_PACKAGES)[number];

/**
 * The files of the layer, one per client, each with the packages that must share one copy of the SDK's classes
 * (lib-dynamodb's document client wraps the DynamoDB client and rethrows its errors; the presigner signs S3 commands).
 * Clients in different files share nothing: a function loads only the files of the clients it uses.
 */
export const SDK_GROUPS: Record<string, readonly SdkPackage[]> = {
  'bedrock-runtime': ['@aws-sdk/client-bedrock-runtime'],
  dynamodb: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
  kms: ['@aws-sdk/client-kms'],
  s3: ['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner'],
  scheduler: ['@aws-sdk/client-scheduler'],
  sesv2: ['@aws-sdk/client-sesv2'],
  sqs: ['@aws-sdk/client-sqs'],
  ssm: ['@aws-sdk/client-ssm'],
};

/**
 * Packages of the SDK's side that a bundled dependency requires by name (left out of the bundles with the SDK):
 * the X-Ray SDK's v3 client patcher (functions that declare `tracing`). Copied with their closure, as installed.
 */
export const LAYER_COPIES = ['@smithy/service-error-classification'] as const;

/** Folders no `require` of a package's CommonJS entry reads. */
const LEFT_OUT = new Set(['dist-types', 'dist-es', 'node_modules']);

/** Where the layer's client files live, beside the package stubs (a name no package has). */
const GROUP_DIR = '.aws-sdk-clients';

/** The TypeScript files of the functions and their shared code (what the bundles are built from). */
export function sourceFiles(dir = PROJECT_ROOT, top = ['shared', 'functions']): string[] {
  return top.flatMap((t) => fs.readdirSync(path.join(dir, t), { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, t, e.name);
    return e.isDirectory() ? sourceFiles(path.join(dir, t), [e.name]) : e.name.endsWith('.ts') ? [p] : [];
  }));
}

/**
 * The names the code imports from each SDK package (`import { A, type B, C as D } from '@aws-sdk/<name>'`, types
 * left out): what its file of the layer exports. Another form of import of an SDK package (a namespace, a default,
 * a dynamic import, a require) would need names this cannot see: it throws.
 */
export function importedNames(files = sourceFiles()): Map<SdkPackage, Set<string>> {
  const names = new Map<SdkPackage, Set<string>>(SDK_PACKAGES.map((p) => [p, new Set<string>()]));
  for (const file of files) {
    const code = fs.readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\bimport\s+(type\s+)?([^;]*?)\s+from\s+'(@aws-sdk\/[a-z0-9-]+)'/g)) {
      if (m[1]) continue;
      const pkg = m[3] as SdkPackage;
      const list = /^\{([^}]*)\}$/.exec(m[2]!.trim());
      if (!list || !names.has(pkg)) throw new Error(`${path.relative(PROJECT_ROOT, file)}: \`import ${m[2]} from '${pkg}'\`: the SDK layer (infra/constructs/sdk-layer.ts) takes named imports of SDK_PACKAGES only`);
      for (const item of list[1]!.split(',').map((i) => i.trim()).filter(Boolean)) {
        if (!item.startsWith('type ')) names.get(pkg)!.add(item.split(/\s+as\s+/)[0]!.trim());
      }
    }
    const other = /(?:require|import)\(\s*'(@aws-sdk\/[a-z0-9-]+)'/.exec(code);
    if (other) throw new Error(`${path.relative(PROJECT_ROOT, file)}: a dynamic import or require of ${other[1]}: the SDK layer (infra/constructs/sdk-layer.ts) takes named imports only`);
  }
  return names;
}

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

/** How the client files are built (part of the layer's cache key). */
const BUILD = {
  bundle: true, platform: 'node', target: 'node22', format: 'cjs', minify: true, legalComments: 'none',
  // the packages' ES module builds, as the function bundles take them (infra/bundling.ts): esbuild drops what is not imported
  mainFields: ['module', 'main'],
  alias: ENV_CREDENTIALS,
  logLevel: 'warning',
} as const;

/** The entry of one client file: each of its packages' imported names, as the object the package's stub hands out. */
function groupEntry(packages: readonly SdkPackage[], names: Map<SdkPackage, Set<string>>): string {
  return packages.map((p, i) => `import * as p${i} from ${JSON.stringify(p)};\n`
    + `export const package${i} = { ${[...names.get(p)!].sort().map((n) => `${n}: p${i}.${n}`).join(', ')} };`).join('\n');
}

/**
 * Writes the layer's content (nodejs/node_modules/...) once per lock state and imported names, under
 * node_modules/.cache; answers its directory: each SDK_GROUPS file with a stub package per SDK package, and the
 * LAYER_COPIES packages.
 */
export function sdkLayerDirectory(): string {
  // once per process: each stack's layer (two stages, nine stacks each) would read every source file again
  return (layerDirectory ??= writeLayerDirectory());
}

let layerDirectory: string | undefined;

function writeLayerDirectory(): string {
  const closure = sdkClosure();
  const copies = sdkClosure(LAYER_COPIES);
  const names = importedNames();
  const key = createHash('sha256')
    .update(JSON.stringify([[...closure].sort(), [...copies].sort(), SDK_GROUPS, BUILD, [...names].map(([p, n]) => [p, [...n].sort()])]))
    .digest('hex').slice(0, 16);
  const root = path.join(NODE_MODULES, '.cache', 'sdk-layer', key);
  if (fs.existsSync(path.join(root, 'complete'))) return root;
  fs.rmSync(root, { recursive: true, force: true });
  const modules = path.join(root, 'nodejs', 'node_modules');
  for (const [group, packages] of Object.entries(SDK_GROUPS)) {
    buildSync({
      ...BUILD, mainFields: [...BUILD.mainFields],
      stdin: { contents: groupEntry(packages, names), resolveDir: PROJECT_ROOT, loader: 'js' },
      outfile: path.join(modules, GROUP_DIR, `${group}.js`),
    });
    packages.forEach((p, i) => {
      const dir = path.join(modules, p);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: p, version: closure.get(p), main: 'index.js' }));
      fs.writeFileSync(path.join(dir, 'index.js'), `module.exports = require(${JSON.stringify(`../../${GROUP_DIR}/${group}.js`)}).package${i};\n`);
    });
  }
  for (const rel of copies.keys()) {
    const from = path.join(NODE_MODULES, rel);
    fs.cpSync(from, path.join(modules, rel), {
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

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { build, buildSync, type BuildOptions } from 'esbuild';
import { esbuildOptions, isSplit, lambdaFunctions } from './bundling';
import type { WiringDeclaration } from '../shared/wiring/declaration';

/**
 * The Lambda code assets: each function's esbuild bundle (infra/bundling.ts's esbuildOptions, the very options the
 * bundle bench and the bundle-graph test build with), built by esbuild's JavaScript API in this process.
 *
 * `prebuildBundles()` builds every function's bundle at once on esbuild's one long-lived service (its work spreads
 * over every core) before a synth; the CDK asset's local bundler then only copies the prebuilt file. Without a
 * prebuild (a test synthesizing one function), the bundler builds that one bundle itself. Either way a bundle is
 * built once per run for all stages: aws-cdk-lib keeps a staged asset per assembly directory, source and options.
 * This replaces NodejsFunction's own bundling, which starts one esbuild process per function, one after another
 * (docs/operations.md, "deploy:check"; figures in docs/benchmarks.md).
 */
const PROJECT_ROOT = path.resolve(__dirname, '..');
const PREBUILT_DIR = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'lambda-bundles');
const IN_PARALLEL = 8;

/** The options of one deployed bundle: the shared ones plus the source map written beside it (not loaded at start). */
function deployOptions(handler: string, wiring: WiringDeclaration | undefined, outfile: string): BuildOptions {
  return {
    ...esbuildOptions(PROJECT_ROOT, handler, outfile, wiring),
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  };
}

/** Which bundle a handler and its wiring make: the key of a prebuilt file and part of the asset's cache key. */
function bundleKey(handler: string, wiring: WiringDeclaration | undefined): string {
  const define = deployOptions(handler, wiring, 'index.js').define ?? {};
  return createHash('sha256').update(JSON.stringify([handler, define])).digest('hex').slice(0, 24);
}

const prebuilt = new Map<string, string>();

/** How many bundles this process built, and how many of them the asset bundler had to build itself (tests, figures). */
export const bundleCounts = { prebuilt: 0, builtOnDemand: 0 };

/**
 * Builds the bundle of every deployed function (routes, workers, dispatcher), IN_PARALLEL at a time on esbuild's
 * service; the asset bundler copies them. Call before the synth of a run that bundles.
 */
export async function prebuildBundles(functions = lambdaFunctions()): Promise<void> {
  fs.mkdirSync(PREBUILT_DIR, { recursive: true });
  const queue = functions.filter((f) => fs.existsSync(path.join(PROJECT_ROOT, f.handler)));
  const worker = async (): Promise<void> => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      const key = bundleKey(f.handler, f.wiring);
      if (prebuilt.has(key)) continue;
      const dir = path.join(PREBUILT_DIR, key);
      // a directory of an earlier run may hold chunks of another build
      fs.rmSync(dir, { recursive: true, force: true });
      await build(deployOptions(f.handler, f.wiring, path.join(dir, 'index.js')));
      prebuilt.set(key, dir);
      bundleCounts.prebuilt += 1;
    }
  };
  await Promise.all(Array.from({ length: IN_PARALLEL }, worker));
}

/**
 * Writes the bundle of `handler` into `outputDir` (index.js and its map, or a split bundle's index.mjs, chunks and
 * maps): the prebuilt one, or built now. A split bundle is built by prebuildBundles only: esbuild runs the plugin it
 * needs (infra/bundling.ts) in its asynchronous API alone, and the CDK asset bundler is synchronous.
 */
function writeBundle(handler: string, wiring: WiringDeclaration | undefined, outputDir: string): void {
  const dir = prebuilt.get(bundleKey(handler, wiring));
  if (dir) {
    for (const f of fs.readdirSync(dir)) fs.copyFileSync(path.join(dir, f), path.join(outputDir, f));
    return;
  }
  if (isSplit(handler)) throw new Error(`${handler}: its bundle is split ES modules, built by prebuildBundles() (infra/lambda-bundles.ts) before the synth`);
  buildSync(deployOptions(handler, wiring, path.join(outputDir, 'index.js')));
  bundleCounts.builtOnDemand += 1;
}

/**
 * The code asset of one function: its bundle, staged by aws-cdk-lib (hash of the output, like NodejsFunction's).
 * `wiring` overrides the declaration of the route or worker the handler belongs to.
 */
export function functionCode(handler: string, wiring?: WiringDeclaration): lambda.Code {
  return lambda.Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // aws-cdk-lib's asset cache key holds the source path and these options, not the bundler function: this tells
      // the functions' bundles apart (the bundler reads no environment)
      environment: { BUNDLE: bundleKey(handler, wiring) },
      // never pulled: the local bundler below always succeeds (no Docker on the build machine)
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      local: { tryBundle: (outputDir) => { writeBundle(handler, wiring, outputDir); return true; } },
    },
  });
}

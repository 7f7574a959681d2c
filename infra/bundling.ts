import { builtinModules } from 'node:module';
import path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { routeList } from '../functions/routes';
import { dispatcher, workers } from '../functions/workers';
import { handlerFile } from '../shared/http/route';
import { wiringDefines, type WiringDeclaration } from '../shared/wiring/declaration';

/**
 * THE esbuild settings of a Lambda bundle. infra/constructs/app-function.ts hands them to the CDK NodejsFunction,
 * bench/bundles.bench.ts and test/infra/bundle-graph.test.ts build with exactly the same (esbuildOptions), so what
 * the bench measures and the test checks is what is deployed.
 *
 * - The AWS SDK is taken from the Lambda runtime's own copy (`@aws-sdk/*`, `@smithy/*` left external): with it
 *   bundled the targets (median ≤ 500 KB, largest ≤ 900 KB) are out of reach — the MCP function alone wires eight
 *   clients, ~700 KB — see docs/decisions.md "Lean bundles" for the figures both ways and the risk taken.
 *   `awsSdk: 'bundled'` puts it back inside (only the clients the declaration wires).
 * - `mainFields: module, main`: packages' ES module builds, so esbuild drops what a function does not use.
 * - `define`: the container's wiring switches for this function (shared/wiring/declaration.ts), and the tracing one:
 *   only functions that declare `tracing` carry the X-Ray SDK (shared/tracing.ts).
 * - With the SDK bundled, its clients read the execution role's credentials from the environment only
 *   (shared/wiring/lambda-credentials.ts); the runtime's copy keeps its own chain (the environment comes first).
 * - Source maps are written but not loaded at start (no --enable-source-maps; docs/decisions.md).
 * - A route that declares `splitBundle` (the MCP server) gets ES modules split at its handler's dynamic imports
 *   (`splitOptions` below): its cold start compiles only the start-up chunk.
 */
const PROJECT_ROOT = path.resolve(__dirname, '..');

const AWS_SDK = 'runtime' as 'bundled' | 'runtime';

export const LAMBDA_BUNDLE = {
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  minify: true,
  mainFields: ['module', 'main'] as string[],
  /**
   * `bundled`: the locked SDK inside each bundle (only the clients the function wires). `runtime`: left out and
   * loaded from the Lambda runtime's own copy (smaller bundles, an SDK version we neither lock nor test).
   */
  awsSdk: AWS_SDK,
  /** A map next to the code, without copies of the sources (keeps the zip small). */
  sourceMap: true,
  sourcesContent: false,
  /** Packages replaced in every bundle (esbuild alias; absolute paths: esbuild resolves them in its working directory). */
  alias: {
    // one luxon: cron-parser require()s its CommonJS build, our imports would add its ES build (70 KB twice)
    luxon: path.join(PROJECT_ROOT, 'node_modules/luxon/build/node/luxon.js'),
    // ws's ES entry re-exports its server, stream and helpers (CommonJS, so kept whole): the Nostr code needs only the client
    ws: path.join(PROJECT_ROOT, 'node_modules/ws/lib/websocket.js'),
    // the MCP SDK's runtime shim without its AJV validator (~100 KB): the MCP server never validates elicitation answers
    '@modelcontextprotocol/server/_shims': path.join(PROJECT_ROOT, 'functions/mcp/sdk-shims.ts'),
  } as Record<string, string>,
  /** NODE_OPTIONS of every function: empty, so stack traces are not mapped at start (see decisions). */
  nodeOptions: '' as string,
} as const;

/**
 * Wherever the SDK is bundled (a function's bundle with `awsSdk: 'bundled'`, the SDK layer's client files): the SDK's
 * full default credential chain replaced by the environment-only one Lambda needs (shared/wiring/lambda-credentials.ts).
 */
export const ENV_CREDENTIALS: Record<string, string> = {
  '@aws-sdk/credential-provider-node': path.join(PROJECT_ROOT, 'shared/wiring/lambda-credentials.ts'),
};

/**
 * What the SDK choice changes in the esbuild options: `runtime` leaves the SDK's packages external; `bundled` keeps
 * them in and swaps the SDK's full credential chain for the environment-only one (shared/wiring/lambda-credentials.ts).
 */
export function sdkOptions(choice: 'bundled' | 'runtime'): { external: string[]; alias: Record<string, string> } {
  return choice === 'runtime'
    ? { external: ['@aws-sdk/*', '@smithy/*'], alias: LAMBDA_BUNDLE.alias }
    : { external: [], alias: { ...LAMBDA_BUNDLE.alias, ...ENV_CREDENTIALS } };
}


/** Packages left out of every bundle (loaded from the Lambda runtime), and the aliases of every bundle. */
export const LAMBDA_EXTERNALS: string[] = sdkOptions(LAMBDA_BUNDLE.awsSdk).external;
export const LAMBDA_ALIAS: Record<string, string> = sdkOptions(LAMBDA_BUNDLE.awsSdk).alias;

/**
 * One deployed Lambda function: its name, its handler file, what it declares it wires, and whether its bundle is split
 * ES modules (the route's `splitBundle`) rather than one CommonJS file.
 */
export interface LambdaFunction { id: string; handler: string; wiring: WiringDeclaration; split?: boolean }

const declarationOf = (d: WiringDeclaration): WiringDeclaration => ({ grants: d.grants, networks: d.networks, presigns: d.presigns, tracing: d.tracing, publishes: d.publishes });

/** Every function the stacks deploy: the routes (not the local-only ones), the queue workers and the dispatcher. */
export function lambdaFunctions(): LambdaFunction[] {
  return [
    ...routeList.filter((r) => !r.localOnly).map((r) => ({
      id: r.id, handler: handlerFile(r), wiring: { grants: r.grants, networks: r.networks, presigns: r.presigns }, ...(r.splitBundle ? { split: true } : {}),
    })),
    ...workers.map((w) => ({ id: w.id, handler: w.handler, wiring: declarationOf(w) })),
    { id: dispatcher.id, handler: dispatcher.handler, wiring: declarationOf(dispatcher) },
  ];
}

/** The declaration of the function whose handler is `handler` (project-relative); throws for an unknown handler. */
export function wiringOf(handler: string): WiringDeclaration {
  const found = lambdaFunctions().find((f) => f.handler === handler);
  if (!found) throw new Error(`${handler} is no route, worker or dispatcher handler (functions/routes, functions/workers.ts): its wiring is unknown`);
  return found.wiring;
}

/** Whether the function whose handler is `handler` has a split bundle (ES modules, infra/bundling.ts splitOptions). */
export function isSplit(handler: string): boolean {
  return lambdaFunctions().some((f) => f.handler === handler && f.split === true);
}

/** The file Lambda loads of a bundle written for `outfile` (`index.js`): itself, or `index.mjs` beside it when split. */
export function entryFile(handler: string, outfile: string): string {
  return isSplit(handler) ? outfile.replace(/\.js$/, '.mjs') : outfile;
}

/** The name every chunk of a split bundle binds Node's require to (banner): unlike any name esbuild's minifier makes. */
const CHUNK_REQUIRE = '__spaRequireOf';

/**
 * A split bundle's imports of what stays out of it (the AWS SDK taken from the runtime, Node's built-ins) become
 * require() calls inside the importing module, as they are in a CommonJS bundle: each loads when that module first
 * runs. (An ES module's imports all load before any of its code runs, so the SDK's clients would load at init.) The
 * `require` is the chunk's own, made by the banner with createRequire: it resolves through NODE_PATH, where Lambda
 * puts its SDK copy and layers (docs/decisions.md "MCP cold start: a split bundle and a tree-shaken SDK layer").
 */
function requireOnFirstRun(leftOut: RegExp): Plugin {
  return {
    name: 'require-on-first-run',
    setup(b) {
      b.onResolve({ filter: leftOut }, (args) => (args.namespace === 'left-out'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'left-out' }));
      b.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
    },
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Node's built-ins, with and without `node:`, and their subpaths (fs/promises). */
const BUILTINS = `node:|(${builtinModules.filter((m) => !m.startsWith('_')).map(escapeRegExp).join('|')})(/|$)`;

/**
 * The esbuild options of a split bundle written for `outfile` (`dir/index.js`): `dir/index.mjs` (Lambda's handler
 * `index.handler` finds it) and `dir/chunk-*.mjs`, ES modules split at the handler's dynamic imports, so what only a
 * later request runs (the MCP SDK, the tools) is neither read nor compiled at init.
 */
function splitOptions(outfile: string): BuildOptions {
  const leftOut = new RegExp(`^(${LAMBDA_BUNDLE.awsSdk === 'runtime' ? '@aws-sdk/|@smithy/|' : ''}${BUILTINS})`);
  return {
    format: 'esm',
    splitting: true,
    outdir: path.dirname(outfile),
    entryNames: path.basename(outfile, '.js'),
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    banner: { js: `import{createRequire as ${CHUNK_REQUIRE}}from'node:module';const require=${CHUNK_REQUIRE}(import.meta.url);` },
    plugins: [requireOnFirstRun(leftOut)],
    external: [],
  };
}

/** esbuild options of one function's bundle (bench and tests; the CDK build is given the same through app-function.ts). */
export function esbuildOptions(root: string, handler: string, outfile: string, wiring: WiringDeclaration = wiringOf(handler)): BuildOptions {
  const common: BuildOptions = {
    entryPoints: [path.join(root, handler)],
    absWorkingDir: root,
    bundle: true,
    platform: LAMBDA_BUNDLE.platform,
    target: LAMBDA_BUNDLE.target,
    format: LAMBDA_BUNDLE.format,
    minify: LAMBDA_BUNDLE.minify,
    mainFields: LAMBDA_BUNDLE.mainFields,
    define: wiringDefines(wiring),
    alias: LAMBDA_ALIAS,
    external: LAMBDA_EXTERNALS,
  };
  return isSplit(handler) ? { ...common, ...splitOptions(outfile) } : { ...common, outfile };
}

import path from 'node:path';
import type { BuildOptions } from 'esbuild';
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
 * What the SDK choice changes in the esbuild options: `runtime` leaves the SDK's packages external; `bundled` keeps
 * them in and swaps the SDK's full credential chain for the environment-only one (shared/wiring/lambda-credentials.ts).
 */
export function sdkOptions(choice: 'bundled' | 'runtime'): { external: string[]; alias: Record<string, string> } {
  return choice === 'runtime'
    ? { external: ['@aws-sdk/*', '@smithy/*'], alias: LAMBDA_BUNDLE.alias }
    : { external: [], alias: { ...LAMBDA_BUNDLE.alias, '@aws-sdk/credential-provider-node': path.join(PROJECT_ROOT, 'shared/wiring/lambda-credentials.ts') } };
}

/** Packages left out of every bundle (loaded from the Lambda runtime), and the aliases of every bundle. */
export const LAMBDA_EXTERNALS: string[] = sdkOptions(LAMBDA_BUNDLE.awsSdk).external;
export const LAMBDA_ALIAS: Record<string, string> = sdkOptions(LAMBDA_BUNDLE.awsSdk).alias;

/** One deployed Lambda function: its name, its handler file and what it declares it wires. */
export interface LambdaFunction { id: string; handler: string; wiring: WiringDeclaration }

const declarationOf = (d: WiringDeclaration): WiringDeclaration => ({ grants: d.grants, networks: d.networks, presigns: d.presigns, tracing: d.tracing, publishes: d.publishes });

/** Every function the stacks deploy: the routes (not the local-only ones), the queue workers and the dispatcher. */
export function lambdaFunctions(): LambdaFunction[] {
  return [
    ...routeList.filter((r) => !r.localOnly).map((r) => ({ id: r.id, handler: handlerFile(r), wiring: { grants: r.grants, networks: r.networks, presigns: r.presigns } })),
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

/** esbuild options of one function's bundle (bench and tests; the CDK build is given the same through app-function.ts). */
export function esbuildOptions(root: string, handler: string, outfile: string, wiring: WiringDeclaration = wiringOf(handler)): BuildOptions {
  return {
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
    outfile,
  };
}

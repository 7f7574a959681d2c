/**
 * What each Lambda bundle holds, from esbuild's metafile with the production options (infra/bundling.ts, the ones
 * app-function.ts gives the CDK build): a function carries network send code only when it declares `networks` (the
 * routes that only validate posts carry each network's limits modules instead), an AWS SDK client (or Stripe) only
 * when one of its grants uses it, the X-Ray SDK only when it declares `tracing`, the video container parser (shared/media/iso-bmff.ts) only when it `publishes`,
 * never the local stand-ins.
 *
 * Fast: functions of the same wiring are built together, nothing is written, and packages are left external (their
 * insides are the same in every bundle; what matters is which ones the function's own graph imports). Three full
 * production builds then check inside the packages: no zod locale but English, the SDK as infra/bundling.ts chooses
 * it (left to the runtime, or inside without its full credential chain), luxon once, X-Ray only if traced.
 */
import { build, type Metafile } from 'esbuild';
import path from 'node:path';
import { esbuildOptions, LAMBDA_BUNDLE, lambdaFunctions, type LambdaFunction } from '../../infra/bundling';
import { wiredGroups, wiringDefines, type WireGroup } from '../../shared/wiring/declaration';
import { LAYER_COPIES, SDK_PACKAGES } from '../../infra/constructs/sdk-layer';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..', '..');

/** The packages each wiring group brings; a bundle may hold one only if its function wires the group. */
const PACKAGES_OF: Array<[pkg: string, groups: WireGroup[]]> = [
  ['@aws-sdk/client-dynamodb', ['TABLE']],
  ['@aws-sdk/lib-dynamodb', ['TABLE']],
  ['@aws-sdk/client-sqs', ['SQS']],
  ['@aws-sdk/client-s3', ['S3']],
  ['@aws-sdk/s3-request-presigner', ['S3']],
  ['@aws-sdk/client-sesv2', ['SES']],
  ['@aws-sdk/client-kms', ['KMS']],
  ['@aws-sdk/client-scheduler', ['SCHEDULER']],
  ['@aws-sdk/client-ssm', ['OAUTH_SSM', 'BILLING']],
  ['@aws-sdk/client-bedrock-runtime', ['AI']],
  ['stripe', ['BILLING']],
  // X-Ray subsegments (Powertools Tracer → aws-xray-sdk-core, cls-hooked) only where the declaration says `tracing`
  ['@aws-lambda-powertools/tracer', ['TRACING']],
  ['aws-xray-sdk-core', ['TRACING']],
];

/**
 * The network modules a function may carry without `networks`: each network's descriptor (network.ts: its facts and
 * guarded loaders), content checks and text rule (limits.ts, what the API side validates with), configuration keys
 * (config-keys.ts: zod fields the configuration schema merges, so every function carries them), the registry and the tables built
 * from it by iterating descriptors (descriptor-limits.ts, verifiers.ts, oauth-providers.ts: no network code of their own),
 * and the small helpers the checks use. Everything else under shared/networks is network code.
 */
const CHECK_MODULES = /^shared\/networks\/([a-z_]+\/(limits|network|post-ref|config-keys)|network-list|descriptor-limits|descriptor|verifiers|oauth-providers|text-check|media-rules|failures|article-title|article-status)\.ts$/;
const sendCode = (files: string[]) => files.filter((f) => f.startsWith('shared/networks/') && !CHECK_MODULES.test(f));
/**
 * The modules of sending, reading back, deleting and editing posts: only a function that `publishes` carries them. A
 * function with `networks` alone (connect, health checks, sign-in, MCP) carries each network's verify-credentials.ts and
 * oauth.ts and the helpers they use.
 */
const SEND_MODULES = /^shared\/networks\/([a-z_]+\/(index|manage|read-back|media|video|upload|facets|link-card)|registry|read-back-match|sandbox-links)\.ts$/;
/** Packages only network send code imports (Nostr's relays and signing). */
const SEND_PACKAGES = ['ws', 'nostr-tools'];

/**
 * Routes that validate posts against every network's limits but never talk to a network. (The dispatcher is not one:
 * its renewal sweep renews OAuth tokens at the networks, so it declares `networks`.)
 */
const VALIDATING = ['post-post', 'post-schedule', 'patch-schedule', 'post-bulk', 'post-recurring', 'post-week', 'post-review', 'post-dashboard-approval-decision'];

/** Project modules that serve only the local runtime (the sandbox's simulators: their kit, each network's simulator.ts). */
const LOCAL_ONLY = ['shared/adapters/local/', 'shared/adapters/dynamodb/table-scheduler.ts', 'shared/networks/sandbox-links.ts', 'shared/networks/sandbox-kit/'];
const SIMULATOR = /^shared\/networks\/[a-z_]+\/([a-z-]+-)?simulator\.ts$/;

/** Per function: the project files in its bundle and the packages they import. */
const graphs = new Map<string, { files: string[]; packages: Set<string> }>();

const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);

beforeAll(async () => {
  const byWiring = new Map<string, LambdaFunction[]>();
  for (const fn of lambdaFunctions()) {
    const key = JSON.stringify(wiringDefines(fn.wiring));
    byWiring.set(key, [...(byWiring.get(key) ?? []), fn]);
  }
  await Promise.all([...byWiring.values()].map(async (fns) => {
    const { outfile: _outfile, ...options } = esbuildOptions(ROOT, fns[0]!.handler, 'unused.js');
    const out = await build({
      ...options, packages: 'external',
      entryPoints: Object.fromEntries(fns.map((f) => [f.id, path.join(ROOT, f.handler)])),
      outdir: path.join(ROOT, 'cdk.out', 'bundle-graph'), entryNames: '[name]',
      write: false, metafile: true, logLevel: 'silent',
    });
    const meta = out.metafile as Metafile;
    for (const fn of fns) {
      const entry = Object.keys(meta.outputs).find((file) => file.endsWith(`/${fn.id}.js`) || file.endsWith(`/${fn.id}.mjs`));
      if (!entry) throw new Error(`no output for ${fn.id}`);
      // a split bundle (ES modules) is its entry and every chunk it imports, at start or later
      const outputs = new Set([entry]);
      for (const o of outputs) for (const i of meta.outputs[o]!.imports) if (!i.external) outputs.add(i.path);
      const files = [...new Set([...outputs].flatMap((o) => Object.keys(meta.outputs[o]!.inputs)))];
      const packages = new Set(files.flatMap((f) => (meta.inputs[f]?.imports ?? []).filter((i) => i.external && !i.path.startsWith('node:')).map((i) => packageOf(i.path))));
      graphs.set(fn.id, { files, packages });
    }
  }));
});

const functions = lambdaFunctions();

test('every deployed function is built (routes, workers, dispatcher)', () => {
  expect(functions.length).toBeGreaterThan(90);
  expect(functions.map((f) => f.id)).toEqual(expect.arrayContaining(['get-plans', 'post-post', 'publish-worker', 'webhook-worker', 'dispatch', 'post-mcp']));
  for (const fn of functions) expect(graphs.get(fn.id)?.files).toContain(fn.handler);
});

describe.each(functions.map((f) => [f.id, f] as const))('%s', (_id, fn) => {
  const groups = wiredGroups(fn.wiring);
  const graph = () => graphs.get(fn.id) ?? { files: [], packages: new Set<string>() };

  test(fn.wiring.networks ? 'carries the network code it declares' : 'carries no network send code', () => {
    const { files, packages } = graph();
    if (fn.wiring.networks && groups.has('PUBLISH')) {
      expect(files).toEqual(expect.arrayContaining(['shared/networks/registry.ts', 'shared/networks/telegram/index.ts', 'shared/networks/nostr/index.ts']));
    } else if (fn.wiring.networks) {
      // verifies and signs in, never sends: each network's verify-credentials.ts and oauth.ts, none of its send modules
      expect(files).toEqual(expect.arrayContaining(['shared/networks/verifiers.ts', 'shared/networks/oauth-providers.ts', 'shared/networks/telegram/verify-credentials.ts', 'shared/networks/x/oauth.ts']));
      expect(files.filter((f) => SEND_MODULES.test(f))).toEqual([]);
    } else {
      expect(sendCode(files)).toEqual([]);
      expect(SEND_PACKAGES.filter((p) => packages.has(p) || files.some((f) => f.startsWith(`node_modules/${p}/`)))).toEqual([]);
    }
  });

  test('carries only the AWS SDK clients (and Stripe) its grants use, and never the local stand-ins', () => {
    const { files, packages } = graph();
    // imported by name (left external here), or aliased to a file of the package (infra/bundling.ts alias)
    const carries = (pkg: string) => packages.has(pkg) || files.some((f) => f.startsWith(`node_modules/${pkg}/`));
    expect(PACKAGES_OF.filter(([pkg, by]) => !by.some((g) => groups.has(g)) && carries(pkg)).map(([pkg]) => pkg)).toEqual([]);
    // a client this table does not know: add it to PACKAGES_OF with the grant that uses it
    expect([...packages].filter((p) => p.startsWith('@aws-sdk/client-') && !PACKAGES_OF.some(([pkg]) => pkg === p))).toEqual([]);
    if (groups.has('TABLE')) expect(packages).toContain('@aws-sdk/client-dynamodb');
    if (groups.has('TRACING')) expect(packages).toContain('@aws-lambda-powertools/tracer');
    // the video container parser the adapters check downloaded files with: only where posts are published
    expect(files.includes('shared/media/iso-bmff.ts')).toBe(groups.has('PUBLISH'));
    // mp4box (the parser it replaced, 180 KB) is only the tests' oracle now
    expect(carries('mp4box')).toBe(false);
    expect(files.filter((f) => LOCAL_ONLY.some((l) => f.startsWith(l)) || SIMULATOR.test(f))).toEqual([]);
  });
});

test.each(['get-keys', 'publish-worker', 'post-mcp'])('%s, built in full: no zod locale but English, the SDK as chosen, one luxon, X-Ray only if traced', async (id) => {
  const fn = functions.find((f) => f.id === id)!;
  const out = await build({ ...esbuildOptions(ROOT, fn.handler, path.join(ROOT, 'cdk.out', 'bundle-graph', id, 'index.js')), write: false, metafile: true, logLevel: 'silent' });
  // every file of the bundle (a split one has chunks besides its entry)
  const inputs = Object.values(out.metafile!.outputs).flatMap((o) => Object.entries(o.inputs)).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f);
  const code = out.outputFiles!.filter((f) => !f.path.endsWith('.map')).map((f) => f.text).join('\n');
  // each locale is its own file; the barrel (locales/index.js) shows as an empty init stub where zod is reached through a
  // lazily required module (the networks' config-keys.ts under the registry the container require()s)
  expect(inputs.filter((f) => /node_modules\/zod\/.*\/locales\/(?!en\.js|index\.js)/.test(f))).toEqual([]);
  expect(inputs.filter((f) => f.includes('node_modules/@aws-sdk/credential-provider-node/'))).toEqual([]);
  // the SDK inside (with the environment-only credentials) or left to the Lambda runtime's copy (infra/bundling.ts)
  const sdkInside = inputs.filter((f) => /node_modules\/@(aws-sdk|smithy)\//.test(f));
  if (LAMBDA_BUNDLE.awsSdk === 'runtime') {
    expect(sdkInside).toEqual([]);
    // required by name where first used (in a split bundle through the chunk's own require: never an ES import,
    // which would load every client at init)
    expect(code).toMatch(/\b(require|\w+)\("@aws-sdk\/client-dynamodb"\)/);
    expect(code).not.toMatch(/from\s*"@aws-sdk\//);
    // whatever asks the SDK's side for a package by name (our adapters, the X-Ray SDK's patcher) finds it in the layer
    const fromLayer = new Set(Object.values(out.metafile!.inputs).flatMap((i) => i.imports).filter((i) => i.external && /^@(aws-sdk|smithy)\//.test(i.path)).map((i) => packageOf(i.path)));
    expect([...fromLayer].filter((p) => !([...SDK_PACKAGES, ...LAYER_COPIES] as string[]).includes(p))).toEqual([]);
  } else {
    expect(inputs).toContain('shared/wiring/lambda-credentials.ts');
    expect(inputs.some((f) => f.includes('node_modules/@aws-sdk/client-dynamodb/'))).toBe(true);
  }
  expect(inputs.filter((f) => f.includes('node_modules/luxon/build/') && !f.endsWith('luxon/build/node/luxon.js'))).toEqual([]);
  expect(inputs.some((f) => /node_modules\/(aws-xray-sdk-core|cls-hooked)\//.test(f))).toBe(Boolean(fn.wiring.tracing));
});

test.each(VALIDATING)('%s validates with the networks\' content checks and carries no send code', (id) => {
  const fn = functions.find((f) => f.id === id)!;
  expect(fn.wiring.networks).toBeFalsy();
  const { files, packages } = graphs.get(id)!;
  expect(files).toEqual(expect.arrayContaining(['shared/networks/descriptor-limits.ts', 'shared/networks/bluesky/limits.ts', 'shared/networks/nostr/limits.ts']));
  expect(sendCode(files)).toEqual([]);
  expect(SEND_PACKAGES.filter((p) => packages.has(p) || files.some((f) => f.startsWith(`node_modules/${p}/`)))).toEqual([]);
});

test('the workers that call networks and receivers trace with subsegments; an API route does not', () => {
  const tracing = functions.filter((f) => f.wiring.tracing).map((f) => f.id).sort();
  expect(tracing).toEqual(['publish-worker', 'webhook-worker']);
  expect(graphs.get('post-post')?.packages.has('@aws-lambda-powertools/tracer')).toBe(false);
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { entryFile, esbuildOptions, LAMBDA_BUNDLE, lambdaFunctions, sdkOptions, type LambdaFunction } from '../infra/bundling';

/**
 * Lambda bundle size and module init (cold-start import) time, per function.
 *
 * Bundled with infra/bundling.ts's esbuildOptions, the settings the CDK NodejsFunction gets (app-function.ts):
 * minified CJS for node22 (split ES modules for a route that declares `splitBundle`: all its chunks are counted, and
 * init imports its index.mjs), the function's own wiring (adapters of its declared grants and networks only), the AWS
 * SDK as LAMBDA_BUNDLE.awsSdk says (`runtime`: left out, and the bundle is written under node_modules/.cache so
 * the SDK resolves from node_modules as it would from the runtime's copy). The size is the code Lambda loads (the
 * source map, written next to it in AWS, is not counted). The SDK clients themselves load at first use (the
 * container requires them lazily), in both choices.
 *
 * Init time: the bundle is written to a temp dir and `require`d by a fresh `node` 5 times; the median is printed.
 * This is the module-evaluation part of a cold start on this machine (not the Lambda runtime's own start-up, nor the
 * first request), a relative figure to compare functions and spot heavy imports.
 *
 * `BUNDLES_ONLY=get-plans,post-post` measures only the functions named.
 *
 * Then, for a few functions, the two choices docs/decisions.md records: the other AWS SDK choice (bundled, or left
 * out and loaded from node_modules as from the Lambda runtime's copy), and the source map loaded at start
 * (NODE_OPTIONS=--enable-source-maps).
 */
const ROOT = path.resolve(__dirname, '..');
const RUNS = 5;
const CHILD_ENV = {
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  RUNTIME: 'aws',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'x',
};
/** Loads a bundle as Lambda's runtime does: import() of an ES module (a split bundle's index.mjs), require() otherwise. */
const INIT_SCRIPT = "(async()=>{const t=process.hrtime.bigint();const f=process.argv[1];if(f.endsWith('.mjs'))await import(f);else require(f);console.log(Number(process.hrtime.bigint()-t)/1e6)})()";
const VARIANT_FUNCTIONS = ['get-plans', 'get-keys', 'post-post', 'publish-worker'];

/** Every function, or only those named in BUNDLES_ONLY (comma-separated ids: quick checks of a few bundles). */
function functions(): { present: LambdaFunction[]; missing: LambdaFunction[] } {
  const only = (process.env.BUNDLES_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const all = lambdaFunctions().filter((f) => !only.length || only.includes(f.id));
  const exists = (f: LambdaFunction) => fs.existsSync(path.join(ROOT, f.handler));
  return { present: all.filter(exists), missing: all.filter((f) => !exists(f)) };
}

/** Output bytes per npm package (scoped packages grouped by scope, e.g. @aws-sdk/*), project code as "(project)". */
function packages(meta: Metafile): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const o of Object.values(meta.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(o.inputs)) {
      const m = /node_modules\/((@[^/]+)\/[^/]+|[^/]+)\//.exec(input.slice(input.lastIndexOf('node_modules/')));
      const key = m ? (m[2] ? `${m[2]}/*` : m[1]) : '(project)';
      sizes.set(key, (sizes.get(key) ?? 0) + bytesInOutput);
    }
  }
  return sizes;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function initMs(file: string, nodeOptions = ''): number[] {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...CHILD_ENV, NODE_OPTIONS: nodeOptions };
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ['-e', INIT_SCRIPT, file], { env, cwd: path.dirname(file), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(out.trim().split('\n').pop());
    if (!Number.isFinite(ms)) throw new Error(`unexpected output from init run of ${file}: ${out}`);
    times.push(ms);
  }
  return times;
}

/**
 * Builds one function (with `extra` esbuild options over the production ones) for `file` (`dir/index.js`): the file
 * to load (a split bundle's index.mjs), its code's bytes (every chunk of a split bundle, no source map), its metafile.
 */
async function bundle(fn: LambdaFunction, file: string, extra: BuildOptions = {}): Promise<{ entry: string; bytes: number; meta: Metafile }> {
  const out = await build({ ...esbuildOptions(ROOT, fn.handler, file), write: false, logLevel: 'silent', metafile: true, ...extra });
  if (!out.outputFiles || !out.metafile) throw new Error(`esbuild returned no output for ${fn.handler}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let bytes = 0;
  for (const o of out.outputFiles) {
    fs.writeFileSync(o.path, o.contents);
    if (!o.path.endsWith('.map')) bytes += o.contents.byteLength;
  }
  return { entry: entryFile(fn.handler, file), bytes, meta: out.metafile };
}

export async function run(): Promise<void> {
  const sdk = LAMBDA_BUNDLE.awsSdk;
  const other = sdk === 'runtime' ? 'bundled' : 'runtime';
  console.log(`\n## Lambda bundles — infra/bundling.ts (minify, node22, cjs or split ES modules as the route says, per-function wiring, AWS SDK ${sdk === 'runtime' ? "from the runtime" : 'bundled'}), init = median of ${RUNS} fresh \`node\` requires`);
  const { present, missing } = functions();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bundles-'));
  // where a bundle whose SDK is external finds it: inside the project, as the runtime's copy would be found
  const inProject = path.join(ROOT, 'node_modules', '.cache', 'spa-bundles');
  const dirFor = (choice: 'bundled' | 'runtime') => (choice === 'runtime' ? inProject : tmp);
  const rows: Array<{ name: string; kb: number; ms: number; min: number; max: number; byPackage: Map<string, number> }> = [];
  const variants: string[] = [];
  try {
    for (const fn of present) {
      const file = path.join(dirFor(sdk), fn.id, 'index.js');
      const { entry, bytes, meta } = await bundle(fn, file);
      const times = initMs(entry);
      rows.push({ name: fn.id, kb: bytes / 1024, ms: median(times), min: Math.min(...times), max: Math.max(...times), byPackage: packages(meta) });
    }
    for (const fn of present.filter((f) => VARIANT_FUNCTIONS.includes(f.id))) {
      const base = rows.find((r) => r.name === fn.id)!;
      const otherFile = path.join(dirFor(other), `${fn.id}-${other}`, 'index.js');
      const alt = await bundle(fn, otherFile, sdkOptions(other));
      const altMs = median(initMs(alt.entry));
      const mapped = await bundle(fn, path.join(dirFor(sdk), `${fn.id}-map`, 'index.js'), { sourcemap: true, sourcesContent: false });
      const mapMs = median(initMs(mapped.entry, '--enable-source-maps'));
      const label = (choice: string) => (choice === 'runtime' ? 'SDK from node_modules' : 'bundled SDK');
      variants.push(`  ${fn.id}: ${label(sdk)} ${base.kb.toFixed(0)} KB ${base.ms.toFixed(1)} ms | ${label(other)} ${(alt.bytes / 1024).toFixed(0)} KB `
        + `${altMs.toFixed(1)} ms | with --enable-source-maps ${mapMs.toFixed(1)} ms`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(inProject, { recursive: true, force: true });
  }

  const w = Math.max(8, ...rows.map((r) => r.name.length));
  console.log(`  ${'function'.padEnd(w)}  ${'KB'.padStart(7)}  ${'init ms'.padStart(8)}  ${'(min–max)'.padStart(13)}`);
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(w)}  ${r.kb.toFixed(1).padStart(7)}  ${r.ms.toFixed(1).padStart(8)}  ${`${r.min.toFixed(1)}–${r.max.toFixed(1)}`.padStart(13)}`);
  }
  if (rows.length) {
    const kb = rows.map((r) => r.kb);
    console.log(`  ${rows.length} functions: ${Math.min(...kb).toFixed(1)}–${Math.max(...kb).toFixed(1)} KB (median ${median(kb).toFixed(1)} KB, total ${(kb.reduce((a, b) => a + b, 0) / 1024).toFixed(1)} MB), `
      + `median init ${median(rows.map((r) => r.ms)).toFixed(1)} ms`);
    const biggest = rows.reduce((a, b) => (b.kb > a.kb ? b : a));
    const top = [...biggest.byPackage].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`  largest (${biggest.name}) by package: ${top.map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KB`).join(', ')}`);
  }
  if (variants.length) {
    console.log('  choices (init = median of the same fresh requires):');
    for (const v of variants) console.log(v);
  }
  for (const fn of missing) console.log(`  skipped ${fn.id}: ${fn.handler} does not exist yet`);
}

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { routeList } from '../infra/routes';
import { handlerFile } from '../shared/http/route';
import { dispatcher, workers } from '../infra/workers';

/**
 * Lambda bundle size and module init (cold-start import) time, per function.
 *
 * Bundled as infra/constructs/app-function.ts has the CDK NodejsFunction do it: esbuild --bundle, minify, platform
 * node, target node22, format cjs, and bundleAwsSDK: true (so no externals — the @aws-sdk/* packages are inside).
 * The CDK build also writes a source map (sourceMap: true); it is left off here: the size is the code Lambda loads.
 *
 * Init time: the bundle is written to a temp dir and `require`d by a fresh `node` 5 times; the median is printed.
 * This is the module-evaluation part of a cold start on this machine (not the Lambda runtime's own start-up, nor the
 * first request), a relative figure to compare functions and spot heavy imports.
 */
const ROOT = path.resolve(__dirname, '..');
const RUNS = 5;
const CHILD_ENV = {
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  RUNTIME: 'aws',
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'x',
};
const INIT_SCRIPT = 'const t=process.hrtime.bigint();require(process.argv[1]);console.log(Number(process.hrtime.bigint()-t)/1e6)';

interface Fn { name: string; file: string }

function functions(): { present: Fn[]; missing: Fn[] } {
  const all: Fn[] = [
    ...routeList.filter((r) => !r.localOnly).map((r) => ({ name: r.id, file: handlerFile(r) })),
    ...workers.map((w) => ({ name: w.id, file: w.handler })),
    { name: dispatcher.id, file: dispatcher.handler },
  ];
  const exists = (f: Fn) => fs.existsSync(path.join(ROOT, f.file));
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

function initMs(file: string): number[] {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...CHILD_ENV };
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ['-e', INIT_SCRIPT, file], { env, cwd: path.dirname(file), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(out.trim().split('\n').pop());
    if (!Number.isFinite(ms)) throw new Error(`unexpected output from init run of ${file}: ${out}`);
    times.push(ms);
  }
  return times;
}

export async function run(): Promise<void> {
  console.log(`\n## Lambda bundles — esbuild (minify, node22, cjs, AWS SDK bundled), init = median of ${RUNS} fresh \`node\` requires`);
  const { present, missing } = functions();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bundles-'));
  const rows: Array<{ name: string; kb: number; ms: number; min: number; max: number; byPackage: Map<string, number> }> = [];
  try {
    for (const fn of present) {
      const out = await build({
        entryPoints: [path.join(ROOT, fn.file)],
        absWorkingDir: ROOT,
        bundle: true,
        minify: true,
        platform: 'node',
        target: 'node22',
        format: 'cjs',
        sourcemap: false,
        write: false,
        outfile: path.join(tmp, fn.name, 'index.js'),
        logLevel: 'silent',
        metafile: true,
      });
      const code = out.outputFiles[0];
      const file = path.join(tmp, fn.name, 'index.js');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, code.contents);
      const times = initMs(file);
      rows.push({ name: fn.name, kb: code.contents.byteLength / 1024, ms: median(times), min: Math.min(...times), max: Math.max(...times), byPackage: packages(out.metafile) });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const w = Math.max(8, ...rows.map((r) => r.name.length));
  console.log(`  ${'function'.padEnd(w)}  ${'KB'.padStart(7)}  ${'init ms'.padStart(8)}  ${'(min–max)'.padStart(13)}`);
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(w)}  ${r.kb.toFixed(1).padStart(7)}  ${r.ms.toFixed(1).padStart(8)}  ${`${r.min.toFixed(1)}–${r.max.toFixed(1)}`.padStart(13)}`);
  }
  if (rows.length) {
    const kb = rows.map((r) => r.kb);
    console.log(`  ${rows.length} functions: ${Math.min(...kb).toFixed(1)}–${Math.max(...kb).toFixed(1)} KB, median init ${median(rows.map((r) => r.ms)).toFixed(1)} ms`);
    const biggest = rows.reduce((a, b) => (b.kb > a.kb ? b : a));
    const top = [...biggest.byPackage].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`  largest (${biggest.name}) by package: ${top.map(([k, v]) => `${k} ${(v / 1024).toFixed(0)} KB`).join(', ')}`);
  }
  for (const fn of missing) console.log(`  skipped ${fn.name}: ${fn.file} does not exist yet`);
}

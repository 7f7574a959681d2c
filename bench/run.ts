import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm run bench` runs every bench/*.bench.ts in name order; `npm run bench -- me bundles` runs only those.
 * Each bench module exports `run(): Promise<void>` and prints its own figures.
 */
async function main(): Promise<void> {
  // The SDK warns once per process on Node < 22; the benches' figures don't need it (AWS sets this in the stack too).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dir = __dirname;
  const all = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).map((f) => f.slice(0, -'.bench.ts'.length)).sort();
  const asked = process.argv.slice(2).map((a) => path.basename(a).replace(/\.bench\.ts$|\.ts$/, ''));
  const unknown = asked.filter((a) => !all.includes(a));
  if (unknown.length) {
    console.error(`unknown bench: ${unknown.join(', ')} (available: ${all.join(', ')})`);
    process.exit(2);
  }
  const names = asked.length ? asked : all;

  const cpus = os.cpus();
  console.log('# Benchmarks');
  console.log(`node ${process.version} (${process.platform}/${process.arch}), ${cpus.length} CPU(s)${cpus[0] ? ` ${cpus[0].model.trim()}` : ''}, `
    + `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM`);
  console.log(`date ${new Date().toISOString()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min: other work on the machine skews the figures)`);
  console.log(`benches: ${names.join(', ')}`);

  const started = Date.now();
  let failed = 0;
  for (const name of names) {
    const t = Date.now();
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(path.join(dir, `${name}.bench.ts`)) as { run?: () => Promise<void> };
      if (typeof mod.run !== 'function') throw new Error(`bench/${name}.bench.ts exports no run()`);
      await mod.run();
    } catch (err) {
      failed++;
      console.error(`\nbench ${name} failed: ${(err as Error)?.stack ?? String(err)}`);
    }
    console.log(`(${name}: ${((Date.now() - t) / 1000).toFixed(1)} s)`);
  }
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(1)} s${failed ? `, ${failed} failed` : ''}`);
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
}).then(() => {
  // The local runtime's stand-ins can leave handles (keep-alive sockets, timers): don't hang after the figures.
  setTimeout(() => process.exit(), 200).unref();
});

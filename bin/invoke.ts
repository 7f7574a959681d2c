import './env';
import fs from 'node:fs';
import path from 'node:path';
import { routeList } from '../functions/routes';
import { dispatcher, workers } from '../functions/workers';
import { startLocalRuntime } from '../infra/local/runtime';
import { lambdaContext, loadHandler } from '../infra/local/invoke';

/**
 * `npm run invoke -- <function> <event.json>`: runs one handler, as Lambda would, against the embedded services
 * (state under DATA_DIR, default .data; stop `npm start` first or use another DATA_DIR: the store is single-process).
 * <function> is a route id (e.g. get-me), a worker id (publish-worker) or dispatch.
 */
async function main() {
  const [name, eventFile] = process.argv.slice(2);
  const fns: Record<string, string> = Object.fromEntries([
    ...routeList.map((r) => [r.id, `functions/http/${r.id}.ts`]),
    ...workers.map((w) => [w.id, w.handler]),
    [dispatcher.id, dispatcher.handler],
  ]);
  if (!name || !eventFile || !fns[name]) {
    process.stderr.write(`usage: npm run invoke -- <function> <event.json>\nfunctions: ${Object.keys(fns).join(', ')}\n`);
    process.exit(2);
  }
  const event = JSON.parse(fs.readFileSync(path.resolve(eventFile), 'utf8'));
  const rt = await startLocalRuntime({ port: 0, dataDir: process.env.DATA_DIR ?? '.data', log: () => undefined });
  try {
    const handler = await loadHandler(fns[name]);
    const result = await handler(event, lambdaContext(name, 30_000));
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } finally {
    await rt.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});

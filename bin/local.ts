import './env';
import { startLocalRuntime } from '../infra/local/runtime';
import { routeList } from '../infra/routes';

/** `npm start`: the whole service on http://localhost:3000 (PORT), state under .data/ (DATA_DIR). */
async function main() {
  // Readable logs on a terminal (Powertools' dev mode: the same JSON lines, indented); JSON lines when piped.
  if (process.stdout.isTTY && process.env.POWERTOOLS_DEV === undefined) process.env.POWERTOOLS_DEV = 'true';
  const port = Number(process.env.PORT ?? 3000);
  const dataDir = process.env.DATA_DIR ?? '.data';
  const rt = await startLocalRuntime({ port, dataDir, log: (l) => process.stderr.write(l + '\n') });
  process.stdout.write(`Social publishing API (local mode) listening on ${rt.url}\n` +
    `  data:     ${rt.dataDir}\n  routes:   ${routeList.length} (OpenAPI at ${rt.url}/api/openapi.json)\n` +
    `  outbox:   ${rt.url}/dev/outbox\n  Ctrl-C to stop.\n`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: shutting down…\n`);
    await rt.stop();
    process.stdout.write('stopped; data kept in ' + rt.dataDir + '\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`could not start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});

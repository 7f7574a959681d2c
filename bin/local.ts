import './env';
import { startLocalRuntime, type LocalRuntime } from '../infra/local/runtime';
import { routeList } from '../functions/routes';
import { ConfigError } from '../shared/config';

/** `npm start`: the whole service on http://localhost:3000 (PORT), state under .data/ (DATA_DIR). */
async function main() {
  // Readable logs on a terminal (Powertools' dev mode: the same JSON lines, indented); JSON lines when piped.
  if (process.stdout.isTTY && process.env.POWERTOOLS_DEV === undefined) process.env.POWERTOOLS_DEV = 'true';
  const portText = process.env.PORT?.trim() || '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) throw new ConfigError('PORT', `Invalid environment variable PORT=${JSON.stringify(portText)}: expected a port number 0-65535 (or leave it empty for 3000)`);
  const dataDir = process.env.DATA_DIR?.trim() || '.data';
  const rt = await startLocalRuntime({ port, dataDir, log: (l) => process.stderr.write(l + '\n') });
  process.stdout.write(banner(rt));
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

/** What runs where: the mode of the networks, the URL, the data, the outbox and (sandbox) the inbox. */
function banner(rt: LocalRuntime): string {
  const networks = rt.networks === 'live'
    ? '  networks: LIVE: posts go to the real networks (NETWORKS=live)\n'
    : `  networks: SANDBOX: all 16 simulated in this process, nothing leaves this machine (NETWORKS=live for the real ones)\n` +
      (rt.explicitNetworks.length ? `            your own settings kept for: ${rt.explicitNetworks.join(', ')}\n` : '') +
      `  inbox:    ${rt.url}/dev/sandbox/inbox (what the networks received; JSON and test credentials at ${rt.url}/dev/sandbox)\n`;
  return `Social publishing API (local mode) listening on ${rt.url}\n${networks}` +
    `  data:     ${rt.dataDir}\n  routes:   ${routeList.length} (OpenAPI at ${rt.url}/api/openapi.json)\n` +
    `  outbox:   ${rt.url}/dev/outbox (emails)\n  Ctrl-C to stop.\n`;
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`could not start: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`could not start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, TABLE_NAME } from '../infra/local/runtime';
import { documentClient } from '../shared/adapters/dynamodb/client';
import { keys, GSI1 } from '../shared/adapters/dynamodb/keys';
import { fireWorker, publishWorker } from '../functions/workers';
import { mapLimit } from '../shared/domain/map-limit';
import { client, must, signup } from './support/api';
import { recordingDiscord } from './support/networks';
import { fmt, percentile, printRows } from './support/stats';

/**
 * The top-of-the-hour spike, small and real (docs/benchmarks.md "The top-of-the-hour spike"): ACCOUNTS accounts
 * schedule PER_ACCOUNT posts each for the same minute boundary T, through the whole local runtime (HTTP → bulk
 * scheduling → the due index; at T the per-minute fan-out (timer poller → dispatcher) queues one fire message per
 * post → the fire worker's claim → the publish queue → the publish worker → a loopback Discord webhook fake). The
 * quotas are the local event-source mappings' (fire worker: batches of 10, publish worker: batches of 5, each 4
 * batches at once) and the one process's CPU. Printed: the spread from the first to the last publish, each post's
 * lateness after T, the claims' spread (fan-out + fire worker) and duplicates (must be 0).
 */
const ACCOUNTS = 200;
const PER_ACCOUNT = 10;
const TOTAL = ACCOUNTS * PER_ACCOUNT;
const MINUTE = 60_000;

export async function run(): Promise<void> {
  console.log(`\n## Spike — local runtime: ${TOTAL.toLocaleString('en-US')} posts due at the same minute across ${ACCOUNTS} accounts`);
  console.log(`load average at start ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  const { discord, arrivals } = await recordingDiscord();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bench-spike-'));
  const rt = await startLocalRuntime({ port: 0, dataDir, env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_TARGETS: '1', DISABLE_RATE_LIMITS: '1' } });
  try {
    const setup0 = Date.now();
    const stamp = Date.now();
    const apis = await mapLimit(Array.from({ length: ACCOUNTS }, (_, i) => i), 4, async (i) => {
      const key = await signup(rt.url, `spike-${stamp}-${i}@example.com`, 'pro');
      const api = client(rt.url, key);
      must(await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } }), 'POST /api/connect');
      return api;
    });
    console.log(`${ACCOUNTS} accounts signed up and connected in ${fmt((Date.now() - setup0) / 1000, 1)} s`);

    // T: a minute boundary with room to schedule everything first (the fan-out of minute T fires them all)
    const T = Math.ceil((Date.now() + 75_000) / MINUTE) * MINUTE;
    const sched0 = Date.now();
    await mapLimit(apis, 4, async (api, a) => {
      const posts = Array.from({ length: PER_ACCOUNT }, (_, i) => ({ platform: 'discord', text: `spike ${a}-${i}`, run_at: new Date(T).toISOString() }));
      const res = must(await api('POST', '/api/bulk', { posts }), 'POST /api/bulk');
      if (res.body.accepted !== PER_ACCOUNT) throw new Error(`bulk: ${JSON.stringify(res.body).slice(0, 300)}`);
    });
    const slack = T - Date.now();
    console.log(`${TOTAL} posts scheduled in ${fmt((Date.now() - sched0) / 1000, 1)} s; T is ${fmt(slack / 1000, 1)} s later`);
    if (slack < 1_000) throw new Error(`scheduling took past T (${slack} ms): raise the lead`);

    const spike = () => arrivals.filter((a) => a.text.startsWith('spike '));
    const deadline = T + 600_000;
    while (spike().length < TOTAL && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 2_000)); // late duplicates would show up here
    const loadEnd = fs.readFileSync('/proc/loadavg', 'utf8').trim();
    const got = spike();
    const distinct = new Set(got.map((a) => a.text)).size;
    const late = got.map((a) => a.at - T);
    const claims = (await claimTimes(apis)).map((c) => c - T);
    printRows([
      ['published (arrived at the network)', `${distinct} distinct of ${TOTAL}; ${got.length - distinct} duplicate sends`],
      ['first → last publish (spread)', got.length ? `${fmt((Math.max(...late) - Math.min(...late)) / 1000, 1)} s (first ${fmt(Math.min(...late) / 1000, 2)} s, last ${fmt(Math.max(...late) / 1000, 1)} s after T)` : '–'],
      ['lateness p50 / p99', `${fmt(percentile(late, 50) / 1000, 1)} / ${fmt(percentile(late, 99) / 1000, 1)} s after T`],
      ['claimed (fan-out + fire worker) first / p50 / last', claims.length ? `${fmt(Math.min(...claims) / 1000, 2)} / ${fmt(percentile(claims, 50) / 1000, 1)} / ${fmt(Math.max(...claims) / 1000, 1)} s after T (${claims.length} claims)` : '–'],
      ['throughput (posts published / spread)', got.length > 1 ? `${fmt(got.length / ((Math.max(...late) - Math.min(...late)) / 1000), 1)} posts/s` : '–'],
      ['local quotas', `fire worker ${fireWorker.batchSize}/batch × 4 batches at once; publish worker ${publishWorker.batchSize}/batch × 4`],
      ['load average at the end', loadEnd],
    ]);
    if (distinct !== TOTAL || got.length !== distinct) process.exitCode = 1;
  } finally {
    await rt.stop();
    await discord.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** claimed_at (ms) of every schedule of the accounts, read from the runtime's table (the API does not show it). */
async function claimTimes(apis: Array<ReturnType<typeof client>>): Promise<number[]> {
  const doc = documentClient({ region: 'us-east-1', endpoint: process.env.DYNAMODB_ENDPOINT });
  const out: number[] = [];
  for (const api of apis) {
    const accountId = (must(await api('GET', '/api/me'), 'GET /api/me').body.account as { id: string }).id;
    const res = await doc.send(new QueryCommand({
      TableName: TABLE_NAME, IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.scheduleByAccount(accountId, '', '').gsi1pk },
    }));
    for (const i of res.Items ?? []) if (typeof i.claimed_at === 'number') out.push(i.claimed_at);
  }
  doc.destroy();
  return out;
}

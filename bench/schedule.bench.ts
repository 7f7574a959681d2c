import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, TABLE_NAME } from '../infra/local/runtime';
import { documentClient } from '../shared/adapters/dynamodb/client';
import { keys, GSI1 } from '../shared/adapters/dynamodb/keys';
import { client, must, signup } from './support/api';
import { recordingDiscord } from './support/networks';
import { fmt, percentile, printRows } from './support/stats';

/**
 * Scheduling through the whole local runtime (HTTP → handlers → dynalite on disk → table scheduler → timer poller →
 * dispatcher → SQS → publish worker → a loopback Discord webhook fake).
 *
 * 1. Bulk: 10,000 posts scheduled through 20 POST /api/bulk calls of 500 JSON rows (each row checked now: brand,
 *    connection, media rules, plan cap; then the item, the plan counter and the alarm are written). Scale plan
 *    (20,000 scheduled at a time).
 * 2. Due together: 1,000 posts scheduled (2 bulk calls) for the same second T, a few seconds ahead; then the time from
 *    T until the last of them reached the network, and each post's lateness (arrival at the fake − T), p50/p99; also
 *    when the dispatcher claimed each schedule (claimed_at − T, read from the table), to tell the timer/dispatcher's
 *    share from the publish queue's and worker's; and the process CPU per fired post (all threads), which follows
 *    the code more than the machine's load does.
 */
const BULK_CALLS = 20;
const ROWS = 500;
const DUE_TOGETHER = 1_000;

export async function run(): Promise<void> {
  console.log(`\n## Scheduling — local runtime: ${BULK_CALLS} × ${ROWS} bulk rows; ${DUE_TOGETHER} posts due at the same second`);
  const { discord, arrivals } = await recordingDiscord();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bench-schedule-'));
  const rt = await startLocalRuntime({ port: 0, dataDir, env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_TARGETS: '1' } });
  try {
    const connected = async (email: string) => {
      const key = await signup(rt.url, email, 'scale');
      must(await client(rt.url, key)('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } }), 'POST /api/connect');
      return client(rt.url, key);
    };

    // 1. 10,000 through POST /api/bulk
    const api = await connected(`bench-bulk-${Date.now()}@example.com`);
    const base = Date.parse('2031-01-01T00:00:00Z');
    const callMs: number[] = [];
    let accepted = 0;
    const started = Date.now();
    for (let c = 0; c < BULK_CALLS; c++) {
      const posts = Array.from({ length: ROWS }, (_, i) => {
        const n = c * ROWS + i;
        return { platform: 'discord', text: `bulk post ${n}`, run_at: new Date(base + n * 60_000).toISOString() };
      });
      const t = Date.now();
      const res = must(await api('POST', '/api/bulk', { posts }), 'POST /api/bulk');
      callMs.push(Date.now() - t);
      accepted += res.body.accepted as number;
      if (res.body.rejected) throw new Error(`bulk call ${c}: ${res.body.rejected} rows rejected: ${JSON.stringify((res.body.errors as unknown[]).slice(0, 3))}`);
    }
    const bulkSeconds = (Date.now() - started) / 1000;
    const usage = must(await api('GET', '/api/usage'), 'GET /api/usage').body.scheduled_at_a_time as { used: number };
    console.log('bulk scheduling (JSON rows with explicit run_at)');
    printRows([
      ['posts scheduled', `${accepted.toLocaleString('en-US')} (usage says ${usage.used.toLocaleString('en-US')} scheduled)`],
      ['total time', `${fmt(bulkSeconds, 2)} s`],
      ['items/s', fmt(accepted / bulkSeconds, 0)],
      ['per call of 500 p50 / p99 / max', `${fmt(percentile(callMs, 50), 0)} / ${fmt(percentile(callMs, 99), 0)} / ${fmt(Math.max(...callMs), 0)} ms`],
    ]);

    // 2. 1,000 due at the same second
    const api2 = await connected(`bench-due-${Date.now()}@example.com`);
    const perRow = (bulkSeconds * 1000) / accepted;
    const lead = Math.ceil((perRow * DUE_TOGETHER * 2 + 3_000) / 1000) * 1000;
    const T = Math.ceil((Date.now() + lead) / 1000) * 1000;
    for (let c = 0; c < DUE_TOGETHER / ROWS; c++) {
      const posts = Array.from({ length: ROWS }, (_, i) => ({ platform: 'discord', text: `due ${c * ROWS + i}`, run_at: new Date(T).toISOString() }));
      const res = must(await api2('POST', '/api/bulk', { posts }), 'POST /api/bulk');
      if (res.body.accepted !== ROWS) throw new Error(`due bulk: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    const slack = T - Date.now();
    if (slack < 0) throw new Error(`scheduling the ${DUE_TOGETHER} took past T by ${-slack} ms: raise the lead`);
    const deadline = T + 180_000;
    const due = () => arrivals.filter((a) => a.text.startsWith('due '));
    while (Date.now() < T) await new Promise((r) => setTimeout(r, 10));
    const cpu0 = process.cpuUsage();
    while (due().length < DUE_TOGETHER && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const cpu = process.cpuUsage(cpu0);
    await new Promise((r) => setTimeout(r, 1_000)); // late duplicates would show up here
    const got = due();
    const distinct = new Set(got.map((a) => a.text)).size;
    const lateness = got.map((a) => a.at - T);
    const published = must(await api2('GET', '/api/schedule?status=published&limit=100'), 'GET /api/schedule').body.schedules as unknown[];
    const accountId = (must(await api2('GET', '/api/me'), 'GET /api/me').body.account as { id: string }).id;
    const claims = await claimTimes(accountId);
    const claimLate = claims.map((c) => c - T);
    console.log(`${DUE_TOGETHER} schedules due at the same second (T = scheduled ${fmt(slack / 1000, 1)} s after the last bulk call answered)`);
    printRows([
      ['published (arrived at the network)', `${distinct} distinct of ${DUE_TOGETHER}; ${got.length - distinct} duplicate sends`],
      ['time until all published', got.length ? `${fmt(Math.max(...lateness) / 1000, 2)} s after T` : '–'],
      ['lateness p50 / p99', `${fmt(percentile(lateness, 50), 0)} / ${fmt(percentile(lateness, 99), 0)} ms`],
      ['lateness min / max', `${fmt(Math.min(...lateness), 0)} / ${fmt(Math.max(...lateness), 0)} ms`],
      ['process CPU per fired post', `${fmt((cpu.user + cpu.system) / 1000 / Math.max(1, got.length))} ms (every thread, T → last arrival, ÷ posts)`],
      ['claimed by the dispatcher p50 / p99 / last', `${fmt(percentile(claimLate, 50), 0)} / ${fmt(percentile(claimLate, 99), 0)} / ${fmt(Math.max(...claimLate), 0)} ms after T (${claims.length} claims)`],
      ['GET /api/schedule?status=published', `${published.length} on the first page (limit 100)`],
    ]);
    if (distinct !== DUE_TOGETHER || got.length !== distinct) process.exitCode = 1;
  } finally {
    await rt.stop();
    await discord.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** claimed_at (ms) of every schedule of the account, read from the runtime's table (the API does not show it). */
async function claimTimes(accountId: string): Promise<number[]> {
  const doc = documentClient({ region: 'us-east-1', endpoint: process.env.DYNAMODB_ENDPOINT });
  const out: number[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await doc.send(new QueryCommand({
      TableName: TABLE_NAME, IndexName: GSI1, ExclusiveStartKey: start,
      KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.scheduleByAccount(accountId, '', '').gsi1pk },
    }));
    for (const i of res.Items ?? []) if (typeof i.claimed_at === 'number') out.push(i.claimed_at);
    start = res.LastEvaluatedKey;
  } while (start);
  doc.destroy();
  return out;
}

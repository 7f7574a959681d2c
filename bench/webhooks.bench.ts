import fs from 'node:fs';
import { FORMAT_VERSION } from '../shared/ports/format-version';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { startLocalRuntime, type LocalRuntime } from '../infra/local/runtime';
import { ensureTable, startDynamo } from '../infra/local/services';
import { documentClient } from '../shared/adapters/dynamodb/client';
import { DynamoWebhookStore } from '../shared/adapters/dynamodb/webhooks';
import { HttpWebhookSender } from '../shared/adapters/webhook-sender';
import { prepareDeliveries, type WebhookMessage } from '../shared/app/webhooks/delivery-queue';
import { deliverWebhook } from '../shared/app/webhooks/delivery-try';
import { newId } from '../shared/domain/ids';
import { newWebhookSecret } from '../shared/domain/webhooks';
import type { Deps } from '../shared/app/deps';
import type { QueueMessage } from '../shared/ports/queue';
import { DiscordFake } from '../shared/networks/discord/simulator';
import { client, must, signup } from './support/api';
import { fmt, percentile, printRows } from './support/stats';

/**
 * Signed webhook delivery.
 * 1. Deliveries per second, one try each (claim → sign → POST over a pinned connection → log → record, against the
 *    embedded DynamoDB over HTTP), to a loopback receiver that answers at once and to one that answers after
 *    200 ms, with 10 tries in flight (one worker batch: batchSize 10) and with 50 (five concurrent workers).
 * 2. Delay from a network's result to the webhook's arrival, through the whole local runtime: POST /api/post to a
 *    Discord fake → publish worker → event recorded (its created_at is the network's result time) → delivery
 *    queued (fauxqs) → webhook worker poller → receiver. p50/p99 over sequential and concurrent posts.
 */
const FAST_N = 600;
const SLOW_N = 300;
const LATENCY_POSTS = 60;
const CONCURRENT_POSTS = 5;

/** A receiver answering 200 after `delayMs`; records each arrival time by delivery id. */
async function receiver(delayMs: number) {
  const arrivals = new Map<string, { at: number; body: string }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.set(String(req.headers['service-delivery']), { at: Date.now(), body: Buffer.concat(chunks).toString() });
      const answer = () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"ok":true}'); };
      if (delayMs) setTimeout(answer, delayMs); else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, arrivals, stop: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

async function throughput(): Promise<Array<[string, string]>> {
  const dynamo = await startDynamo(undefined);
  const tableName = `bench-${randomUUID()}`;
  await ensureTable(dynamo.endpoint, tableName);
  const doc = documentClient({ region: 'us-east-1', endpoint: dynamo.endpoint });
  const webhooks = new DynamoWebhookStore({ doc, tableName });
  const sent: QueueMessage[] = [];
  const deps = {
    webhooks, webhookSender: new HttpWebhookSender({ allowPrivate: true }),
    queue: { sendAll: async (_url: string, m: QueueMessage[]) => { sent.push(...m); } },
    scheduler: { scheduleOnce: async () => undefined, scheduleCron: async () => undefined, cancel: async () => undefined },
    clock: { now: () => Date.now() },
    cipher: { encrypt: async (s: string) => s, decrypt: async (s: string) => s },
    settings: { webhookQueueUrl: 'bench://webhooks' },
  } as unknown as Deps;
  const rows: Array<[string, string]> = [];
  try {
    for (const [delayMs, n] of [[0, FAST_N], [200, SLOW_N]] as const) {
      const rx = await receiver(delayMs);
      for (const concurrency of [10, 50]) {
        const account = newId('acc', Date.now());
        const id = newId('wh', Date.now());
        const endpoint = { id, account_id: account, url: rx.url, events: ['post.published' as const], secret_enc: newWebhookSecret(), created_at: new Date().toISOString() };
        await webhooks.create(endpoint);
        const messages: WebhookMessage[] = [];
        for (let i = 0; i < n; i++) {
          const now = Date.now();
          const [d] = await prepareDeliveries(deps, { id: newId('evt', now), type: 'post.published', created_at: new Date(now).toISOString(), account_id: account, data: { platform: 'discord', post_id: newId('pst', now), status: 'published', n: i } }, [endpoint]);
          messages.push({ v: FORMAT_VERSION, delivery_id: d.delivery_id, attempt: 1 });
        }
        const started = performance.now();
        await pool(messages, concurrency, (m) => deliverWebhook(deps, m));
        const seconds = (performance.now() - started) / 1000;
        const ok = messages.filter((m) => rx.arrivals.has(m.delivery_id)).length;
        if (ok !== n) throw new Error(`only ${ok} of ${n} deliveries arrived`);
        rows.push([`receiver ${delayMs ? `${delayMs} ms` : 'at once'}, ${concurrency} in flight`, `${fmt(n / seconds)} deliveries/s  (${n} in ${fmt(seconds, 2)} s)`]);
      }
      await rx.stop();
    }
  } finally {
    doc.destroy();
    await dynamo.stop();
  }
  return rows;
}

async function latency(): Promise<Array<[string, string]>> {
  const discord = new DiscordFake();
  await discord.start();
  const rx = await receiver(0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  let rt: LocalRuntime | undefined;
  const rows: Array<[string, string]> = [];
  try {
    rt = await startLocalRuntime({ port: 0, dataDir: dir, env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_TARGETS: '1', DISABLE_RATE_LIMITS: '1' } });
    const api = client(rt.url, await signup(rt.url, 'bench-webhooks@example.com', 'scale'));
    must(await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } }), 'connect discord');
    const created = await api('POST', '/api/webhooks', { url: rx.url, events: ['post.published'] });
    if (created.status !== 201) throw new Error(`POST /api/webhooks: ${created.status} ${created.text}`);
    let n = 0;
    const postOnce = async () => must(await api('POST', '/api/post', { platform: 'discord', text: `webhook latency ${++n} ${Date.now()}` }), 'POST /api/post');
    const measure = async (label: string, posts: number, concurrency: number) => {
      const before = rx.arrivals.size;
      await pool(Array.from({ length: posts }), concurrency, postOnce);
      const deadline = Date.now() + 30_000;
      while (rx.arrivals.size < before + posts && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const delays = [...rx.arrivals.values()].slice(before).map((a) => a.at - Date.parse((JSON.parse(a.body) as { created_at: string }).created_at));
      rows.push([label, `p50 ${fmt(percentile(delays, 50), 0)} ms, p99 ${fmt(percentile(delays, 99), 0)} ms, max ${fmt(Math.max(...delays), 0)} ms  (${delays.length} of ${posts} arrived)`]);
    };
    await measure('warm-up', 5, 1);
    rows.length = 0;
    await measure(`${LATENCY_POSTS} posts one after another`, LATENCY_POSTS, 1);
    await measure(`${LATENCY_POSTS} posts, ${CONCURRENT_POSTS} at a time`, LATENCY_POSTS, CONCURRENT_POSTS);
  } finally {
    await rt?.stop();
    await rx.stop();
    await discord.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export async function run(): Promise<void> {
  console.log('\n## webhooks: signed deliveries');
  console.log('\nDeliveries per second (one try each; embedded DynamoDB over HTTP; loopback receiver):');
  printRows(await throughput());
  console.log("\nDelay from a network's result (event created_at) to the webhook's arrival, whole local runtime (fauxqs, pollers):");
  printRows(await latency());
}

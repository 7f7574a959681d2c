import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalRuntime } from '../infra/local/runtime';
import { LOCAL_AWS_REQUEST } from '../infra/local/in-process-requests';
import { DiscordFake } from '../shared/networks/discord/simulator';
import { TelegramFake } from '../shared/networks/telegram/simulator';
import { SlackFake } from '../shared/networks/slack/simulator';
import { MastodonFake } from '../shared/networks/mastodon/simulator';
import { WebhookReceiver } from '../test/webhooks/receiver';
import { logContext } from '../shared/log';
import { client, must, signup } from './support/api';

/**
 * AWS calls per published post, measured through the whole local runtime (the same adapters and SDK calls as in
 * AWS, pointed at the embedded stand-ins): every HTTP request the SDK makes on behalf of a request or a queue
 * message (it runs with a correlation id; the local scheduler's own table polling does not exist in AWS and is not
 * counted) is counted by service and operation (node:diagnostics_channel).
 * 1. DynamoDB calls per post to 1 and to 3 networks (discord, slack, mastodon fakes: none paced) of an account
 *    without webhooks, answering at once (D = 0): API (auth, publish path, the wait's result reads), worker.
 * 2. One post = POST /api/post to two networks (telegram + discord fakes) of an account with one webhook endpoint,
 *    i.e. 2 network results and 2 webhook deliveries (fan-out and the delivery worker included); the log bytes
 *    written are measured too. The monthly cost table of docs/operations.md is computed from these counts.
 */
const POSTS = 20;
const SETTLE_MS = 500;

/** us-east-1 on-demand list prices (USD), checked November 2026 against the AWS pricing pages. */
const PRICE = {
  apiRequest: 1.0 / 1e6, // HTTP API, first 300M
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: 0.0000133334, // arm64
  dynamoWrite: 0.625 / 1e6, // on-demand WRU
  dynamoRead: 0.125 / 1e6, // on-demand RRU
  sqsRequest: 0.4 / 1e6,
  kmsRequest: 0.03 / 1e4,
  logsIngestGb: 0.5,
  xrayTrace: 5.0 / 1e6,
  schedulerInvocation: 1.0 / 1e6,
  fixedMonthly: 1 + 1 + 3 + 10 * 0.1, // KMS keys (credentials, alarm topic) + dashboard + ~10 alarms
} as const;

export async function run(): Promise<void> {
  const telegram = new TelegramFake();
  const discord = new DiscordFake();
  const rx = new WebhookReceiver();
  await Promise.all([telegram.start(), discord.start(), rx.start()]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-calls-'));
  const rt = await startLocalRuntime({ port: 0, dataDir: dir, env: { LOG_LEVEL: 'silent', POWERTOOLS_METRICS_DISABLED: 'true', ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url, DISABLE_RATE_LIMITS: '1' } });
  const discord2 = new DiscordFake();
  const slack = new SlackFake();
  const mastodon = new MastodonFake();
  await Promise.all([discord2.start(), slack.start(), mastodon.start()]);
  try {
    await perNetworkCounts(rt.url, { discord: discord2, slack, mastodon });
    const key = await signup(rt.url, 'calls@example.com');
    const api = client(rt.url, key);
    must(await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } }), 'connect telegram');
    must(await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } }), 'connect discord');
    const hook = await api('POST', '/api/webhooks', { url: rx.url('/events') });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status}`);
    await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'warm-up' });
    await rx.waitFor(2);

    const endpoints = new Map<string, string>([
      [new URL(process.env.DYNAMODB_ENDPOINT!).host, 'DynamoDB'], [new URL(process.env.SQS_ENDPOINT!).host, 'SQS'], [new URL(process.env.S3_ENDPOINT!).host, 'S3'],
    ]);
    const counts = new Map<string, number>();
    const onRequest = (msg: unknown) => {
      const req = (msg as { request: ClientRequest }).request;
      const service = endpoints.get(String(req.getHeader('host') ?? ''));
      if (!service || !logContext().correlation_id) return;
      const target = String(req.getHeader('x-amz-target') ?? '').split('.').pop() || req.method;
      counts.set(`${service} ${target}`, (counts.get(`${service} ${target}`) ?? 0) + 1);
    };
    // DynamoDB and SQS requests of the runtime's own clients go in-process (infra/local/in-process-requests.ts)
    const onLocal = (msg: unknown) => {
      const { engine, target } = msg as { engine: string; target: string };
      if (!logContext().correlation_id) return;
      const key = `${engine === 'dynamodb' ? 'DynamoDB' : 'SQS'} ${target.split('.').pop()}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    };
    diagnostics.subscribe('http.client.request.start', onRequest);
    diagnostics.subscribe(LOCAL_AWS_REQUEST, onLocal);
    process.env.LOG_LEVEL = 'info';
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    let logBytes = 0;
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = String(chunk);
      if (text.startsWith('{"level"') || text.startsWith('{"_aws"')) { logBytes += Buffer.byteLength(text); return true; }
      return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    try {
      for (let i = 0; i < POSTS; i++) must(await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: `count ${i}` }), 'post');
      await rx.waitFor(2 + POSTS * 2);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
    } finally {
      process.stdout.write = write;
      process.env.LOG_LEVEL = 'silent';
      process.env.POWERTOOLS_METRICS_DISABLED = 'true';
      diagnostics.unsubscribe('http.client.request.start', onRequest);
      diagnostics.unsubscribe(LOCAL_AWS_REQUEST, onLocal);
    }

    const per = (n: number) => n / POSTS;
    const rows = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b));
    console.log(`\n## AWS calls per post (2 networks, 1 webhook endpoint; mean of ${POSTS} posts)`);
    console.log('| service call | per post |\n|---|---|');
    for (const [k, v] of rows) console.log(`| ${k} | ${per(v).toFixed(1)} |`);
    const sum = (pred: (k: string) => boolean) => per(rows.filter(([k]) => pred(k)).reduce((n, [, v]) => n + v, 0));
    const dynamoWrites = sum((k) => /DynamoDB (PutItem|UpdateItem|DeleteItem|BatchWriteItem)/.test(k));
    const dynamoReads = sum((k) => /DynamoDB (GetItem|Query|Scan|BatchGetItem)/.test(k));
    // receives: one per message in AWS (the local pollers' empty long polls are left out: Lambda's pollers are a fixed cost)
    const sqs = sum((k) => k.startsWith('SQS') && !k.endsWith('ReceiveMessage')) + 4;
    const lambda = 1 + 2 + 2; // POST /api/post, 2 publish-worker records, 2 webhook-delivery records (batched in AWS: an upper bound)
    console.log(`log + EMF bytes per post (LOG_LEVEL=info): ${Math.round(per(logBytes))}`);
    console.log(`Lambda invocations per post (upper bound, one record per batch): ${lambda}`);

    // Per post: API request, Lambda (requests + ~300 ms at 512 MB on average across the functions), DynamoDB
    // (1 KB items: 1 WRU per write, 0.5..1 RRU per read; counted as 1), SQS (the worker pollers' receives/deletes
    // included), KMS (one decrypt per network send, the data key is not cached), logs, traces (one per invocation).
    const perPost = PRICE.apiRequest + lambda * (PRICE.lambdaRequest + 0.3 * 0.5 * PRICE.lambdaGbSecond)
      + dynamoWrites * PRICE.dynamoWrite + dynamoReads * PRICE.dynamoRead + sqs * PRICE.sqsRequest + 2 * PRICE.kmsRequest
      + per(logBytes) * 1.5 / 2 ** 30 * PRICE.logsIngestGb + lambda * PRICE.xrayTrace;
    console.log(`\n## Estimated monthly cost (USD, us-east-1 list prices, no free tier; fixed part $${PRICE.fixedMonthly.toFixed(2)})`);
    console.log('| posts a month | variable | total |\n|---|---|---|');
    for (const n of [1_000, 100_000, 1_000_000]) console.log(`| ${n.toLocaleString('en-US')} | $${(perPost * n).toFixed(2)} | $${(perPost * n + PRICE.fixedMonthly).toFixed(2)} |`);
    console.log(`(per post: $${perPost.toFixed(7)}; DynamoDB writes ${dynamoWrites.toFixed(1)}, reads ${dynamoReads.toFixed(1)}, SQS requests ${sqs.toFixed(1)})`);
  } finally {
    await rt.stop();
    await Promise.all([telegram.stop(), discord.stop(), rx.stop(), discord2.stop(), slack.stop(), mastodon.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Part 1: DynamoDB calls per post to 1 and to 3 networks of an account without webhooks (D = 0). */
async function perNetworkCounts(url: string, fakes: { discord: DiscordFake; slack: SlackFake; mastodon: MastodonFake }): Promise<void> {
  const api = client(url, await signup(url, 'calls-networks@example.com'));
  must(await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: fakes.discord.webhookUrl } }), 'connect discord');
  must(await api('POST', '/api/connect', { platform: 'slack', credentials: { webhook_url: fakes.slack.webhookUrl } }), 'connect slack');
  must(await api('POST', '/api/connect', { platform: 'mastodon', credentials: { instance_url: fakes.mastodon.url, access_token: fakes.mastodon.token } }), 'connect mastodon');
  let n = 0;
  const rows: Array<[string, Map<string, number>]> = [];
  for (const platforms of [['discord'], ['discord', 'slack', 'mastodon']]) {
    must(await api('POST', '/api/post', { platforms, text: `warm-up ${++n}` }), 'post');
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const counts = new Map<string, number>();
    // the runtime's DynamoDB clients go in-process (infra/local/in-process-requests.ts): counted where they are announced
    const onRequest = (msg: unknown) => {
      const { engine, target } = msg as { engine: string; target: string };
      if (engine !== 'dynamodb' || !logContext().correlation_id) return;
      const op = target.split('.').pop() ?? '?';
      counts.set(op, (counts.get(op) ?? 0) + 1);
    };
    diagnostics.subscribe(LOCAL_AWS_REQUEST, onRequest);
    try {
      for (let i = 0; i < POSTS; i++) must(await api('POST', '/api/post', { platforms, text: `count ${++n}` }), 'post');
      await new Promise((r) => setTimeout(r, SETTLE_MS));
    } finally {
      diagnostics.unsubscribe(LOCAL_AWS_REQUEST, onRequest);
    }
    rows.push([`${platforms.length} network${platforms.length > 1 ? 's' : ''} (${platforms.join(', ')})`, counts]);
  }
  const ops = [...new Set(rows.flatMap(([, c]) => [...c.keys()]))].sort();
  console.log(`\n## DynamoDB calls per post, no webhooks, D = 0 (mean of ${POSTS} posts; GetItem includes the API's result reads)`);
  console.log(`| call | ${rows.map(([label]) => label).join(' | ')} |\n|---|${rows.map(() => '---|').join('')}`);
  for (const op of ops) console.log(`| ${op} | ${rows.map(([, c]) => ((c.get(op) ?? 0) / POSTS).toFixed(1)).join(' | ')} |`);
  console.log(`| **total** | ${rows.map(([, c]) => ([...c.values()].reduce((a, b) => a + b, 0) / POSTS).toFixed(1)).join(' | ')} |`);
}

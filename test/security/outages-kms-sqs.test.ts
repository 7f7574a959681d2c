import net from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient, KMSInternalException } from '@aws-sdk/client-kms';
import { callOver, sampleEvent } from '../support/invoke';
import { startTestTable, testDeps } from '../support/deps';
import { signup, confirmSignup } from '../../shared/app/signup';
import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SQSClient, type SendMessageBatchCommandInput } from '@aws-sdk/client-sqs';
import { KmsEnvelopeCipher } from '../../shared/adapters/aws/kms-cipher';
import { EventBridgeScheduler } from '../../shared/adapters/aws/eventbridge-scheduler';
import { SqsQueue, sqsClient } from '../../shared/adapters/aws/sqs-queue';
import { createTelegramAdapter } from '../../shared/networks/telegram';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { handler as postConnect } from '../../functions/http/post-connect';
import { handler as getConnections } from '../../functions/http/get-connections';
import { handler as postWebhooks } from '../../functions/http/post-webhooks';
import { handler as getWebhooks } from '../../functions/http/get-webhooks';
import { handler as postWebhookRotate } from '../../functions/http/post-webhook-rotate';
import { handler as postWebhookTest } from '../../functions/http/post-webhook-test';
import { handler as postWebhookRedeliver } from '../../functions/http/post-webhook-redeliver';
import { isOutage } from '../../shared/http/outage';
import { handler as postPost } from '../../functions/http/post-post';
import { handler as getPostStatus } from '../../functions/http/get-post-status';
import { handler as getUsage } from '../../functions/http/get-usage';
import { handler as postSchedule } from '../../functions/http/post-schedule';
import { handler as postRecurring } from '../../functions/http/post-recurring';
import { handler as getSchedules } from '../../functions/http/get-schedules';
import type { Deps } from '../../shared/app/deps';
import type { Queue } from '../../shared/ports/queue';
import type { Scheduler } from '../../shared/ports/scheduler';

const call = callOver(() => deps);

/**
 * Outages beyond the table: KMS (the AWS cipher, its client mocked to throttle or fail to connect), SQS
 * (the AWS queue adapter pointed at a closed loopback port) and EventBridge Scheduler (its client mocked to throttle
 * the post's own alarm, after the schedule item is written) unreachable. Each request answers 503 with Retry-After
 * (`webhooks_unavailable` on webhook routes, `service_unavailable` elsewhere) or, for a post whose queue send
 * failed, ends each network failed with everything it took given back; nothing is half-written.
 */
const kms = mockClient(KMSClient);
const DATA_KEY = new Uint8Array(32).fill(7);
const kmsUp = () => {
  kms.reset();
  let n = 0;
  kms.on(GenerateDataKeyCommand).callsFake(async () => ({ Plaintext: DATA_KEY, CiphertextBlob: Buffer.from(`wrapped-${++n}`) }));
  kms.on(DecryptCommand).resolves({ Plaintext: DATA_KEY });
};
const throttled = () => new KMSInternalException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 500 } });
const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:443'), { code: 'ECONNREFUSED' });
/** KMS down: every call fails; a fresh cipher (its data-key cache empty) so decrypting must reach KMS. */
const kmsDown = (error: () => Error) => {
  kms.reset();
  kms.onAnyCommand().callsFake(async () => { throw error(); });
  use({ cipher: new KmsEnvelopeCipher(new KMSClient({ region: 'us-east-1' }), 'alias/test') });
};

const telegram = new TelegramFake();
let stopTable: () => Promise<void>;
let deps: Deps;
let world: ReturnType<typeof testDeps>;
/** The deps from now on: these members replaced (the publish messages still delivered as the worker would). */
const use = (more: Partial<Deps>) => { deps = world.rebuild(more); world.queue.worker = deps; };
let accountId: string;
let key: string;
let closed: net.Server;
let closedPort = 0;

beforeAll(async () => {
  await telegram.start();
  const t = await startTestTable();
  stopTable = t.stop;
  kmsUp();
  world = testDeps(t.table, (chosen) => ({
    cipher: new KmsEnvelopeCipher(new KMSClient({ region: 'us-east-1' }), 'alias/test'),
    networks: { ...chosen.networks, telegram: createTelegramAdapter({ apiBase: telegram.url }) },
  }));
  deps = world.deps;
  world.queue.worker = deps; // publish messages are delivered as the worker would
  const mail = testDeps(t.table);
  await signup(mail.deps, { email: 'kms-sqs@example.com', ip: '198.51.100.9' });
  const done = await confirmSignup(mail.deps, new URL(mail.mailer.sent.at(-1)!.links[0]).searchParams.get('token')!);
  key = done.api_key;
  accountId = done.account.id;
  // a loopback port with nothing listening: found by listening on port 0, then closed
  closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => {
 
  kms.restore();
  await telegram.stop();
  await stopTable();
});
beforeEach(() => {
  kmsUp();
  use({ cipher: new KmsEnvelopeCipher(new KMSClient({ region: 'us-east-1' }), 'alias/test') });
});

let ip = 0;
const ev = (method: string, p: string, o: { body?: unknown; pathParameters?: Record<string, string> } = {}): APIGatewayProxyEventV2 => {
  const base = sampleEvent('http/get-platforms.json');
  return {
    ...base, rawPath: p, routeKey: `${method} ${p}`, body: o.body === undefined ? undefined : JSON.stringify(o.body), pathParameters: o.pathParameters,
    headers: { ...base.headers, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${key}` },
    requestContext: { ...base.requestContext, http: { ...base.requestContext.http, method, path: p, sourceIp: `198.51.100.${++ip % 250}` } },
  };
};
const expect503 = (res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }, code: string) => {
  expect(res.status).toBe(503);
  expect(res.headers['Retry-After'] ?? res.headers['retry-after']).toMatch(/^\d+$/);
  expect(res.body).toMatchObject({ code, retry_after: expect.any(Number) });
  expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|127\.0\.0\.1|Rate exceeded|stack/);
};
const connectTelegram = () => call(postConnect, ev('POST', '/api/connect', { body: { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } } }));
type UsageName = 'posts_per_month' | 'webhooks' | 'scheduled_at_a_time';
/** What GET /api/usage says is used of one of the plan's limits. */
const used = async (name: UsageName) => ((await call(getUsage, ev('GET', '/api/usage'))).body[name] as { used: number }).used;
const sends = () => telegram.methods.filter((m) => m.startsWith('send')).length;

describe('KMS unreachable', () => {
  it('connect answers 503 service_unavailable and saves nothing; with KMS back the same call connects', async () => {
    kmsDown(throttled);
    expect503(await connectTelegram(), 'service_unavailable');
    expect((await call(getConnections, ev('GET', '/api/connections'))).body.connections).toEqual([]);
    kmsDown(unreachable);
    expect503(await connectTelegram(), 'service_unavailable');
    expect((await call(getConnections, ev('GET', '/api/connections'))).body.connections).toEqual([]);
    kmsUp();
    expect((await connectTelegram()).status).toBe(200);
    expect((await call(getConnections, ev('GET', '/api/connections'))).body.connections).toEqual([expect.objectContaining({ platform: 'telegram' })]);
  });

  it('webhook create and rotate answer 503 webhooks_unavailable: no endpoint, its place given back, the old secret kept', async () => {
    kmsDown(throttled);
    const refused = await call(postWebhooks, ev('POST', '/api/webhooks', { body: { url: 'https://127.0.0.1/hooks/in' } }));
    expect503(refused, 'webhooks_unavailable');
    expect((await call(getWebhooks, ev('GET', '/api/webhooks'))).body.webhooks).toEqual([]);
    expect(await used('webhooks')).toBe(0);

    kmsUp();
    const made = await call(postWebhooks, ev('POST', '/api/webhooks', { body: { url: 'https://127.0.0.1/hooks/in' } }));
    expect(made.status).toBe(201);
    const id = (made.body.webhook as { id: string }).id;
    const before = (await deps.webhooks.list(accountId)).find((e) => e.id === id)!;
    kmsDown(unreachable);
    expect503(await call(postWebhookRotate, ev('POST', `/api/webhooks/${id}/rotate`, { pathParameters: { id } })), 'webhooks_unavailable');
    expect((await deps.webhooks.list(accountId)).find((e) => e.id === id)).toEqual(before);
    expect(await used('webhooks')).toBe(1);
  });

  it('a post whose credentials cannot be decrypted answers 503 before anything is stored, sent or spent', async () => {
    kmsDown(throttled);
    const res = await call(postPost, ev('POST', '/api/post', { body: { platform: 'telegram', text: 'kms down' } }));
    expect503(res, 'service_unavailable');
    expect(sends()).toBe(0);
    expect(await used('posts_per_month')).toBe(0);
    // nothing half-written: with KMS back the same post goes out (no duplicate lock left behind)
    kmsUp();
    const again = await call(postPost, ev('POST', '/api/post', { body: { platform: 'telegram', text: 'kms down' } }));
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true })]);
  });
});

describe('SQS unreachable', () => {
  let memory: Queue;
  beforeAll(() => {
    memory = deps.queue;
    const client = sqsClient({ region: 'us-east-1', endpoint: `http://127.0.0.1:${closedPort}` });
    (client.config as { maxAttempts?: () => Promise<number> }).maxAttempts = async () => 1;
    use({ queue: new SqsQueue(client) });
  });
  afterAll(() => { use({ queue: memory }); });

  it('a post whose messages cannot be queued ends failed per network, not 500: nothing sent, the month\'s posts and the duplicate lock given back', async () => {
    const sent = sends();
    const res = await call(postPost, ev('POST', '/api/post', { body: { platform: 'telegram', text: 'sqs down' } }));
    expect(res.status).not.toBe(500);
    expect(res.body.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: false, status: 'failed', code: 'internal_error' })]);
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
    const status = await call(getPostStatus, { ...ev('GET', '/api/post/status'), queryStringParameters: { platform: 'telegram', id: res.body.post_id as string } });
    expect(status.body).toMatchObject({ post_id: res.body.post_id, status: 'failed' });
    expect(sends()).toBe(sent);
    expect(await used('posts_per_month')).toBe(1); // the one post of the KMS test, not this one

    // the queue back: the same post is not a duplicate and goes out
    use({ queue: memory });
    const again = await call(postPost, ev('POST', '/api/post', { body: { platform: 'telegram', text: 'sqs down' } }));
    expect(again.body.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true })]);
  });
});

describe('SQS answering but refusing every entry on its side', () => {
  const sqs = mockClient(SQSClient);
  let memory: Queue;
  let senderFault = false;
  beforeAll(() => {
    memory = deps.queue;
    sqs.on(SendMessageBatchCommand).callsFake(async (input: SendMessageBatchCommandInput) => ({
      Successful: [], Failed: (input.Entries ?? []).map((e) => ({ Id: e.Id!, Code: senderFault ? 'InvalidParameterValue' : 'InternalError', SenderFault: senderFault })),
    }));
  });
  afterAll(() => { use({ queue: memory }); sqs.restore(); });

  it('a webhook re-send answers 503 webhooks_unavailable (not 500); a refusal that is the message\'s fault stays a bug', async () => {
    const made = await call(postWebhooks, ev('POST', '/api/webhooks', { body: { url: 'https://127.0.0.1/hooks/resend' } }));
    const id = (made.body.webhook as { id: string }).id;
    const sent = await call(postWebhookTest, ev('POST', `/api/webhooks/${id}/test`, { pathParameters: { id } }));
    expect(sent.status).toBe(202);
    const deliveryId = sent.body.delivery_id as string;

    use({ queue: new SqsQueue(new SQSClient({ region: 'us-east-1' }), { retryDelayMs: 1 }) });
    const path = `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver`;
    expect503(await call(postWebhookRedeliver, ev('POST', path, { pathParameters: { id, delivery_id: deliveryId } })), 'webhooks_unavailable');

    senderFault = true;
    const bug = await deps.queue.sendAll('memory://webhooks', [{ id: 'x', body: { delivery_id: deliveryId, attempt: 1 } }]).catch((e: unknown) => e);
    expect(bug).toBeInstanceOf(Error);
    expect(isOutage(bug)).toBe(false);
  });
});

describe('EventBridge Scheduler throttled when the schedule is armed', () => {
  const eventBridge = mockClient(SchedulerClient);
  let memory: Scheduler;
  beforeAll(() => {
    memory = deps.scheduler;
    // the service's own recurring sweeps are armed; the post's alarm (s-…, r-…) is throttled
    eventBridge.on(CreateScheduleCommand).callsFake(async (input: { Name?: string }) => {
      if (/^[sr]-/.test(input.Name ?? '')) throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
      return {};
    });
    use({ scheduler: new EventBridgeScheduler(new SchedulerClient({ region: 'us-east-1' }), {
      groupName: 'test', targetArn: 'arn:aws:lambda:us-east-1:123456789012:function:dispatch', roleArn: 'arn:aws:iam::123456789012:role/scheduler',
    }) });
  });
  afterAll(() => { use({ scheduler: memory }); eventBridge.restore(); });

  it('a scheduled post does not need the Scheduler (the per-minute fan-out fires it); recurring answers 503 service_unavailable with its place given back', async () => {
    const runAt = new Date(deps.clock.now() + 3_600_000).toISOString();
    const scheduled = await call(postSchedule, ev('POST', '/api/schedule', { body: { platform: 'telegram', text: 'alarm down', run_at: runAt } }));
    expect([scheduled.status, scheduled.body.status]).toEqual([200, 'scheduled']);
    expect503(await call(postRecurring, ev('POST', '/api/recurring', { body: { platform: 'telegram', text: 'alarm down', cron: '0 9 * * 1', timezone: 'UTC' } })), 'service_unavailable');
    // the recurring schedule's refused alarm leaves it canceled, holding no place: only the scheduled post counts
    expect(await used('scheduled_at_a_time')).toBe(1);
    expect((await deps.recurring.list(accountId)).filter((r) => r.status === 'active')).toEqual([]);
    const listed = (await call(getSchedules, ev('GET', '/api/schedule'))).body.schedules as Array<{ text: string; status: string }>;
    expect(listed.filter((x) => x.text === 'alarm down').map((x) => x.status)).toEqual(['scheduled']);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { startTestTable, testDeps } from '../support/deps';
import { callOver, sampleEvent, over } from '../support/invoke';
import { signup, confirmSignup } from '../../shared/app/signup';
import type { Deps } from '../../shared/app/deps';
import { routes } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { handler as postWebhooks } from '../../functions/http/post-webhooks';
import { handler as getWebhooks } from '../../functions/http/get-webhooks';
import { handler as deleteWebhook } from '../../functions/http/delete-webhook';
import { handler as postTest } from '../../functions/http/post-webhook-test';
import { handler as postRotate } from '../../functions/http/post-webhook-rotate';
import { handler as getDeliveries } from '../../functions/http/get-webhook-deliveries';
import { handler as postRedeliver } from '../../functions/http/post-webhook-redeliver';
import { handler as webhookDeliveryHandler } from '../../functions/queue/webhook-delivery';
import { handler as dispatchHandler } from '../../functions/scheduler/dispatch';
import { WebhookReceiver } from './receiver';

const call = callOver(() => deps);
const dispatcher = over(dispatchHandler, () => deps);
const worker = over(webhookDeliveryHandler, () => deps);

let stop: () => Promise<void>;
let t: ReturnType<typeof testDeps>;
let deps: Deps;
let apiKey: string;
let rx: WebhookReceiver;

beforeAll(async () => {
  const started = await startTestTable();
  stop = started.stop;
  t = testDeps(started.table, {}, { frozenClock: true });
  deps = t.deps;
  rx = await new WebhookReceiver().start();
  await signup(deps, { email: 'hooks-handler@example.com', ip: '192.0.2.60' });
  apiKey = (await confirmSignup(deps, new URL(t.mailer.sent[0].links[0]).searchParams.get('token')!)).api_key;
  await deps.accounts.setPlan((await deps.accounts.findIdByEmail('hooks-handler@example.com'))!, 'pro');
});
afterAll(async () => { await rx.stop(); await stop(); });

const authed = (file: string, change: Parameters<typeof sampleEvent>[1] = {}) =>
  sampleEvent(file, { ...change, headers: { authorization: `Bearer ${apiKey}`, ...change.headers } });
const withId = (file: string, id: string, extra: Record<string, string> = {}) => authed(file, { pathParameters: { id, ...extra } });
const sqs = (bodies: string[]): SQSEvent => {
  const base = (JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'events', 'sqs', 'webhook-delivery.json'), 'utf8')) as SQSEvent).Records[0];
  return { Records: bodies.map((body, i) => ({ ...base, messageId: `m-${i}`, body })) };
};
const webhookMessages = () => t.queue.sent.filter((s) => s.queueUrl === deps.settings.webhookQueueUrl).map((s) => JSON.stringify(s.message.body));

describe('webhook routes', () => {
  it('are in the route table with the rate limits of spec §8.1', () => {
    expect(routes.postWebhooks.rateLimit).toEqual({ limit: 20, windowSeconds: 86_400 });
    expect(routes.postWebhookTest.rateLimit).toEqual({ limit: 30, windowSeconds: 3_600 });
    expect(workers.find((w) => w.id === 'webhook-worker')).toMatchObject({ queueEnv: 'WEBHOOK_QUEUE_URL', queueName: 'webhooks', handler: 'functions/queue/webhook-delivery.ts' });
  });

  it('POST 201 with the secret; GET lists without it; rotate; deliveries; DELETE', async () => {
    const created = await call(postWebhooks, authed('http/post-webhooks.json', { body: JSON.stringify({ url: rx.url('/h') }) }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ webhook: { id: expect.stringMatching(/^wh_/), url: rx.url('/h'), events: ['post.published', 'post.failed', 'connection.reauth_required'] }, secret: expect.stringMatching(/^whsec_/) });
    const id = (created.body.webhook as { id: string }).id;
    const listed = await call(getWebhooks, authed('http/get-webhooks.json'));
    expect(listed.status).toBe(200);
    expect(listed.raw).not.toContain(created.body.secret as string);

    const bad = await call(postWebhooks, authed('http/post-webhooks.json', { body: JSON.stringify({ url: rx.url('/h'), events: ['post.nope'] }) }));
    expect(bad).toMatchObject({ status: 400, body: { code: 'unknown_event', events: ['post.nope'] } });
    const extra = await call(postWebhooks, authed('http/post-webhooks.json', { body: JSON.stringify({ url: rx.url('/h'), secret: 'mine' }) }));
    expect(extra.status).toBe(400);

    const rotated = await call(postRotate, withId('http/post-webhook-rotate.json', id));
    expect(rotated).toMatchObject({ status: 200, body: { secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) } });
    expect(rotated.body.secret).not.toBe(created.body.secret);

    const tested = await call(postTest, withId('http/post-webhook-test.json', id));
    expect(tested).toMatchObject({ status: 202, body: { status: 'queued', delivery_id: expect.any(String) } });
    const out = await worker(sqs(webhookMessages()));
    expect(out).toEqual({ batchItemFailures: [] });
    expect(rx.received.at(-1)!.headers['service-event']).toBe('webhook.test');

    const log = await call(getDeliveries, authed('http/get-webhook-deliveries.json', { pathParameters: { id }, queryStringParameters: { limit: '5' } }));
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({ deliveries: [{ delivery_id: tested.body.delivery_id, attempt: 1, ok: true, status_code: 200 }], next_before: null });
    const tooMany = await call(getDeliveries, authed('http/get-webhook-deliveries.json', { pathParameters: { id }, queryStringParameters: { limit: '500' } }));
    expect(tooMany.status).toBe(400);

    const again = await call(postRedeliver, withId('http/post-webhook-redeliver.json', id, { delivery_id: tested.body.delivery_id as string }));
    expect(again).toMatchObject({ status: 202, body: { delivery_id: tested.body.delivery_id, attempt: 2, status: 'queued' } });
    const missing = await call(postRedeliver, withId('http/post-webhook-redeliver.json', id, { delivery_id: '6f1c2a4e-8b3d-8e5f-9a7b-0c1d2e3f4a5b' }));
    expect(missing.status).toBe(404);

    expect((await call(deleteWebhook, withId('http/delete-webhook.json', id))).status).toBe(200);
    expect((await call(deleteWebhook, withId('http/delete-webhook.json', id))).status).toBe(404);
    expect((await call(deleteWebhook, withId('http/delete-webhook.json', 'wh_nonsense'))).status).toBe(404);
  });

  it('POST /api/webhooks/{id}/test: 30 an hour, then 429 with Retry-After', async () => {
    const created = await call(postWebhooks, authed('http/post-webhooks.json', { body: JSON.stringify({ url: rx.url('/limit') }) }));
    const id = (created.body.webhook as { id: string }).id;
    t.clock.advance(3_600_000); // a fresh window (the previous test used one)
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await call(postTest, withId('http/post-webhook-test.json', id))).status);
    expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
    const refused = await call(postTest, withId('http/post-webhook-test.json', id));
    expect(refused.status).toBe(429);
    expect(refused.headers['Retry-After']).toMatch(/^\d+$/);
    expect(statuses[30]).toBe(429);
  });
});

describe('webhook worker and dispatcher handlers', () => {
  it('drops malformed records, reports a try that must wait, and the dispatcher queues a bridged try', async () => {
    t.queue.sent.length = 0;
    t.clock.advance(3_600_000); // past the test endpoint's hourly limit used above
    const created = await call(postWebhooks, authed('http/post-webhooks.json', { body: JSON.stringify({ url: rx.url('/w') }) }));
    const id = (created.body.webhook as { id: string }).id;
    await call(postTest, withId('http/post-webhook-test.json', id));
    const [msg] = webhookMessages();
    const { delivery_id } = JSON.parse(msg) as { delivery_id: string };
    const ahead = JSON.stringify({ delivery_id, attempt: 3 }); // try 2 not recorded yet
    const out = await worker(sqs(['not json', JSON.stringify({ delivery_id: 'x', attempt: 1 }), ahead, msg]));
    expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
    expect(await deps.webhooks.getDelivery(delivery_id)).toMatchObject({ state: 'succeeded', attempts: 1 });

    t.queue.sent.length = 0;
    await dispatcher({ kind: 'webhook', delivery_id, attempt: 2 });
    expect(webhookMessages()).toEqual([JSON.stringify({ v: 1, delivery_id, attempt: 2 })]);
    await dispatcher({ kind: 'webhook', delivery_id: 'nope', attempt: 2 }); // refused by zod, logged
    expect(webhookMessages()).toHaveLength(1);
  });
});

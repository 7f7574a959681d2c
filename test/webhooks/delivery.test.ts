import { webhookSecretContext } from '../../shared/app/security/contexts';
import { startTestTable, testDeps, type TestTable } from '../support/deps';
import type { Account } from '../../shared/ports/store';
import type { ServiceEvent } from '../../shared/ports/publishing';
import { newId } from '../../shared/domain/ids';
import type { PlanName } from '../../shared/domain/plans';
import { usageKeys } from '../../shared/domain/usage';
import { deliveryIdOf, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../../shared/domain/webhooks';
import {
  createWebhook, deleteWebhook, listDeliveries, listWebhooks, rotateWebhookSecret, testWebhook,
} from '../../shared/app/webhooks/endpoints';
import { type WebhookMessage } from '../../shared/app/webhooks/delivery-queue';
import { MAX_RESCUES, redeliver, SWEEP_GRACE_MS, sweepDeliveries } from '../../shared/app/webhooks/delivery-sweep';
import { CLAIM_STALE_MS, deliverWebhook, RetryLater } from '../../shared/app/webhooks/delivery-try';
import { SWEEP_SCHEDULE } from '../../shared/app/webhooks/sweep-schedule';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { HttpWebhookSender } from '../../shared/adapters/webhook-sender';
import { verifyWebhook, parseSignatureHeader } from '../../shared/webhooks/verify';
import { AppError } from '../../shared/domain/errors';
import { independentVerify } from './independent';
import { WebhookReceiver } from './receiver';
import { recordEvent } from '../../shared/app/webhooks/record-event';

let table: TestTable;
let stopTable: () => Promise<void>;
let t: ReturnType<typeof testDeps>;
let rx: WebhookReceiver;
let clock: { now(): number; advance(ms: number): void };

beforeAll(async () => {
  ({ table, stop: stopTable } = await startTestTable());
  rx = await new WebhookReceiver().start();
});
afterAll(async () => { await rx.stop(); await stopTable(); });
beforeEach(() => {
  t = testDeps(table, {}, { frozenClock: true });
  clock = t.clock as unknown as typeof clock;
  rx.received.length = 0;
  rx.reply = () => ({ status: 200, body: '{"ok":true}' });
});

let n = 0;
async function newAccount(plan: PlanName = 'free'): Promise<Account> {
  const account: Account = { id: newId('acc', Date.now()), email: `wh${++n}@example.com`, plan, verified: true, created_at: new Date().toISOString(), brand_count: 1 };
  await t.deps.accounts.createAccount(account);
  return account;
}

const WEBHOOK_QUEUE = 'memory://webhooks';
let taken = 0;
/** Webhook messages sent since the last call (with their delay). */
function newMessages(): Array<{ body: WebhookMessage; delaySeconds?: number }> {
  const all = t.queue.sent.filter((s) => s.queueUrl === WEBHOOK_QUEUE).map((s) => ({ body: s.message.body as WebhookMessage, delaySeconds: s.message.delaySeconds }));
  const fresh = all.slice(taken);
  taken = all.length;
  return fresh;
}
beforeEach(() => { taken = 0; });

function postEvent(account: Account, type: ServiceEvent['type'] = 'post.published', data: Record<string, unknown> = {}): ServiceEvent {
  const now = clock.now();
  return {
    id: newId('evt', now), type, created_at: new Date(now).toISOString(), account_id: account.id,
    data: {
      platform: 'telegram', status: type === 'post.published' ? 'published' : 'failed', post_id: newId('pst', now), url: 'https://t.me/acmenews/41',
      error: null, code: null, account: { platform: 'telegram', handle: '@acmenews', brand_id: 'brd_x', brand: { id: 'brd_x', name: 'Default' } }, brand_id: 'brd_x', brand: { id: 'brd_x', name: 'Default' },
      source: 'api', idempotency_key: null, label: 'Default · @acmenews (telegram)', ...data,
    },
  };
}

describe('registration', () => {
  it('answers 201-shaped {webhook, secret}; defaults to the three post/connection events; lists never show the secret', async () => {
    const acc = await newAccount();
    const res = await createWebhook(t.deps, acc, { url: rx.url() });
    expect(res.webhook).toMatchObject({ id: expect.stringMatching(/^wh_/), url: rx.url(), events: ['post.published', 'post.failed', 'connection.reauth_required'] });
    expect(res.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    const stored = await t.deps.webhooks.get(acc.id, res.webhook.id);
    expect(stored!.secret_enc).not.toContain(res.secret);
    expect(await t.deps.cipher.decrypt(stored!.secret_enc, webhookSecretContext(stored!))).toBe(res.secret);
    const listed = await listWebhooks(t.deps, acc.id);
    expect(listed.webhooks).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(res.secret);
    expect(JSON.stringify(listed)).not.toContain('secret');
    // the delivery sweep's timer is part of the deployment (infra/sweep-schedules.ts), not armed here
    expect(t.scheduler.crons.has(SWEEP_SCHEDULE.name)).toBe(false);
  });

  it('unknown event names are a 400 naming them; approval.* and webhook.test are accepted', async () => {
    const acc = await newAccount();
    await expect(createWebhook(t.deps, acc, { url: rx.url(), events: ['post.published', 'post.removed', 'nope'] }))
      .rejects.toMatchObject({ status: 400, code: 'unknown_event', details: { events: ['post.removed', 'nope'] } });
    await expect(createWebhook(t.deps, acc, { url: rx.url(), events: [] })).rejects.toMatchObject({ status: 400 });
    const ok = await createWebhook(t.deps, acc, { url: rx.url(), events: ['approval.requested', 'approval.decided', 'webhook.test', 'approval.decided'] });
    expect(ok.webhook.events).toEqual(['approval.requested', 'approval.decided', 'webhook.test']);
  });

  it('refuses unsafe URLs with 400 invalid_webhook_url', async () => {
    const acc = await newAccount();
    const strict = { ...t.deps, webhookSender: new HttpWebhookSender({ allowPrivate: false, lookup: async () => ['10.0.0.1'] }) };
    await expect(createWebhook(strict, acc, { url: 'http://hooks.example.com/x' })).rejects.toMatchObject({ status: 400, code: 'invalid_webhook_url' });
    await expect(createWebhook(strict, acc, { url: 'https://hooks.example.com/x' })).rejects.toMatchObject({ status: 400, code: 'invalid_webhook_url', details: { reason: 'private_address' } });
    expect(await t.deps.counters.get(usageKeys.webhooks(acc.id))).toBe(0);
  });

  it('endpoint count follows the plan (free 2): 400 webhook_limit_reached with upgrade_url; delete gives the place back', async () => {
    const acc = await newAccount('free');
    const a = await createWebhook(t.deps, acc, { url: rx.url('/a') });
    await createWebhook(t.deps, acc, { url: rx.url('/b') });
    const err = await createWebhook(t.deps, acc, { url: rx.url('/c') }).catch((e: AppError) => e);
    expect(err).toMatchObject({ status: 400, code: 'webhook_limit_reached', details: { limit: 2, upgrade_url: 'https://api.test/dashboard/plan?plan=starter' } });
    expect(await t.deps.counters.get(usageKeys.webhooks(acc.id))).toBe(2);
    expect(await deleteWebhook(t.deps, acc.id, a.webhook.id)).toEqual({ id: a.webhook.id, deleted: true });
    expect(await t.deps.counters.get(usageKeys.webhooks(acc.id))).toBe(1);
    await expect(deleteWebhook(t.deps, acc.id, a.webhook.id)).rejects.toMatchObject({ status: 404 });
    expect(await t.deps.counters.get(usageKeys.webhooks(acc.id))).toBe(1);
    await createWebhook(t.deps, acc, { url: rx.url('/c') });
    expect(await t.deps.counters.get(usageKeys.webhooks(acc.id))).toBe(2);
  });

  it('concurrent registrations never pass the plan limit (starter 5)', async () => {
    const acc = await newAccount('starter');
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => createWebhook(t.deps, acc, { url: rx.url(`/${i}`) })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect((await listWebhooks(t.deps, acc.id)).webhooks).toHaveLength(5);
    expect(await t.deps.counters.get(usageKeys.webhooks(acc.id))).toBe(5);
  });

  it("another account's endpoint, or a malformed id, is 404", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const wh = await createWebhook(t.deps, a, { url: rx.url() });
    await expect(deleteWebhook(t.deps, b.id, wh.webhook.id)).rejects.toMatchObject({ status: 404 });
    await expect(testWebhook(t.deps, b.id, wh.webhook.id)).rejects.toMatchObject({ status: 404 });
    await expect(listDeliveries(t.deps, b.id, wh.webhook.id, 10)).rejects.toMatchObject({ status: 404 });
    await expect(rotateWebhookSecret(t.deps, a.id, 'wh_nope')).rejects.toMatchObject({ status: 404 });
  });
});

describe('fan-out and one try', () => {
  it('one delivery per subscribed endpoint; the request carries the headers, body and a valid signature', async () => {
    const acc = await newAccount('pro');
    const one = await createWebhook(t.deps, acc, { url: rx.url('/one') });
    const two = await createWebhook(t.deps, acc, { url: rx.url('/two'), events: ['post.published'] });
    await createWebhook(t.deps, acc, { url: rx.url('/three'), events: ['post.failed'] });
    const event = postEvent(acc);
    await recordEvent(t.deps, event);
    const msgs = newMessages();
    expect(msgs.map((m) => m.body.attempt)).toEqual([1, 1]);
    expect(new Set(msgs.map((m) => m.body.delivery_id))).toEqual(new Set([deliveryIdOf(event.id, one.webhook.id), deliveryIdOf(event.id, two.webhook.id)]));
    for (const m of msgs) expect(await deliverWebhook(t.deps, m.body)).toBe('sent');
    expect(rx.received.map((r) => r.path).sort()).toEqual(['/one', '/two']);

    const req = rx.received.find((r) => r.path === '/one')!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['service-event']).toBe('post.published');
    expect(req.headers['service-delivery']).toBe(deliveryIdOf(event.id, one.webhook.id));
    expect(req.headers['service-delivery']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const sig = req.headers['service-signature'] as string;
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(parseSignatureHeader(sig)!.timestamp).toBe(Math.floor(clock.now() / 1000));
    const body = verifyWebhook(req.raw, sig, one.secret, { now: clock.now() });
    expect(await independentVerify(req.raw.toString(), sig, one.secret, Math.floor(clock.now() / 1000))).toBe(true);
    expect(() => verifyWebhook(req.raw, sig, two.secret, { now: clock.now() })).toThrow(/no matching signature/);
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'delivery_id', 'data']);
    // the id to deduplicate on is inside the signed body, equal to the (unsigned) Service-Delivery header
    expect(body).toEqual({ id: event.id, type: 'post.published', created_at: event.created_at, delivery_id: req.headers['service-delivery'], data: event.data });
    expect(body.id).toMatch(/^evt_/);
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.data).toMatchObject({ platform: 'telegram', status: 'published', post_id: expect.stringMatching(/^pst_/), url: expect.any(String), error: null, code: null, account: { platform: 'telegram', handle: '@acmenews', brand_id: 'brd_x', brand: { id: 'brd_x', name: 'Default' } }, brand_id: 'brd_x', brand: { id: 'brd_x', name: 'Default' }, source: 'api', idempotency_key: null, label: expect.any(String) });

    const log = await listDeliveries(t.deps, acc.id, one.webhook.id, 10);
    expect(log.deliveries).toEqual([expect.objectContaining({ delivery_id: deliveryIdOf(event.id, one.webhook.id), event_id: event.id, type: 'post.published', attempt: 1, status_code: 200, ok: true, error: null, next_attempt_at: null, duration_ms: expect.any(Number) })]);
    expect((await t.deps.webhooks.getDelivery(deliveryIdOf(event.id, one.webhook.id)))!.state).toBe('succeeded');
  });

  it('recording the same event twice creates no second delivery', async () => {
    const acc = await newAccount();
    await createWebhook(t.deps, acc, { url: rx.url() });
    const event = postEvent(acc);
    await recordEvent(t.deps, event);
    await recordEvent(t.deps, event);
    const msgs = newMessages();
    expect(new Set(msgs.map((m) => m.body.delivery_id)).size).toBe(1);
    for (const m of msgs) await deliverWebhook(t.deps, m.body);
    expect(rx.received).toHaveLength(1);
  });

  it('webhook.test goes only to the endpoint it was sent for, even when another subscribes to it', async () => {
    const acc = await newAccount('pro');
    const a = await createWebhook(t.deps, acc, { url: rx.url('/a'), events: ['post.failed'] });
    await createWebhook(t.deps, acc, { url: rx.url('/b'), events: ['webhook.test'] });
    const res = await testWebhook(t.deps, acc.id, a.webhook.id);
    expect(res).toMatchObject({ event_id: expect.stringMatching(/^evt_/), delivery_id: deliveryIdOf(res.event_id, a.webhook.id), status: 'queued' });
    for (const m of newMessages()) await deliverWebhook(t.deps, m.body);
    expect(rx.received.map((r) => r.path)).toEqual(['/a']);
    const body = verifyWebhook(rx.received[0].raw, rx.received[0].headers['service-signature'] as string, a.secret, { now: clock.now() });
    expect(body).toMatchObject({ type: 'webhook.test', data: { webhook_id: a.webhook.id } });
    expect(rx.received[0].headers['service-event']).toBe('webhook.test');
  });

  it('a duplicate message for a try already made sends nothing', async () => {
    const acc = await newAccount();
    await createWebhook(t.deps, acc, { url: rx.url() });
    await recordEvent(t.deps, postEvent(acc));
    const [m] = newMessages();
    expect(await deliverWebhook(t.deps, m.body)).toBe('sent');
    expect(await deliverWebhook(t.deps, m.body)).toBe('duplicate');
    const parallel = await Promise.allSettled([deliverWebhook(t.deps, m.body), deliverWebhook(t.deps, m.body)]);
    expect(parallel.every((p) => p.status === 'fulfilled' && p.value === 'duplicate')).toBe(true);
    expect(rx.received).toHaveLength(1);
  });

  it('an endpoint deleted before the try closes the delivery without sending', async () => {
    const acc = await newAccount();
    const wh = await createWebhook(t.deps, acc, { url: rx.url() });
    await recordEvent(t.deps, postEvent(acc));
    const [m] = newMessages();
    await deleteWebhook(t.deps, acc.id, wh.webhook.id);
    expect(await deliverWebhook(t.deps, m.body)).toBe('abandoned');
    expect(rx.received).toHaveLength(0);
    expect(await t.deps.webhooks.getDelivery(m.body.delivery_id)).toMatchObject({ state: 'failed', last_error: 'the endpoint was deleted' });
  });
});

/** Runs the next try wherever it was queued: an SQS message (its delay checked) or a scheduler timer via dispatch. */
async function runNextTry(expectDelaySeconds: number): Promise<WebhookMessage> {
  const fresh = newMessages();
  const timers = [...t.scheduler.scheduled.values()].filter((s) => s.input.kind === 'webhook');
  if (expectDelaySeconds <= 900) {
    expect(timers).toHaveLength(0);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].delaySeconds).toBe(expectDelaySeconds);
    clock.advance(expectDelaySeconds * 1000);
    await deliverWebhook(t.deps, fresh[0].body);
    return fresh[0].body;
  }
  expect(fresh).toHaveLength(0);
  expect(timers).toHaveLength(1);
  const [timer] = timers;
  expect(timer.runAt.getTime() - clock.now()).toBe(expectDelaySeconds * 1000);
  t.scheduler.scheduled.clear();
  clock.advance(expectDelaySeconds * 1000);
  await dispatch(t.deps, DispatchInput.parse(timer.input));
  const queued = newMessages();
  expect(queued).toHaveLength(1);
  expect(queued[0].delaySeconds).toBeUndefined();
  await deliverWebhook(t.deps, queued[0].body);
  return queued[0].body;
}

describe('retries (injected clock)', () => {
  it('9 tries on the schedule, the same delivery id every time, bridged through the scheduler beyond 900 s; the log shows all 9', async () => {
    const acc = await newAccount();
    const wh = await createWebhook(t.deps, acc, { url: rx.url() });
    rx.reply = () => ({ status: 500, body: 'boom' });
    const start = clock.now();
    await recordEvent(t.deps, postEvent(acc, 'post.failed'));
    const [first] = newMessages();
    await deliverWebhook(t.deps, first.body);
    const attempts = [first.body.attempt];
    for (const delay of RETRY_DELAYS_SECONDS) attempts.push((await runNextTry(delay)).attempt);
    expect(attempts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rx.received).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(rx.received.map((r) => r.headers['service-delivery'])).size).toBe(1);
    // each try is signed at its own time
    expect(rx.received.map((r) => parseSignatureHeader(r.headers['service-signature'] as string)!.timestamp - Math.floor(start / 1000)))
      .toEqual([0, 60, 360, 2160, 9360, 27360, 63360, 106560, 149760]);
    expect((clock.now() - start) / 3_600_000).toBeCloseTo(41.6, 1);
    // nothing more is queued after the ninth failure
    expect(newMessages()).toHaveLength(0);
    expect([...t.scheduler.scheduled.values()].filter((s) => s.input.kind === 'webhook')).toHaveLength(0);

    const delivery = await t.deps.webhooks.getDelivery(first.body.delivery_id);
    expect(delivery).toMatchObject({ state: 'failed', attempts: 9, last_status_code: 500 });
    const page1 = await listDeliveries(t.deps, acc.id, wh.webhook.id, 4);
    const page2 = await listDeliveries(t.deps, acc.id, wh.webhook.id, 4, page1.next_before!);
    const page3 = await listDeliveries(t.deps, acc.id, wh.webhook.id, 4, page2.next_before!);
    const all = [...page1.deliveries, ...page2.deliveries, ...page3.deliveries];
    expect(page3.next_before).toBeNull();
    expect(all.map((d) => d.attempt)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(all.every((d) => !d.ok && d.status_code === 500 && d.error === 'the endpoint answered HTTP 500' && d.response_excerpt === 'boom')).toBe(true);
    expect(all[0].next_attempt_at).toBeNull();
    expect(Date.parse(all[8].next_attempt_at!) - Date.parse(all[8].created_at)).toBe(60_000);
    expect(Date.parse(all[1].next_attempt_at!)).toBe(Date.parse(all[0].created_at));
    await expect(listDeliveries(t.deps, acc.id, wh.webhook.id, 4, 'bm90LWEtY3Vyc29y')).rejects.toMatchObject({ status: 400, code: 'invalid_cursor' });
  });

  it('stops at the first 2xx', async () => {
    const acc = await newAccount();
    await createWebhook(t.deps, acc, { url: rx.url() });
    let calls = 0;
    rx.reply = () => (++calls < 3 ? { status: 502 } : { status: 204 });
    await recordEvent(t.deps, postEvent(acc));
    await deliverWebhook(t.deps, newMessages()[0].body);
    await runNextTry(60);
    const third = await runNextTry(300);
    expect(rx.received).toHaveLength(3);
    expect(await t.deps.webhooks.getDelivery(third.delivery_id)).toMatchObject({ state: 'succeeded', attempts: 3, last_status_code: 204 });
    expect(newMessages()).toHaveLength(0);
  });

  it('a redirect is a failed try, retried, never followed', async () => {
    const acc = await newAccount();
    const wh = await createWebhook(t.deps, acc, { url: rx.url('/moved') });
    rx.reply = (r) => (r.path === '/moved' ? { status: 301, headers: { location: rx.url('/new') } } : { status: 200 });
    await recordEvent(t.deps, postEvent(acc));
    await deliverWebhook(t.deps, newMessages()[0].body);
    expect(rx.received.map((r) => r.path)).toEqual(['/moved']);
    const [entry] = (await listDeliveries(t.deps, acc.id, wh.webhook.id, 5)).deliveries;
    expect(entry).toMatchObject({ ok: false, status_code: 301, error: expect.stringMatching(/not followed/), next_attempt_at: expect.any(String) });
    expect(newMessages()[0]).toMatchObject({ delaySeconds: 60 });
  });
});

describe('a worker crash loses no delivery', () => {
  it('a claimed try whose worker stopped is taken over once the claim is stale', async () => {
    const acc = await newAccount();
    await createWebhook(t.deps, acc, { url: rx.url() });
    await recordEvent(t.deps, postEvent(acc));
    const [m] = newMessages();
    // a worker claims try 1 and dies before sending
    expect(await t.deps.webhooks.claim(m.body.delivery_id, 1, clock.now(), clock.now() - CLAIM_STALE_MS)).toBeDefined();
    // SQS redelivers the message: while the claim is fresh the try is left for later (batch item failure)
    await expect(deliverWebhook(t.deps, m.body)).rejects.toBeInstanceOf(RetryLater);
    expect(rx.received).toHaveLength(0);
    clock.advance(CLAIM_STALE_MS + 1000);
    expect(await deliverWebhook(t.deps, m.body)).toBe('sent');
    expect(rx.received).toHaveLength(1);
  });

  it('a try recorded but whose next try was never queued is queued again by the redelivered message', async () => {
    const acc = await newAccount();
    await createWebhook(t.deps, acc, { url: rx.url() });
    rx.reply = () => ({ status: 500 });
    await recordEvent(t.deps, postEvent(acc));
    const [m] = newMessages();
    // the worker records try 1 and dies before queueing try 2 (the SQS message of try 1 is not deleted)
    const failQueue = new Error('worker stopped');
    t.queue.failWith = failQueue;
    await expect(deliverWebhook(t.deps, m.body)).rejects.toBe(failQueue);
    t.queue.failWith = undefined;
    expect(await t.deps.webhooks.getDelivery(m.body.delivery_id)).toMatchObject({ attempts: 1, state: 'pending', queued_attempt: 1 });
    expect(await deliverWebhook(t.deps, m.body)).toBe('duplicate');
    expect(rx.received).toHaveLength(1);
    const next = newMessages();
    expect(next).toEqual([{ body: { v: 1, delivery_id: m.body.delivery_id, attempt: 2 }, delaySeconds: 60 }]);
    // queued once: a further duplicate of try 1 queues nothing more
    expect(await deliverWebhook(t.deps, m.body)).toBe('duplicate');
    expect(newMessages()).toHaveLength(0);
  });

  it('a try whose predecessor is not recorded yet waits', async () => {
    const acc = await newAccount();
    await createWebhook(t.deps, acc, { url: rx.url() });
    await recordEvent(t.deps, postEvent(acc));
    const [m] = newMessages();
    await expect(deliverWebhook(t.deps, { v: 1, delivery_id: m.body.delivery_id, attempt: 3 })).rejects.toBeInstanceOf(RetryLater);
    expect(rx.received).toHaveLength(0);
  });

  // the sweep reads every pending delivery of the table: these two tests get a table of their own
  let own: Awaited<ReturnType<typeof startTestTable>>;
  const withOwnTable = async () => {
    own = await startTestTable();
    t = testDeps(own.table, {}, { frozenClock: true });
    clock = t.clock as unknown as typeof clock;
  };
  afterEach(async () => { await own?.stop(); own = undefined as never; });

  it('an enqueue that fails after the event is stored is picked up by the sweep', async () => {
    await withOwnTable();
    const acc = await newAccount();
    await createWebhook(t.deps, acc, { url: rx.url() });
    t.queue.failWith = new Error('SQS unavailable');
    const event = postEvent(acc);
    await recordEvent(t.deps, event); // does not throw: the delivery is stored, the sweep re-queues it
    t.queue.failWith = undefined;
    expect(await t.deps.events.listForPost(event.data.post_id as string)).toHaveLength(1);
    expect(newMessages()).toHaveLength(0);
    expect(await sweepDeliveries(t.deps)).toEqual({ requeued: 0, abandoned: 0 }); // not overdue yet
    clock.advance(SWEEP_GRACE_MS + 1000);
    expect(await sweepDeliveries(t.deps)).toEqual({ requeued: 1, abandoned: 0 });
    expect(await sweepDeliveries(t.deps)).toEqual({ requeued: 0, abandoned: 0 }); // due time moved on
    const [m] = newMessages();
    expect(m.body.attempt).toBe(1);
    expect(await deliverWebhook(t.deps, m.body)).toBe('sent');
    expect(rx.received).toHaveLength(1);
    // the sweep runs through the dispatcher as a recurring timer
    expect(DispatchInput.parse({ kind: 'webhook-sweep' })).toEqual({ v: 1, kind: 'webhook-sweep' });
  });

  it('the sweep gives up on a delivery it had to re-queue too often', async () => {
    await withOwnTable();
    const acc = await newAccount();
    await createWebhook(t.deps, acc, { url: rx.url() });
    await recordEvent(t.deps, postEvent(acc));
    const [m] = newMessages();
    for (let i = 0; i < MAX_RESCUES; i++) {
      clock.advance(SWEEP_GRACE_MS + 1000);
      expect((await sweepDeliveries(t.deps)).requeued).toBe(1);
    }
    clock.advance(SWEEP_GRACE_MS + 1000);
    expect(await sweepDeliveries(t.deps)).toEqual({ requeued: 0, abandoned: 1 });
    expect(await t.deps.webhooks.getDelivery(m.body.delivery_id)).toMatchObject({ state: 'failed', last_error: expect.stringMatching(/internal failures/) });
  });
});

describe('secret rotation', () => {
  it('for 24 h deliveries carry two v1 entries (new and old); afterwards only the new', async () => {
    const acc = await newAccount();
    const wh = await createWebhook(t.deps, acc, { url: rx.url() });
    const rotated = await rotateWebhookSecret(t.deps, acc.id, wh.webhook.id);
    expect(rotated.secret).not.toBe(wh.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - clock.now()).toBe(24 * 3_600_000);
    await recordEvent(t.deps, postEvent(acc));
    await deliverWebhook(t.deps, newMessages()[0].body);
    const sig = rx.received[0].headers['service-signature'] as string;
    expect(parseSignatureHeader(sig)!.signatures).toHaveLength(2);
    expect(verifyWebhook(rx.received[0].raw, sig, wh.secret, { now: clock.now() })).toBeDefined();
    expect(verifyWebhook(rx.received[0].raw, sig, rotated.secret, { now: clock.now() })).toBeDefined();
    expect(await independentVerify(rx.received[0].raw.toString(), sig, wh.secret, Math.floor(clock.now() / 1000))).toBe(true);

    clock.advance(24 * 3_600_000 + 1000);
    await recordEvent(t.deps, postEvent(acc));
    await deliverWebhook(t.deps, newMessages()[0].body);
    const later = rx.received[1].headers['service-signature'] as string;
    expect(parseSignatureHeader(later)!.signatures).toHaveLength(1);
    expect(() => verifyWebhook(rx.received[1].raw, later, wh.secret, { now: clock.now() })).toThrow();
    expect(verifyWebhook(rx.received[1].raw, later, rotated.secret, { now: clock.now() })).toBeDefined();
  });
});

describe('re-send', () => {
  it('a final delivery is sent again with the same Service-Delivery id and logged as the next try', async () => {
    const acc = await newAccount();
    const wh = await createWebhook(t.deps, acc, { url: rx.url() });
    await recordEvent(t.deps, postEvent(acc));
    const [m] = newMessages();
    await deliverWebhook(t.deps, m.body);
    const res = await redeliver(t.deps, acc.id, wh.webhook.id, m.body.delivery_id);
    expect(res).toMatchObject({ delivery_id: m.body.delivery_id, attempt: 2, status: 'queued' });
    const [again] = newMessages();
    expect(again).toEqual({ body: { v: 1, delivery_id: m.body.delivery_id, attempt: 2 }, delaySeconds: undefined });
    rx.reply = () => ({ status: 500 });
    await deliverWebhook(t.deps, again.body);
    expect(rx.received.map((r) => r.headers['service-delivery'])).toEqual([m.body.delivery_id, m.body.delivery_id]);
    expect(rx.received[0].raw.equals(rx.received[1].raw)).toBe(true);
    // a re-send of a final delivery is one try: no automatic retries after it
    expect(newMessages()).toHaveLength(0);
    expect(await t.deps.webhooks.getDelivery(m.body.delivery_id)).toMatchObject({ state: 'failed', attempts: 2 });
    expect((await listDeliveries(t.deps, acc.id, wh.webhook.id, 10)).deliveries.map((d) => [d.attempt, d.ok])).toEqual([[2, false], [1, true]]);
  });

  it('a pending delivery has its next try brought forward; the earlier queued message then finds it done', async () => {
    const acc = await newAccount();
    const wh = await createWebhook(t.deps, acc, { url: rx.url() });
    rx.reply = () => ({ status: 503 });
    await recordEvent(t.deps, postEvent(acc));
    await deliverWebhook(t.deps, newMessages()[0].body);
    const [scheduled] = newMessages(); // try 2 in 60 s
    rx.reply = () => ({ status: 200 });
    await redeliver(t.deps, acc.id, wh.webhook.id, scheduled.body.delivery_id);
    const [now] = newMessages();
    expect(now.body).toEqual(scheduled.body);
    expect(await deliverWebhook(t.deps, now.body)).toBe('sent');
    clock.advance(60_000);
    expect(await deliverWebhook(t.deps, scheduled.body)).toBe('duplicate');
    expect(rx.received).toHaveLength(2);
    expect(await t.deps.webhooks.getDelivery(now.body.delivery_id)).toMatchObject({ state: 'succeeded', attempts: 2 });
  });

  it('unknown delivery ids, or another endpoint\'s, are 404', async () => {
    const acc = await newAccount('pro');
    const a = await createWebhook(t.deps, acc, { url: rx.url('/a') });
    const b = await createWebhook(t.deps, acc, { url: rx.url('/b') });
    await recordEvent(t.deps, postEvent(acc));
    const [first] = newMessages();
    await expect(redeliver(t.deps, acc.id, a.webhook.id, 'not-a-uuid')).rejects.toMatchObject({ status: 404 });
    await expect(redeliver(t.deps, acc.id, a.webhook.id, '00000000-0000-8000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
    const delivery = (await t.deps.webhooks.getDelivery(first.body.delivery_id))!;
    const other = delivery.webhook_id === a.webhook.id ? b.webhook.id : a.webhook.id;
    await expect(redeliver(t.deps, acc.id, other, delivery.delivery_id)).rejects.toMatchObject({ status: 404 });
    const stranger = await newAccount();
    await expect(redeliver(t.deps, stranger.id, delivery.webhook_id, delivery.delivery_id)).rejects.toMatchObject({ status: 404 });
  });
});

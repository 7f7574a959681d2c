import { startTestTable, testDeps } from '../support/deps';
import { WebhookReceiver } from '../webhooks/receiver';
import { newId } from '../../shared/domain/ids';
import { createWebhook } from '../../shared/app/webhooks/endpoints';
import { type WebhookMessage } from '../../shared/app/webhooks/delivery-queue';
import { SWEEP_GRACE_MS } from '../../shared/app/webhooks/delivery-sweep';
import { deliverWebhook } from '../../shared/app/webhooks/delivery-try';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { recordEvent } from '../../shared/app/webhooks/record-event';
import type { Account } from '../../shared/ports/store';

/** The dispatcher routes the webhook sweep's timer to the webhook sweep (the timer's input, as the scheduler sends it). */
describe('dispatcher: the webhook sweep timer', () => {
  let own: Awaited<ReturnType<typeof startTestTable>>;
  let rx: WebhookReceiver;
  beforeAll(async () => { own = await startTestTable(); rx = await new WebhookReceiver().start(); });
  afterAll(async () => { await rx.stop(); await own.stop(); });

  it('re-queues a delivery whose enqueue was lost, and that delivery then reaches the endpoint once', async () => {
    const t = testDeps(own.table, {}, { frozenClock: true });
    const clock = t.clock as unknown as { now(): number; advance(ms: number): void };
    const account: Account = { id: newId('acc', clock.now()), email: 'sweep@example.com', plan: 'free', verified: true, created_at: new Date(clock.now()).toISOString(), brand_count: 1 };
    await t.deps.accounts.createAccount(account);
    await createWebhook(t.deps, account, { url: rx.url() });
    const messages = () => t.queue.sent.filter((s) => s.queueUrl === t.deps.settings.webhookQueueUrl).map((s) => s.message.body as WebhookMessage);

    t.queue.failWith = new Error('SQS unavailable');
    const postId = newId('pst', clock.now());
    await recordEvent(t.deps, {
      id: newId('evt', clock.now()), type: 'post.published', created_at: new Date(clock.now()).toISOString(), account_id: account.id,
      data: {
        platform: 'telegram', status: 'published', post_id: postId, url: 'https://t.me/acmenews/41', error: null, code: null,
        account: { platform: 'telegram', handle: '@acmenews', brand_id: 'brd_x', brand: { id: 'brd_x', name: 'Default' } }, brand_id: 'brd_x', brand: { id: 'brd_x', name: 'Default' },
        source: 'api', idempotency_key: null, label: 'Default · @acmenews (telegram)',
      },
    });
    t.queue.failWith = undefined;
    expect(messages()).toHaveLength(0);

    clock.advance(SWEEP_GRACE_MS + 1_000);
    await dispatch(t.deps, DispatchInput.parse({ kind: 'webhook-sweep' }));
    const requeued = messages();
    expect(requeued).toHaveLength(1);
    expect(await deliverWebhook(t.deps, requeued[0])).toBe('sent');
    expect(rx.received).toHaveLength(1);
    expect(JSON.parse(rx.received[0].raw.toString())).toMatchObject({ type: 'post.published', data: { post_id: postId } });

    // a second sweep finds nothing left to re-queue
    clock.advance(SWEEP_GRACE_MS + 1_000);
    await dispatch(t.deps, DispatchInput.parse({ kind: 'webhook-sweep' }));
    expect(messages()).toHaveLength(1);
  });
});

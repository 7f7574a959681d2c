import { SUBSCRIPTIONS_TTL_MS, WebhookFanOut } from '../../shared/app/webhooks/fan-out';
import { recordEvent } from '../../shared/app/webhooks/record-event';
import type { FanoutDeps } from '../../shared/app/webhooks/delivery-queue';
import type { ServiceEvent } from '../../shared/ports/publishing';
import type { WebhookDelivery, WebhookEndpoint, WebhookStore } from '../../shared/ports/webhooks';
import type { QueueMessage } from '../../shared/ports/queue';
import { ManualClock } from '../support/deps';

/** The webhook fan-out step: deliveries before the event, tries after; the endpoint list cached 30 s per container. */
function world() {
  const clock = new ManualClock();
  const endpoints: WebhookEndpoint[] = [];
  const written: WebhookDelivery[] = [];
  const queued: QueueMessage[] = [];
  const order: string[] = [];
  let lists = 0;
  const webhooks = {
    list: async (accountId: string) => { lists++; return endpoints.filter((e) => e.account_id === accountId); },
    putDelivery: async (d: WebhookDelivery) => { order.push('delivery'); written.push(d); return true; },
    markQueued: async () => true,
  } as unknown as WebhookStore;
  const deps: FanoutDeps = {
    webhooks, clock, settings: { webhookQueueUrl: 'memory://webhooks' },
    queue: { sendAll: async (_url: string, messages: QueueMessage[]) => { order.push('queued'); queued.push(...messages); } } as FanoutDeps['queue'],
  };
  const fanOut = new WebhookFanOut(() => deps);
  const events = { record: async () => { order.push('event'); }, listForPost: async () => [] };
  const endpoint = (id: string): WebhookEndpoint => ({ id, account_id: 'acc_1', url: `https://example.com/${id}`, events: ['post.published'], secret_enc: 'x', created_at: new Date(clock.now()).toISOString() });
  let n = 0;
  const event = (): ServiceEvent => ({ id: `evt_${++n}`, type: 'post.published', created_at: new Date(clock.now()).toISOString(), account_id: 'acc_1', data: {} });
  return { clock, endpoints, written, queued, order, fanOut, events, endpoint, event, lists: () => lists };
}

describe('webhook fan-out (EventFanOut)', () => {
  it('writes the deliveries before the event is stored and queues their tries after', async () => {
    const w = world();
    w.endpoints.push(w.endpoint('wh_a'), w.endpoint('wh_b'));
    await recordEvent({ events: w.events, fanOut: w.fanOut }, w.event());
    expect(w.order).toEqual(['delivery', 'delivery', 'event', 'queued']);
    expect(w.queued).toHaveLength(2);
  });

  it('reads an account\'s endpoints once per 30 s; this container\'s own change is seen at once', async () => {
    const w = world();
    await w.fanOut.prepare(w.event());
    await w.fanOut.prepare(w.event());
    expect(w.lists()).toBe(1);
    expect(w.written).toHaveLength(0);
    // created in another container: not seen until the cached list is 30 s old
    w.endpoints.push(w.endpoint('wh_a'));
    w.clock.advance(SUBSCRIPTIONS_TTL_MS - 1);
    await w.fanOut.prepare(w.event());
    expect(w.written).toHaveLength(0);
    w.clock.advance(1);
    await w.fanOut.prepare(w.event());
    expect(w.written.map((d) => d.webhook_id)).toEqual(['wh_a']);
    expect(w.lists()).toBe(2);
    // created in this container (createWebhook calls forget): seen by the next event
    w.endpoints.push(w.endpoint('wh_b'));
    w.fanOut.forget('acc_1');
    await w.fanOut.prepare(w.event());
    expect(w.written.slice(1).map((d) => d.webhook_id)).toEqual(['wh_a', 'wh_b']);
  });
});

import * as z from 'zod';
import type { Deps } from '../deps';
import type { ServiceEvent } from '../../ports/publishing';
import type { WebhookDelivery, WebhookEndpoint } from '../../ports/webhooks';
import { deliveryIdOf, isUuid, MAX_ATTEMPTS, SQS_MAX_DELAY_SECONDS, type WebhookEventName } from '../../domain/webhooks';
import { errorFields, log } from '../../log';
import { formatVersion, FORMAT_VERSION } from '../../ports/format-version';

/**
 * Webhook delivery (service.md §6, decisions.md "Webhooks"): fan-out of recorded events into deliveries, the
 * delivery worker's try (claim, sign, send, record, schedule the next), re-sends, and the sweep that re-queues
 * deliveries whose message was lost.
 *
 * Durability, in order: (1) one delivery item per matching endpoint is written, due now; (2) the event is recorded;
 * (3) one SQS message per delivery is sent. A failure in (3) is logged and left to the sweep, which re-queues any
 * pending delivery more than SWEEP_GRACE_MS past due. The publish path writes (1) from events already stored with
 * the settle (shared/app/publish/durability.ts), so a crash before (1) is repaired by the publish sweep. A try is claimed before sending and recorded after; the SQS
 * message is deleted only once the next try is queued, so a worker crash at any point repeats the step, never
 * loses the delivery (receivers deduplicate on the signed body's delivery_id, or its id per endpoint).
 */

/** The webhook queue's message: try `attempt` of one delivery. */
export const WebhookMessage = z.object({
  v: formatVersion,
  delivery_id: z.string().refine(isUuid, 'not a delivery id'),
  attempt: z.number().int().min(1).max(1000),
});
export type WebhookMessage = z.infer<typeof WebhookMessage>;

/** The dispatcher input of a try bridged through the scheduler (waits longer than SQS's 900 s). */
export const WebhookDispatchInput = z.object({
  v: formatVersion,
  kind: z.literal('webhook'),
  delivery_id: z.string().refine(isUuid, 'not a delivery id'),
  attempt: z.number().int().min(1).max(1000),
});

export type FanoutDeps = Pick<Deps, 'webhooks' | 'queue' | 'clock'> & { settings: Pick<Deps['settings'], 'webhookQueueUrl'> };

/**
 * The body every try of an event carries (spec §6): id, type, created_at, data, plus delivery_id (the
 * Service-Delivery id) so the id a receiver deduplicates on is covered by the signature.
 */
export const eventBody = (e: ServiceEvent, deliveryId: string) => JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at, delivery_id: deliveryId, data: e.data });

/** The endpoints an event goes to: subscribers of its type; webhook.test only to the endpoint it names. */
export function recipients(event: ServiceEvent, endpoints: WebhookEndpoint[]): WebhookEndpoint[] {
  if (event.type === 'webhook.test') return endpoints.filter((e) => e.id === event.data.webhook_id);
  return endpoints.filter((e) => e.events.includes(event.type as WebhookEventName));
}

/**
 * Step 1 of the fan-out: one pending delivery per recipient among `endpoints` (the account's), due now; answers the
 * ones written now (a repeat of the same event adds none and queues none).
 */
export async function prepareDeliveries(deps: FanoutDeps, event: ServiceEvent, endpoints: WebhookEndpoint[]): Promise<WebhookDelivery[]> {
  const targets = recipients(event, endpoints);
  if (targets.length === 0) return [];
  const now = deps.clock.now();
  const at = new Date(now).toISOString();
  const deliveries = targets.map((e): WebhookDelivery => ({
    delivery_id: deliveryIdOf(event.id, e.id), webhook_id: e.id, account_id: event.account_id, event_id: event.id,
    type: event.type as WebhookEventName, body: eventBody(event, deliveryIdOf(event.id, e.id)), state: 'pending', attempts: 0, max_attempts: MAX_ATTEMPTS,
    next_attempt_at: now, queued_attempt: 0, rescues: 0, created_at: at, updated_at: at,
  }));
  const written = await Promise.all(deliveries.map((d) => deps.webhooks.putDelivery(d)));
  // a delivery written before (the same event fanned out again) is the delivery sweep's to re-queue if need be
  return deliveries.filter((_, i) => written[i]);
}

/** Step 3 of the fan-out: queue the first try of each delivery; a failure is logged and left to the sweep. */
export async function queueFirstTries(deps: FanoutDeps, deliveries: WebhookDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  try {
    await deps.queue.sendAll(deps.settings.webhookQueueUrl, deliveries.map((d, i) => ({ id: `d${i}`, group: d.account_id, body: { v: FORMAT_VERSION, delivery_id: d.delivery_id, attempt: 1 } satisfies WebhookMessage })));
    await Promise.all(deliveries.map((d) => deps.webhooks.markQueued(d.delivery_id, 1)));
  } catch (err) {
    log.error('webhook enqueue failed; the sweep will re-queue', { deliveries: deliveries.map((d) => d.delivery_id), ...errorFields(err) });
  }
}

/** Hands try `attempt` to SQS (delay ≤ 900 s) or to the scheduler (longer waits), then notes it as queued. */
export async function queueTry(deps: Pick<Deps, 'webhooks' | 'queue' | 'scheduler' | 'clock' | 'settings'>, deliveryId: string, attempt: number, dueMs: number): Promise<void> {
  const waitSeconds = Math.max(0, Math.ceil((dueMs - deps.clock.now()) / 1000));
  if (waitSeconds <= SQS_MAX_DELAY_SECONDS) {
    const body: WebhookMessage = { v: FORMAT_VERSION, delivery_id: deliveryId, attempt };
    await deps.queue.sendAll(deps.settings.webhookQueueUrl, [{ id: 't', body, ...(waitSeconds > 0 ? { delaySeconds: waitSeconds } : {}) }]);
  } else {
    await deps.scheduler.scheduleOnce({
      name: `wh-${deliveryId}-${attempt}`, runAt: new Date(dueMs),
      input: { v: FORMAT_VERSION, kind: 'webhook', delivery_id: deliveryId, attempt } satisfies z.infer<typeof WebhookDispatchInput>,
    });
  }
  await deps.webhooks.markQueued(deliveryId, attempt);
}

/** The scheduler fired a bridged wait: the try goes on the webhook queue now. */
export async function dispatchWebhookTry(deps: Pick<Deps, 'queue' | 'settings'>, input: z.input<typeof WebhookDispatchInput>): Promise<void> {
  const body: WebhookMessage = { v: FORMAT_VERSION, delivery_id: input.delivery_id, attempt: input.attempt };
  await deps.queue.sendAll(deps.settings.webhookQueueUrl, [{ id: 't', body }]);
}

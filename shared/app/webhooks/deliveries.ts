import * as z from 'zod';
import { formatVersion, FORMAT_VERSION } from '../../ports/format-version';
import type { Deps } from '../deps';
import type { ServiceEvent } from '../../ports/publishing';
import type { WebhookDelivery, WebhookEndpoint } from '../../ports/webhooks';
import { AppError, NotFoundError } from '../../domain/errors';
import {
  deliveryIdOf, isUuid, MAX_ATTEMPTS, retryDelaySeconds, SQS_MAX_DELAY_SECONDS, type WebhookEventName,
} from '../../domain/webhooks';
import { signatureHeader } from '../../webhooks/verify';
import { errorFields, log } from '../../log';
import { getWebhook } from './endpoints';
import { SWEEP_SCHEDULE, WebhookSweepInput } from './sweep-schedule';

export { SWEEP_SCHEDULE, WebhookSweepInput };
import { webhookSecretContext } from '../security/contexts';
import { putMetric } from '../../metrics';

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

/** A claim older than this belongs to a stopped worker (the worker's timeout is 30 s). */
export const CLAIM_STALE_MS = 40_000;
/** The sweep (every minute) re-queues pending deliveries this long past due: a lost message costs 1–2 minutes. */
export const SWEEP_GRACE_MS = 60_000;
/**
 * After this many re-queues by the sweep a delivery is closed as failed: at least an hour of a lost message each
 * minute (a rescue makes it due now, and the next one comes SWEEP_GRACE_MS after), never a slow queue's backlog.
 */
export const MAX_RESCUES = 60;
export const USER_AGENT = 'SocialPublishingAPI-Webhooks/0.1';

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

/** The worker cannot take this try now (in flight elsewhere, or the previous try not recorded yet): SQS retries. */
export class RetryLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryLater';
  }
}

export type FanoutDeps = Pick<Deps, 'webhooks' | 'queue' | 'clock'> & { settings: Pick<Deps['settings'], 'webhookQueueUrl'> };
type WorkerDeps = Pick<Deps, 'webhooks' | 'webhookSender' | 'queue' | 'scheduler' | 'clock' | 'cipher' | 'settings'>;

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

/** A recorded try whose next one may not have been queued (a crash after recording): queue it again. */
async function ensureNextQueued(deps: WorkerDeps, d: WebhookDelivery): Promise<void> {
  if (d.state !== 'pending' || d.next_attempt_at === undefined || d.queued_attempt > d.attempts) return;
  await queueTry(deps, d.delivery_id, d.attempts + 1, d.next_attempt_at);
}

/** The headers of one try; the signature carries a v1 for the current secret and, after a rotation, the previous. */
export async function signedHeaders(deps: Pick<Deps, 'cipher'>, endpoint: WebhookEndpoint, d: Pick<WebhookDelivery, 'delivery_id' | 'type' | 'body'>, nowMs: number): Promise<Record<string, string>> {
  const context = webhookSecretContext(endpoint);
  const secrets = [await deps.cipher.decrypt(endpoint.secret_enc, context)];
  if (endpoint.previous_secret_enc && (endpoint.previous_secret_until ?? 0) > nowMs) secrets.push(await deps.cipher.decrypt(endpoint.previous_secret_enc, context));
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'service-event': d.type,
    'service-delivery': d.delivery_id,
    'service-signature': signatureHeader(secrets, Math.floor(nowMs / 1000), d.body),
  };
}

export type TryOutcome = 'sent' | 'duplicate' | 'abandoned';

/**
 * The delivery worker's use case: try `attempt` of a delivery, once.
 * 1. Load the delivery; a final one, or a try already recorded, needs nothing (re-queue its next try if that was
 *    lost); a try whose predecessor is not recorded yet waits (RetryLater).
 * 2. Claim the try (conditional write; a stale claim of a stopped worker may be taken over).
 * 3. Load the endpoint (deleted: the delivery is closed), sign with its secret(s), send (address check, pinned
 *    connection, no redirects, 10 s).
 * 4. Log the try, then record the outcome on the delivery: succeeded, failed (try max_attempts), or pending with
 *    the next due time of the retry schedule.
 * 5. Queue the next try: SQS delay up to 900 s, the scheduler beyond.
 */
export async function deliverWebhook(deps: WorkerDeps, msg: WebhookMessage): Promise<TryOutcome> {
  const d = await deps.webhooks.getDelivery(msg.delivery_id);
  if (!d || d.state !== 'pending') return 'duplicate';
  if (d.attempts >= msg.attempt) {
    await ensureNextQueued(deps, d);
    return 'duplicate';
  }
  if (d.attempts < msg.attempt - 1) throw new RetryLater(`try ${msg.attempt - 1} of ${d.delivery_id} is not recorded yet`);

  const now = deps.clock.now();
  const claimedAt = await deps.webhooks.claim(d.delivery_id, msg.attempt, now, staleBefore(deps.settings, now));
  if (claimedAt === undefined) {
    const again = await deps.webhooks.getDelivery(d.delivery_id);
    if (!again || again.state !== 'pending') return 'duplicate';
    if (again.attempts >= msg.attempt) {
      await ensureNextQueued(deps, again);
      return 'duplicate';
    }
    throw new RetryLater(`try ${msg.attempt} of ${d.delivery_id} is in flight elsewhere`);
  }

  const endpoint = await deps.webhooks.get(d.account_id, d.webhook_id);
  if (!endpoint) {
    await deps.webhooks.abandon(d.delivery_id, 'the endpoint was deleted', new Date(deps.clock.now()).toISOString());
    putMetric('WebhookDeliveries', 1, { outcome: 'abandoned' });
    return 'abandoned';
  }
  const headers = await signedHeaders(deps, endpoint, d, claimedAt);
  putMetric('WebhookBacklogAge', Math.max(0, claimedAt - (d.next_attempt_at ?? claimedAt)), {});
  const result = await deps.webhookSender.send(endpoint.url, headers, d.body);

  const final = result.ok || msg.attempt >= d.max_attempts;
  const delay = final ? undefined : retryDelaySeconds(msg.attempt) ?? 0;
  const nextAt = delay === undefined ? undefined : claimedAt + delay * 1000;
  const state = result.ok ? 'succeeded' : final ? 'failed' : 'pending';
  await deps.webhooks.addAttempt({
    delivery_id: d.delivery_id, webhook_id: d.webhook_id, event_id: d.event_id, type: d.type, attempt: msg.attempt,
    status_code: result.status_code, ok: result.ok, duration_ms: result.duration_ms, error: result.error,
    next_attempt_at: nextAt === undefined ? null : new Date(nextAt).toISOString(), created_at: new Date(claimedAt).toISOString(),
    ...(result.response_excerpt ? { response_excerpt: result.response_excerpt } : {}),
  }, claimedAt);
  const recorded = await deps.webhooks.finish(d.delivery_id, msg.attempt, claimedAt, {
    state, next_attempt_at: nextAt, status_code: result.status_code, error: result.error, at: new Date(deps.clock.now()).toISOString(),
  });
  if (!recorded) return 'duplicate'; // a worker that took over the claim records its own try
  const outcome = result.ok ? 'delivered' : final ? 'failed' : 'retrying';
  putMetric('WebhookDeliveries', 1, { outcome });
  log.info('webhook try', { delivery_id: d.delivery_id, webhook_id: d.webhook_id, attempt: msg.attempt, outcome, status_code: result.status_code });
  if (nextAt !== undefined) await queueTry(deps, d.delivery_id, msg.attempt + 1, nextAt);
  return 'sent';
}

/**
 * POST /api/webhooks/{id}/deliveries/{delivery_id}/redeliver: the same event again, same Service-Delivery id.
 * A final delivery is reopened for one more try; a pending one has its next try brought forward to now (it
 * counts as that try; the schedule continues from it, and the earlier queued message finds it done).
 */
export async function redeliver(deps: Pick<Deps, 'webhooks' | 'queue' | 'scheduler' | 'clock' | 'settings'>, accountId: string, webhookId: string, deliveryId: string) {
  await getWebhook(deps, accountId, webhookId);
  const d = isUuid(deliveryId) ? await deps.webhooks.getDelivery(deliveryId) : undefined;
  if (!d || d.account_id !== accountId || d.webhook_id !== webhookId) throw new NotFoundError('No such delivery for this endpoint (deliveries are kept 30 days)');
  const now = deps.clock.now();
  const attempt = d.attempts + 1;
  if (d.state !== 'pending' && !(await deps.webhooks.reopen(d.delivery_id, d.state, attempt, now, new Date(now).toISOString()))) {
    throw new AppError(409, 'conflict', 'The delivery changed while re-sending; try again');
  }
  await deps.queue.sendAll(deps.settings.webhookQueueUrl, [{ id: 'r', body: { v: FORMAT_VERSION, delivery_id: d.delivery_id, attempt } satisfies WebhookMessage }]);
  await deps.webhooks.markQueued(d.delivery_id, attempt);
  return { delivery_id: d.delivery_id, event_id: d.event_id, attempt, status: 'queued' as const };
}

/** Claims made before this (ms) belong to stopped workers: older than CLAIM_STALE_MS, or than the local runtime. */
function staleBefore(settings: Deps['settings'], now: number): number {
  return Math.max(now - CLAIM_STALE_MS, settings.claimsDeadBefore ?? -Infinity);
}

/**
 * The safety net (every minute): pending deliveries more than SWEEP_GRACE_MS past due, and not claimed by a live
 * worker, are queued again (a lost enqueue, a lost schedule, a message that went to the DLQ, the local runtime's
 * in-memory queue lost in a crash). At the local runtime's start (`startup`) every due delivery is, without the
 * grace. After MAX_RESCUES re-queues a delivery is closed as failed.
 */
export async function sweepDeliveries(deps: Pick<Deps, 'webhooks' | 'queue' | 'scheduler' | 'clock' | 'settings'>, limit = 200, opts: { startup?: boolean } = {}): Promise<{ requeued: number; abandoned: number }> {
  const now = deps.clock.now();
  let requeued = 0;
  let abandoned = 0;
  for (const d of await deps.webhooks.due(opts.startup ? now : now - SWEEP_GRACE_MS, limit)) {
    if (d.claimed_at !== undefined && d.claimed_at >= staleBefore(deps.settings, now)) continue;
    if (d.rescues >= MAX_RESCUES) {
      await deps.webhooks.abandon(d.delivery_id, 'delivery stopped after repeated internal failures', new Date(now).toISOString());
      abandoned++;
      continue;
    }
    if (d.next_attempt_at === undefined || !(await deps.webhooks.rescue(d.delivery_id, d.next_attempt_at, now))) continue;
    await deps.queue.sendAll(deps.settings.webhookQueueUrl, [{ id: 's', body: { v: FORMAT_VERSION, delivery_id: d.delivery_id, attempt: d.attempts + 1 } satisfies WebhookMessage }]);
    await deps.webhooks.markQueued(d.delivery_id, d.attempts + 1);
    requeued++;
  }
  if (requeued || abandoned) log.warn('webhook sweep', { requeued, abandoned });
  return { requeued, abandoned };
}

import type { Deps } from '../deps';
import type { WebhookDelivery, WebhookEndpoint } from '../../ports/webhooks';
import { retryDelaySeconds } from '../../domain/webhooks';
import { signatureHeader } from '../../webhooks/verify';
import { log } from '../../log';
import { putMetric } from '../../metrics';
import { webhookSecretContext } from '../security/contexts';
import { queueTry, type WebhookMessage } from './delivery-queue';

/** A claim older than this belongs to a stopped worker (the worker's timeout is 30 s). */
export const CLAIM_STALE_MS = 40_000;
export const USER_AGENT = 'SocialPublishingAPI-Webhooks/0.1';

/** The worker cannot take this try now (in flight elsewhere, or the previous try not recorded yet): SQS retries. */
export class RetryLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryLater';
  }
}

type WorkerDeps = Pick<Deps, 'webhooks' | 'webhookSender' | 'queue' | 'scheduler' | 'clock' | 'cipher' | 'settings'>;

/** Claims made before this (ms) belong to stopped workers: older than CLAIM_STALE_MS, or than the local runtime. */
export function staleBefore(settings: Deps['settings'], now: number): number {
  return Math.max(now - CLAIM_STALE_MS, settings.claimsDeadBefore ?? -Infinity);
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

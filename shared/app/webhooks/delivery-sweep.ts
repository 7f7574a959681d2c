import type { Deps } from '../deps';
import { ConflictError, NotFoundError } from '../../domain/errors';
import { isUuid } from '../../domain/webhooks';
import { log } from '../../log';
import { getWebhook } from './endpoints';
import type { WebhookMessage } from './delivery-queue';
import { staleBefore } from './delivery-try';
import { FORMAT_VERSION } from '../../ports/format-version';

/** The sweep (every minute) re-queues pending deliveries this long past due: a lost message costs 1–2 minutes. */
export const SWEEP_GRACE_MS = 60_000;
/**
 * After this many re-queues by the sweep a delivery is closed as failed: at least an hour of a lost message each
 * minute (a rescue makes it due now, and the next one comes SWEEP_GRACE_MS after), never a slow queue's backlog.
 */
export const MAX_RESCUES = 60;

/**
 * POST /api/webhooks/{id}/deliveries/{delivery_id}/redeliver: the same event again, same Service-Delivery id.
 * A final delivery is reopened for one more try; a pending one has its next try brought forward to now (it
 * counts as that try; the schedule continues from it, and the earlier queued message finds it done).
 */
export async function redeliver(deps: Pick<Deps, 'webhooks' | 'queue' | 'clock' | 'settings'>, accountId: string, webhookId: string, deliveryId: string) {
  await getWebhook(deps, accountId, webhookId);
  const d = isUuid(deliveryId) ? await deps.webhooks.getDelivery(deliveryId) : undefined;
  if (!d || d.account_id !== accountId || d.webhook_id !== webhookId) throw new NotFoundError('No such delivery for this endpoint (deliveries are kept 30 days)');
  const now = deps.clock.now();
  const attempt = d.attempts + 1;
  if (d.state !== 'pending' && !(await deps.webhooks.reopen(d.delivery_id, d.state, attempt, now, new Date(now).toISOString()))) {
    throw new ConflictError('The delivery changed while re-sending; try again');
  }
  await deps.queue.sendAll(deps.settings.webhookQueueUrl, [{ id: 'r', body: { v: FORMAT_VERSION, delivery_id: d.delivery_id, attempt } satisfies WebhookMessage }]);
  await deps.webhooks.markQueued(d.delivery_id, attempt);
  return { delivery_id: d.delivery_id, event_id: d.event_id, attempt, status: 'queued' as const };
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

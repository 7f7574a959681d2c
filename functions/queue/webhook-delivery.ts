import { wiredHandler } from '../../shared/container';
import type { DepsOf } from '../../shared/wiring/declaration';
import { webhookWorker } from '../workers';
import { WebhookMessage } from '../../shared/app/webhooks/delivery-queue';
import { deliverWebhook, RetryLater } from '../../shared/app/webhooks/delivery-try';
import { errorFields, log, withLogContext } from '../../shared/log';
import { sqsMessageHandler } from './sqs-batch';

/**
 * The webhook delivery worker: one record = one try of one delivery, records in parallel. A try that cannot run now
 * (in flight elsewhere, or its predecessor not recorded) or that hit an internal error is reported in
 * batchItemFailures, so SQS brings it back after the visibility timeout; a malformed record is logged and dropped.
 * It sees what it declares (functions/workers.ts), as its Lambda bundle wires it.
 */
export const handler = wiredHandler((workerDeps: () => DepsOf<typeof webhookWorker>) => sqsMessageHandler('webhook', WebhookMessage, async (msg) => {
  await withLogContext({ delivery_id: msg.delivery_id, attempt: msg.attempt }, async () => {
    try {
      await deliverWebhook(workerDeps(), msg);
    } catch (err) {
      if (err instanceof RetryLater) log.info('webhook try deferred', { delivery_id: msg.delivery_id, attempt: msg.attempt, reason: err.message });
      else log.error('webhook try failed internally; will retry', { delivery_id: msg.delivery_id, attempt: msg.attempt, ...errorFields(err) });
      throw err;
    }
  });
}));

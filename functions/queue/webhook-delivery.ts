import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { coldStart } from '../../shared/metrics';
import { depsFor } from '../../shared/container';
import { webhookWorker } from '../../infra/workers';
import { deliverWebhook, RetryLater, WebhookMessage } from '../../shared/app/webhooks/deliver';
import { errorFields, log, withLogContext } from '../../shared/log';
import { correlationOf } from './correlation';

/** What this function declares it uses (infra/workers.ts), as its Lambda bundle wires it. */
const workerDeps = depsFor('webhook-worker', webhookWorker);

/**
 * The webhook delivery worker: one record = one try of one delivery, records in parallel. A try that cannot run now
 * (in flight elsewhere, or its predecessor not recorded) or that hit an internal error is reported in
 * batchItemFailures, so SQS brings it back after the visibility timeout; a malformed record is logged and dropped.
 */
export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  coldStart(context?.functionName);
  const deps = workerDeps();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(event.Records.map((record) => withLogContext({ correlation_id: correlationOf(record), message_id: record.messageId }, async () => {
    let msg: WebhookMessage;
    try {
      msg = WebhookMessage.parse(JSON.parse(record.body));
    } catch (err) {
      log.error('webhook message dropped: malformed', { message_id: record.messageId, ...errorFields(err) });
      return;
    }
    await withLogContext({ delivery_id: msg.delivery_id, attempt: msg.attempt }, async () => {
      try {
        await deliverWebhook(deps, msg);
      } catch (err) {
        if (err instanceof RetryLater) log.info('webhook try deferred', { delivery_id: msg.delivery_id, attempt: msg.attempt, reason: err.message });
        else log.error('webhook try failed internally; will retry', { delivery_id: msg.delivery_id, attempt: msg.attempt, ...errorFields(err) });
        failures.push({ itemIdentifier: record.messageId });
      }
    });
  })));
  return { batchItemFailures: failures };
};

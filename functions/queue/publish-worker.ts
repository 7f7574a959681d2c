import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { coldStart } from '../../shared/metrics';
import { depsFor } from '../../shared/container';
import { publishWorker } from '../../infra/workers';
import { sendToNetwork } from '../../shared/app/publish/send-to-network';
import { PublishMessage } from '../../shared/app/publish/publish-message';
import { errorFields, log, withLogContext } from '../../shared/log';
import { correlationOf } from './correlation';

/** What this function declares it uses (infra/workers.ts), as its Lambda bundle wires it. */
const workerDeps = depsFor('publish-worker', publishWorker);

/**
 * The publish worker: one record = one network of one post. Records are processed in parallel; a record that
 * throws is reported in batchItemFailures (SQS retries it, then the DLQ); a malformed record is logged and dropped.
 */
export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  coldStart(context?.functionName);
  const deps = workerDeps();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(event.Records.map((record) => withLogContext({ correlation_id: correlationOf(record), message_id: record.messageId }, async () => {
    let parsed: PublishMessage;
    try {
      parsed = PublishMessage.parse(JSON.parse(record.body));
    } catch (err) {
      log.error('publish message dropped: malformed', { message_id: record.messageId, ...errorFields(err) });
      return;
    }
    await withLogContext({ post_id: parsed.post_id, platform: parsed.platform }, async () => {
      try {
        await sendToNetwork(deps, parsed);
      } catch (err) {
        log.error('publish failed; will retry', { message_id: record.messageId, post_id: parsed.post_id, platform: parsed.platform, ...errorFields(err) });
        failures.push({ itemIdentifier: record.messageId });
      }
    });
  })));
  return { batchItemFailures: failures };
};

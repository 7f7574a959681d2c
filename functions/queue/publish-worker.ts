import { depsFor } from '../../shared/container';
import { publishWorker } from '../../infra/workers';
import { sendToNetwork } from '../../shared/app/publish/send-to-network';
import { PublishMessage } from '../../shared/app/publish/publish-message';
import { errorFields, log, withLogContext } from '../../shared/log';
import { sqsMessageHandler } from './sqs-batch';

/** What this function declares it uses (infra/workers.ts), as its Lambda bundle wires it. */
const workerDeps = depsFor('publish-worker', publishWorker);

/**
 * The publish worker: one record = one network of one post. Records are processed in parallel; a record that
 * throws is reported in batchItemFailures (SQS retries it, then the DLQ); a malformed record is logged and dropped.
 */
export const handler = sqsMessageHandler('publish', PublishMessage, async (parsed, record) => {
  await withLogContext({ post_id: parsed.post_id, platform: parsed.platform }, async () => {
    try {
      await sendToNetwork(workerDeps(), parsed);
    } catch (err) {
      log.error('publish failed; will retry', { message_id: record.messageId, post_id: parsed.post_id, platform: parsed.platform, ...errorFields(err) });
      throw err;
    }
  });
});

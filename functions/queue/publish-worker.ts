import { wiredHandler } from '../../shared/container';
import type { DepsOf } from '../../shared/wiring/declaration';
import { publishWorker } from '../workers';
import { sendToNetwork } from '../../shared/app/publish/send-to-network';
import { PublishMessage } from '../../shared/app/publish/publish-message';
import { errorFields, log, withLogContext } from '../../shared/log';
import { sqsMessageHandler } from './sqs-batch';
import { applyChange } from '../../shared/app/post-changes/apply-change';
import { PostChangeMessage } from '../../shared/app/post-changes/change-message';
import * as z from 'zod';

/**
 * The publish worker: one record = one network of one post. Records are processed in parallel; a record that
 * throws is reported in batchItemFailures (SQS retries it, then the DLQ); a malformed record is logged and dropped.
 * It sees what it declares (functions/workers.ts), as its Lambda bundle wires it.
 */
export const handler = wiredHandler((workerDeps: () => DepsOf<typeof publishWorker>) => sqsMessageHandler('publish', z.union([PostChangeMessage, PublishMessage]), async (parsed, record) => {
  // deletes and edits of published posts ride the same queue (decisions.md "Delete and edit")
  if ('change' in parsed) return withLogContext({ post_id: parsed.post_id, platform: parsed.platform }, () => applyChange(workerDeps(), parsed));
  await withLogContext({ post_id: parsed.post_id, platform: parsed.platform }, async () => {
    try {
      await sendToNetwork(workerDeps(), parsed);
    } catch (err) {
      log.error('publish failed; will retry', { message_id: record.messageId, post_id: parsed.post_id, platform: parsed.platform, ...errorFields(err) });
      throw err;
    }
  });
}));

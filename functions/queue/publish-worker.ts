import { z } from 'zod';
import { getDeps } from '../../shared/container';
import { deliver } from '../../shared/app/publish/deliver';
import { isPlatformName, type PlatformName } from '../../shared/domain/platforms';
import { errorFields, log, withLogContext } from '../../shared/log';
import { sqsMessageHandler } from './sqs-batch';

const Message = z.object({
  post_id: z.string().regex(/^pst_[0-9A-Z]{26}$/),
  platform: z.string().refine(isPlatformName, 'unknown network'),
  deferral: z.number().int().min(0).max(10),
  respond_by: z.number().int().optional(),
  /** A 'processing' network's resume step (async media, shared/app/publish/deliver.ts). */
  resume: z.boolean().optional(),
  step: z.number().int().min(0).optional(),
});

/**
 * The publish worker: one record = one network of one post. Records are processed in parallel; a record that
 * throws is reported in batchItemFailures (SQS retries it, then the DLQ); a malformed record is logged and dropped.
 */
export const handler = sqsMessageHandler('publish', Message, async (parsed, record) => {
  await withLogContext({ post_id: parsed.post_id, platform: parsed.platform }, async () => {
    try {
      await deliver(getDeps(), { ...parsed, platform: parsed.platform as PlatformName });
    } catch (err) {
      log.error('publish failed; will retry', { message_id: record.messageId, post_id: parsed.post_id, platform: parsed.platform, ...errorFields(err) });
      throw err;
    }
  });
});

import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { coldStart } from '../../shared/metrics';
import * as z from 'zod';
import { depsFor } from '../../shared/container';
import { publishWorker } from '../../infra/workers';
import { deliver } from '../../shared/app/publish/deliver';
import { isPlatformName, type PlatformName } from '../../shared/domain/platforms';
import { errorFields, log, withLogContext } from '../../shared/log';
import { correlationOf } from './correlation';

const Message = z.object({
  post_id: z.string().regex(/^pst_[0-9A-Z]{26}$/),
  platform: z.string().refine(isPlatformName, 'unknown network'),
  deferral: z.number().int().min(0).max(10),
  respond_by: z.number().int().optional(),
  /** A 'processing' network's resume step (async media, shared/app/publish/deliver.ts). */
  resume: z.boolean().optional(),
  step: z.number().int().min(0).optional(),
});

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
    let parsed: z.infer<typeof Message>;
    try {
      parsed = Message.parse(JSON.parse(record.body));
    } catch (err) {
      log.error('publish message dropped: malformed', { message_id: record.messageId, ...errorFields(err) });
      return;
    }
    await withLogContext({ post_id: parsed.post_id, platform: parsed.platform }, async () => {
      try {
        await deliver(deps, { ...parsed, platform: parsed.platform as PlatformName });
      } catch (err) {
        log.error('publish failed; will retry', { message_id: record.messageId, post_id: parsed.post_id, platform: parsed.platform, ...errorFields(err) });
        failures.push({ itemIdentifier: record.messageId });
      }
    });
  })));
  return { batchItemFailures: failures };
};

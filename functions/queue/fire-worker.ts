import { wiredHandler } from '../../shared/container';
import type { DepsOf } from '../../shared/wiring/declaration';
import { fireWorker } from '../workers';
import { FireMessage } from '../../shared/app/schedule/due-fan-out';
import { fireScheduled } from '../../shared/app/schedule/fire';
import { errorFields, log, withLogContext } from '../../shared/log';
import { sqsMessageHandler } from './sqs-batch';

/**
 * The fire worker: one record = one scheduled post that came due (queued by the per-minute fan-out), claimed and
 * published through the dispatcher's own path (fireScheduled: the conditional claim makes a second message, a
 * previous-format alarm or the sweep harmless). A record whose fire failed internally is reported in
 * batchItemFailures, so SQS brings it back; a malformed record is logged and dropped. It sees what it declares
 * (functions/workers.ts), as its Lambda bundle wires it.
 */
export const handler = wiredHandler((workerDeps: () => DepsOf<typeof fireWorker>) => sqsMessageHandler('fire', FireMessage, async (msg) => {
  await withLogContext({ schedule_id: msg.schedule_id }, async () => {
    try {
      await fireScheduled(workerDeps(), msg.schedule_id);
    } catch (err) {
      log.error('scheduled post fire failed; will retry', { schedule_id: msg.schedule_id, ...errorFields(err) });
      throw err;
    }
  });
}));

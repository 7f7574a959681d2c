import middy from '@middy/core';
import sqsPartialBatchFailure from '@middy/sqs-partial-batch-failure';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { coldStart } from '../../shared/metrics';
import { errorFields, log, withLogContext } from '../../shared/log';
import { correlationOf } from './correlation';
import { isNewerFormat, NewerFormatError } from '../../shared/ports/format-version';

/**
 * The one SQS consumer shape of the queue workers: the records of a batch run in parallel, each in its own log
 * context (the sender's correlation id and the message id); a record whose handler throws is reported in
 * `batchItemFailures` (middy's sqs-partial-batch-failure; the event source mapping has ReportBatchItemFailures), so
 * SQS brings back only that record. Record handlers log their own failures and return normally for a record that
 * must be dropped.
 */
export function sqsBatchHandler(onRecord: (record: SQSRecord) => Promise<void>) {
  const batch = middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 })
    .use(sqsPartialBatchFailure({ logger: () => undefined }))
    .handler(async (event) => {
      const settled = await Promise.allSettled(event.Records.map((record) =>
        withLogContext({ correlation_id: correlationOf(record), message_id: record.messageId }, () => onRecord(record))));
      // sqs-partial-batch-failure turns the settled results into batchItemFailures
      return settled as unknown as SQSBatchResponse;
    });
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    coldStart(context?.functionName);
    return batch(event, context ?? ({} as Context));
  };
}

/**
 * A worker of one message shape: each record's body is parsed with `schema` (JSON, then the schema); a malformed
 * record is logged as "<what> message dropped: malformed" and dropped (never retried), the others go to `onMessage`.
 * A message of a newer format version than this release reads (shared/ports/format-version.ts) fails its record,
 * so SQS brings it back for the new release; a message without `v` (the previous format) is read as today's.
 */
export function sqsMessageHandler<T>(what: string, schema: { parse(value: unknown): T }, onMessage: (message: T, record: SQSRecord) => Promise<void>) {
  return sqsBatchHandler(async (record) => {
    let message: T;
    try {
      const body: unknown = JSON.parse(record.body);
      // a newer release's message: SQS brings it back (then the DLQ, replayable), never dropped as malformed
      if (isNewerFormat(body)) {
        log.warn(`${what} message left for a newer release`, { message_id: record.messageId, v: body.v });
        throw new NewerFormatError(body.v);
      }
      message = schema.parse(body);
    } catch (err) {
      if (err instanceof NewerFormatError) throw err;
      log.error(`${what} message dropped: malformed`, { message_id: record.messageId, ...errorFields(err) });
      return;
    }
    await onMessage(message, record);
  });
}

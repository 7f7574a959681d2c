import { SQSClient, SendMessageBatchCommand, type BatchResultErrorEntry, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import type { Queue, QueueMessage } from '../../ports/queue';
import { systemClock, type Clock } from '../../ports/clock';
import { CORRELATION_ATTRIBUTE, correlationId } from '../../log';
import { traceClient } from '../../tracing';
import { dropNoOpLogging } from './sdk-logging';
import type { SdkRequestHandler } from '../local/in-process-transport';
import { requestHandlerOptions } from './transport-signer';
import { fitForInProcess } from './in-process-client';

const BATCH_SIZE = 10;
const RETRY_ROUNDS = 3;

export interface SqsQueueOptions {
  /** Backoff before the first retry round; doubles each round. */
  retryDelayMs?: number;
  /** Sleeps the backoff (default: the real clock). */
  clock?: Clock;
}

/**
 * The Queue port on SQS: SendMessageBatch in chunks of 10; entries SQS reports as failed are sent again (up to 3
 * more rounds with a short backoff), and whatever still fails makes sendAll throw, naming the failed ids (an outage
 * error, code ServiceUnavailable, when none of them failed through the message's own fault).
 * Entries failed with SenderFault (the message itself is invalid) are not retried, as resending cannot help.
 */
export class SqsQueue implements Queue {
  private readonly retryDelayMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly client: SQSClient,
    opts: SqsQueueOptions = {},
  ) {
    this.retryDelayMs = opts.retryDelayMs ?? 100;
    this.clock = opts.clock ?? systemClock;
  }

  async sendAll(queueUrl: string, messages: QueueMessage[]): Promise<void> {
    const failures: BatchResultErrorEntry[] = [];
    for (let i = 0; i < messages.length; i += BATCH_SIZE) {
      failures.push(...(await this.sendBatch(queueUrl, messages.slice(i, i + BATCH_SIZE))));
    }
    if (failures.length > 0) {
      const detail = failures.map((f) => `${f.Id} (${f.Code ?? 'error'}${f.Message ? `: ${f.Message}` : ''})`).join(', ');
      const err = new Error(`SQS SendMessageBatch failed for ${failures.length} message(s): ${detail}`);
      // SQS's own failures only (none the messages' fault): an outage the caller answers 503 to, not a bug
      throw failures.some((f) => f.SenderFault) ? err : Object.assign(err, { code: 'ServiceUnavailable' });
    }
  }

  /** Sends one chunk of at most 10; answers the entries that still failed. */
  private async sendBatch(queueUrl: string, batch: QueueMessage[]): Promise<BatchResultErrorEntry[]> {
    let pending: SendMessageBatchRequestEntry[] = batch.map(toEntry);
    const permanent: BatchResultErrorEntry[] = [];
    for (let round = 0; ; round++) {
      const out = await this.client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }));
      const failed = out.Failed ?? [];
      if (failed.length === 0) return permanent;
      const retryable = failed.filter((f) => !f.SenderFault);
      permanent.push(...failed.filter((f) => f.SenderFault));
      if (retryable.length === 0) return permanent;
      if (round >= RETRY_ROUNDS) return [...permanent, ...retryable];
      const retryIds = new Set(retryable.map((f) => f.Id));
      pending = pending.filter((e) => retryIds.has(e.Id));
      await this.clock.sleep(this.retryDelayMs * 2 ** round);
    }
  }
}

function toEntry(message: QueueMessage): SendMessageBatchRequestEntry {
  const correlation = correlationId();
  return {
    Id: message.id,
    MessageBody: JSON.stringify(message.body),
    ...(correlation ? { MessageAttributes: { [CORRELATION_ATTRIBUTE]: { DataType: 'String', StringValue: correlation } } } : {}),
    ...(message.delaySeconds !== undefined ? { DelaySeconds: message.delaySeconds } : {}),
    // a standard queue with MessageGroupId is an SQS fair queue: groups (accounts) are served fairly, unordered
    ...(message.group !== undefined ? { MessageGroupId: message.group } : {}),
  };
}

/**
 * An SQS client; with `endpoint` (the embedded fauxqs locally) it uses dummy credentials and ignores queue-URL hosts,
 * and `requestHandler` (local runtime) hands its requests to fauxqs in-process instead of over HTTP (signed by the
 * handler's own signer when it has one, and then without the SDK's HTTP-only work: in-process-client.ts).
 */
export function sqsClient(opts: { region: string; endpoint?: string; requestHandler?: SdkRequestHandler }): SQSClient {
  const client = traceClient(new SQSClient({
    region: opts.region,
    ...(opts.endpoint
      ? {
        endpoint: opts.endpoint, useQueueUrlAsEndpoint: false, credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        ...requestHandlerOptions(opts.requestHandler),
      }
      : {}),
  }));
  dropNoOpLogging(client);
  return fitForInProcess(client, opts.endpoint ? opts.requestHandler : undefined);
}

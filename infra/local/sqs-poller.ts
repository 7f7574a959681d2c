import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaContext, type AnyHandler } from './invoke';
import { asFunction } from './function-scope';

export interface PollerOptions {
  name: string;
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  timeoutMs: number;
  load: () => Promise<AnyHandler>;
  onError?: (err: unknown) => void;
  /** Concurrent receive loops, like concurrent Lambda invocations of one event-source mapping (default 4). */
  concurrency?: number;
}

function toRecord(m: Message, arn: string): SQSRecord {
  const a = m.Attributes ?? {};
  return {
    messageId: m.MessageId!, receiptHandle: m.ReceiptHandle!, body: m.Body ?? '',
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1', SentTimestamp: a.SentTimestamp ?? String(Date.now()),
      SenderId: a.SenderId ?? 'local', ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, {
      dataType: v.DataType ?? 'String', ...(v.StringValue !== undefined ? { stringValue: v.StringValue } : {}),
    }])),
    md5OfBody: m.MD5OfBody ?? '', eventSource: 'aws:sqs', eventSourceARN: arn, awsRegion: 'us-east-1',
  };
}

/**
 * How long one receive waits for a message: SQS's longest long poll, as Lambda's event-source mapping uses. The
 * stand-in answers a waiting receive as soon as a message is sent (or a delayed one comes due), so this only sets how
 * often an idle queue is asked again: three queues asking every second were three SDK calls a second on the
 * runtime's one event loop for nothing. Stopping aborts the waiting receive at once.
 */
const RECEIVE_WAIT_SECONDS = 20;

/**
 * The local event-source mapping: long-polls a queue, invokes the worker handler with a real SQS event, deletes
 * the records that succeeded and leaves `batchItemFailures` (or the whole batch when the handler throws) to come
 * back after the visibility timeout and, past maxReceiveCount, to be redriven to the DLQ by the queue. Up to
 * `concurrency` batches are handled at once, as Lambda runs several batches of one queue concurrently. One receive
 * is waiting at a time: several long polls on one queue would all be woken by each send (the stand-in wakes every
 * waiter) and all but one answer empty, each an HTTP round trip for nothing.
 */
export function startPoller(sqs: SQSClient, opts: PollerOptions) {
  let running = true;
  const abort = new AbortController();
  const concurrency = opts.concurrency ?? 4;
  let batchWaiters: Array<() => void> = [];
  const batchDone = () => { const w = batchWaiters; batchWaiters = []; for (const wake of w) wake(); };
  const handling = new Set<Promise<void>>();
  let slotFreed: (() => void) | undefined;
  /** One receive (a long poll); an error is reported and the next receive waits a moment. */
  const receive = async (): Promise<Message[]> => {
    try {
      const res = await sqs.send(new ReceiveMessageCommand({
        QueueUrl: opts.queueUrl, MaxNumberOfMessages: opts.batchSize, WaitTimeSeconds: RECEIVE_WAIT_SECONDS,
        MessageSystemAttributeNames: ['All'], MessageAttributeNames: ['All'],
      }), { abortSignal: abort.signal });
      return res.Messages ?? [];
    } catch (err) {
      if (running) {
        opts.onError?.(err);
        await new Promise((r) => setTimeout(r, 500));
      }
      return [];
    }
  };
  /** The batch's handling and the deletion of the records that succeeded. */
  const handle = async (messages: Message[]) => {
    const event: SQSEvent = { Records: messages.map((m) => toRecord(m, opts.queueArn)) };
    let failed = new Set<string>();
    try {
      const handler = await opts.load();
      const out = (await asFunction(opts.name, () => handler(event, lambdaContext(opts.name, opts.timeoutMs)))) as SQSBatchResponse | undefined;
      failed = new Set((out?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (err) {
      opts.onError?.(err);
      return; // the whole batch becomes visible again after the visibility timeout
    }
    const done = messages.filter((m) => !failed.has(m.MessageId!));
    if (done.length) {
      await sqs.send(new DeleteMessageBatchCommand({
        QueueUrl: opts.queueUrl,
        Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
      })).catch((err) => opts.onError?.(err));
    }
  };
  const receiveLoop = async () => {
    while (running) {
      if (handling.size >= concurrency) {
        await new Promise<void>((r) => { slotFreed = r; });
        continue;
      }
      const messages = await receive();
      if (messages.length === 0) {
        batchDone();
        continue;
      }
      const batch: Promise<void> = handle(messages).finally(() => {
        handling.delete(batch);
        batchDone();
        const free = slotFreed;
        slotFreed = undefined;
        free?.();
      });
      handling.add(batch);
    }
  };
  const loop = receiveLoop();
  return {
    stop: async () => {
      running = false;
      abort.abort();
      slotFreed?.();
      await loop;
      await Promise.all([...handling]);
    },
    /** Resolves when the poller next finishes a receive that brought nothing, or the handling of a batch. */
    nextReceive: () => new Promise<void>((resolve) => batchWaiters.push(resolve)),
  };
}

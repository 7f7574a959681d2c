import { GetQueueAttributesCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startSqs, type SqsService } from '../../infra/local/services';
import { startPoller } from '../../infra/local/sqs-poller';
import type { AnyHandler } from '../../infra/local/invoke';
import { sqsBatchHandler } from '../../functions/queue/sqs-batch';

/** The local event-source mapping against the embedded SQS: only the records reported in batchItemFailures come back. */
describe('local SQS poller', () => {
  let sqs: SqsService;
  let client: SQSClient;
  beforeAll(async () => {
    sqs = await startSqs();
    client = new SQSClient({ region: 'us-east-1', endpoint: sqs.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  });
  afterAll(async () => { client.destroy(); await sqs.stop(); });

  it('deletes the records that succeeded and redelivers only the failed one', async () => {
    const { url } = await sqs.createQueue('partial', { visibilityTimeoutSeconds: 1, maxReceiveCount: 5 });
    const deliveries: string[] = [];
    let secondTry!: () => void;
    const retried = new Promise<void>((resolve) => { secondTry = resolve; });
    const handler = sqsBatchHandler(async (record) => {
      deliveries.push(record.body);
      if (record.body === 'flaky' && deliveries.filter((b) => b === 'flaky').length === 1) throw new Error('first try fails');
      if (record.body === 'flaky') secondTry();
    });
    const poller = startPoller(client, {
      name: 'partial', queueUrl: url, queueArn: 'arn:aws:sqs:us-east-1:000000000000:partial', batchSize: 10, timeoutMs: 5_000,
      load: async () => handler as AnyHandler, concurrency: 1,
    });
    try {
      await client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: ['a', 'flaky', 'b'].map((body, i) => ({ Id: String(i), MessageBody: body })) }));
      await retried;
    } finally {
      await poller.stop();
    }
    const left = (await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }))).Attributes!;
    expect(left).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
    expect(deliveries.filter((b) => b === 'flaky')).toHaveLength(2);
    expect(deliveries.filter((b) => b !== 'flaky').sort()).toEqual(['a', 'b']);
  });

  it('handles up to `concurrency` batches at once, and every message once', async () => {
    const { url } = await sqs.createQueue('parallel', { visibilityTimeoutSeconds: 30, maxReceiveCount: 5 });
    const handled: string[] = [];
    let inFlight = 0;
    let most = 0;
    let full!: () => void;
    const reachedThree = new Promise<void>((resolve) => { full = resolve; });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    let allDone!: () => void;
    const done = new Promise<void>((resolve) => { allDone = resolve; });
    const handler = sqsBatchHandler(async (record) => {
      inFlight++;
      most = Math.max(most, inFlight);
      if (inFlight === 3) full();
      await gate;
      inFlight--;
      handled.push(record.body);
      if (handled.length === 6) allDone();
    });
    const poller = startPoller(client, {
      name: 'parallel', queueUrl: url, queueArn: 'arn:aws:sqs:us-east-1:000000000000:parallel', batchSize: 1, timeoutMs: 5_000,
      load: async () => handler as AnyHandler, concurrency: 3,
    });
    try {
      await client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: ['1', '2', '3', '4', '5', '6'].map((body, i) => ({ Id: String(i), MessageBody: body })) }));
      await reachedThree;
      // a round trip to the queue: a poller past its limit would have received a fourth batch by now
      await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages'] }));
      expect(inFlight).toBe(3);
      open();
      await done;
    } finally {
      await poller.stop();
    }
    expect(most).toBe(3);
    expect(handled.sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    const left = (await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }))).Attributes!;
    expect(left).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  });

  it('an idle queue is asked with SQS\'s longest long poll, and stopping ends the waiting receive at once', async () => {
    const { url } = await sqs.createQueue('idle', { visibilityTimeoutSeconds: 30, maxReceiveCount: 5 });
    const asked: Array<{ WaitTimeSeconds?: number }> = [];
    let first!: () => void;
    const receiving = new Promise<void>((resolve) => { first = resolve; });
    const spied = Object.assign(Object.create(client) as SQSClient, {
      send: (command: { input: { WaitTimeSeconds?: number } }, opts?: unknown) => {
        asked.push(command.input);
        first();
        return (client.send as (c: unknown, o?: unknown) => Promise<unknown>)(command, opts);
      },
    });
    const poller = startPoller(spied, {
      name: 'idle', queueUrl: url, queueArn: 'arn:aws:sqs:us-east-1:000000000000:idle', batchSize: 10, timeoutMs: 5_000,
      load: async () => (async () => undefined) as AnyHandler,
    });
    await receiving;
    await poller.stop();
    expect(asked).toEqual([expect.objectContaining({ QueueUrl: url, WaitTimeSeconds: 20 })]);
  });
});

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { SqsQueue, sqsClient } from '../../shared/adapters/aws/sqs-queue';
import type { QueueMessage } from '../../shared/ports/queue';

const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/publish';
const sqs = mockClient(SQSClient);

function messages(n: number): QueueMessage[] {
  return Array.from({ length: n }, (_, i) => ({ id: `m${i}`, body: { n: i } }));
}

function queue(): SqsQueue {
  return new SqsQueue(new SQSClient({ region: 'us-east-1' }), { retryDelayMs: 1 });
}

beforeEach(() => sqs.reset());

describe('SqsQueue', () => {
  it('sends 23 messages as batches of 10, 10 and 3 with JSON bodies', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await queue().sendAll(QUEUE_URL, messages(23));

    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls).toHaveLength(3);
    expect(calls.map((c) => c.args[0].input.Entries?.length)).toEqual([10, 10, 3]);
    expect(calls[2]!.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      Entries: [
        { Id: 'm20', MessageBody: '{"n":20}' },
        { Id: 'm21', MessageBody: '{"n":21}' },
        { Id: 'm22', MessageBody: '{"n":22}' },
      ],
    });
  });

  it('passes DelaySeconds when a message sets it', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await queue().sendAll(QUEUE_URL, [
      { id: 'a', body: 'x', delaySeconds: 30 },
      { id: 'b', body: { k: [1, 2] } },
      { id: 'c', body: null, delaySeconds: 0 },
    ]);
    expect(sqs.commandCalls(SendMessageBatchCommand)[0]!.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      Entries: [
        { Id: 'a', MessageBody: '"x"', DelaySeconds: 30 },
        { Id: 'b', MessageBody: '{"k":[1,2]}' },
        { Id: 'c', MessageBody: 'null', DelaySeconds: 0 },
      ],
    });
  });

  it('sends nothing for an empty list', async () => {
    await queue().sendAll(QUEUE_URL, []);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
  });

  it('retries only the entries reported Failed, then succeeds', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({
        Successful: [],
        Failed: [{ Id: 'm1', Code: 'InternalError', SenderFault: false }, { Id: 'm3', Code: 'ServiceUnavailable', SenderFault: false }],
      })
      .resolvesOnce({ Successful: [], Failed: [] });
    await queue().sendAll(QUEUE_URL, messages(4));

    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      Entries: [
        { Id: 'm1', MessageBody: '{"n":1}' },
        { Id: 'm3', MessageBody: '{"n":3}' },
      ],
    });
  });

  it('throws naming the ids that still fail after 3 retry rounds', async () => {
    sqs.on(SendMessageBatchCommand).callsFake((input: { Entries: Array<{ Id: string }> }) => ({
      Successful: [],
      Failed: input.Entries.filter((e) => e.Id === 'm2').map((e) => ({ Id: e.Id, Code: 'InternalError', SenderFault: false })),
    }));
    await expect(queue().sendAll(QUEUE_URL, messages(5))).rejects.toThrow(/m2 \(InternalError\)/);
    // the first send plus 3 retry rounds
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(4);
    expect(sqs.commandCalls(SendMessageBatchCommand)[3]!.args[0].input.Entries).toEqual([{ Id: 'm2', MessageBody: '{"n":2}' }]);
  });

  it('does not retry a sender fault but still sends the other batches, then throws', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Successful: [], Failed: [{ Id: 'm0', Code: 'InvalidMessageContents', SenderFault: true }] })
      .resolves({ Successful: [], Failed: [] });
    await expect(queue().sendAll(QUEUE_URL, messages(12))).rejects.toThrow(/m0 \(InvalidMessageContents\)/);
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input.Entries?.map((e) => e.Id)).toEqual(['m10', 'm11']);
  });

  it('propagates an error of the whole call', async () => {
    sqs.on(SendMessageBatchCommand).rejects(new Error('network down'));
    await expect(queue().sendAll(QUEUE_URL, messages(1))).rejects.toThrow('network down');
  });
});

describe('sqsClient', () => {
  it('targets a local endpoint with dummy credentials and without queue-URL endpoints', async () => {
    const client = sqsClient({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:4566' });
    expect(client.config.useQueueUrlAsEndpoint).toBe(false);
    expect(await client.config.region()).toBe('eu-west-1');
    const creds = await client.config.credentials();
    expect(creds.accessKeyId).toBe('local');
    const endpoint = await client.config.endpoint?.();
    expect(endpoint?.hostname).toBe('127.0.0.1');
    expect(endpoint?.port).toBe(4566);
  });

  it('uses the default endpoint in AWS', async () => {
    const client = sqsClient({ region: 'us-east-1' });
    expect(client.config.endpoint).toBeUndefined();
  });
});

import { ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { FairRotation } from '../../infra/local/fair-queue';
import { startSqs } from '../../infra/local/services';
import { SqsQueue } from '../../shared/adapters/aws/sqs-queue';

describe('the local queue serves message groups in turn (SQS fair queues)', () => {
  it('round-robin between groups, the least recently served first, each group in arrival order', () => {
    const r = new FairRotation();
    // A's burst arrived first, then one message each of B and C
    const groups = ['A', 'A', 'A', 'A', 'A', 'B', 'A', 'C'];
    expect(r.pick(groups, 4)).toEqual([0, 5, 7, 1]);
    // next receive: A was served last, so what B or C send next goes first
    expect(r.pick(['A', 'A', 'A', 'B2', 'A'], 3)).toEqual([3, 0, 1]);
    expect(r.pick(['A', 'A'], 10)).toEqual([0, 1]);
  });

  it('the embedded SQS hands out another account\'s single message before the rest of a 50-message burst', async () => {
    const sqs = await startSqs();
    const client = new SQSClient({ region: 'us-east-1', endpoint: sqs.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      const { url } = await sqs.createQueue('fair-test', { visibilityTimeoutSeconds: 60, maxReceiveCount: 5 });
      const queue = new SqsQueue(client);
      await queue.sendAll(url, Array.from({ length: 50 }, (_, i) => ({ id: `a${i}`, group: 'acc_A', body: { n: i, account: 'A' } })));
      await queue.sendAll(url, [{ id: 'b', group: 'acc_B', body: { n: 0, account: 'B' } }]);
      const first = await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }));
      const bodies = (first.Messages ?? []).map((m) => JSON.parse(m.Body!) as { n: number; account: string });
      expect(bodies).toHaveLength(10);
      expect(bodies.filter((b) => b.account === 'B')).toEqual([{ n: 0, account: 'B' }]);
      // A's own messages stay in their order
      expect(bodies.filter((b) => b.account === 'A').map((b) => b.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      // messages without a group are each a tenant of their own
      await client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: 'x', MessageBody: '{"account":"none"}' }] }));
      const next = await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 2 }));
      expect((next.Messages ?? []).map((m) => (JSON.parse(m.Body!) as { account: string }).account)).toEqual(['none', 'A']);
    } finally {
      client.destroy();
      await sqs.stop();
    }
  });
});

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { SqsQueue, sqsClient } from '../../shared/adapters/aws/sqs-queue';

/**
 * fauxqs is ESM-only (its package exports have only an "import" condition), which jest's CommonJS runtime cannot
 * load, so it runs in a child Node process: `startFauxqs({port: 0, logger: false})`, `server.createQueue(name)`,
 * one JSON line with the address and queue URL on stdout, and `server.stop()` when stdin closes.
 */
const CHILD = `
import { startFauxqs } from 'fauxqs';
const server = await startFauxqs({ port: 0, logger: false });
const queue = server.createQueue(process.argv[1]);
process.stdout.write(JSON.stringify({ address: server.address, queueUrl: queue.queueUrl }) + '\\n');
process.stdin.resume();
process.stdin.on('end', async () => { await server.stop(); process.exit(0); });
`;

interface Started {
  child: ChildProcessWithoutNullStreams;
  address: string;
  queueUrl: string;
}

async function startFauxqsProcess(queueName: string): Promise<Started> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, queueName], { cwd: process.cwd() });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => line as string),
    once(child, 'exit').then(([code]) => {
      throw new Error(`fauxqs exited (${String(code)}): ${stderr}`);
    }),
  ]);
  const { address, queueUrl } = JSON.parse(first) as { address: string; queueUrl: string };
  return { child, address, queueUrl };
}

describe('SqsQueue on fauxqs', () => {
  let started: Started;
  let client: SQSClient;

  beforeAll(async () => {
    started = await startFauxqsProcess('publish-test');
    client = sqsClient({ region: 'us-east-1', endpoint: started.address });
  });

  afterAll(async () => {
    client?.destroy();
    if (started) {
      const exited = once(started.child, 'exit');
      started.child.stdin.end();
      await exited;
    }
  });

  it('sends 12 messages in two batches and receives them all back', async () => {
    const sent = Array.from({ length: 12 }, (_, i) => ({ id: `msg-${i}`, body: { post_id: `p_${i}`, attempt: 1 } }));
    await new SqsQueue(client).sendAll(started.queueUrl, sent);

    const received: Message[] = [];
    for (let tries = 0; received.length < 12 && tries < 20; tries++) {
      const out = await client.send(
        new ReceiveMessageCommand({ QueueUrl: started.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      const messages = out.Messages ?? [];
      received.push(...messages);
      if (messages.length > 0) {
        await client.send(
          new DeleteMessageBatchCommand({
            QueueUrl: started.queueUrl,
            Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
          }),
        );
      }
    }

    const bodies = received.map((m) => JSON.parse(m.Body!) as { post_id: string; attempt: number });
    expect(bodies.map((b) => b.post_id).sort()).toEqual(sent.map((m) => m.body.post_id).sort());
    expect(bodies.every((b) => b.attempt === 1)).toBe(true);
  });

  it('holds back a delayed message until its delay has passed', async () => {
    await new SqsQueue(client).sendAll(started.queueUrl, [{ id: 'late', body: { late: true }, delaySeconds: 1 }]);
    const early = await client.send(new ReceiveMessageCommand({ QueueUrl: started.queueUrl, WaitTimeSeconds: 0 }));
    expect(early.Messages ?? []).toHaveLength(0);
    const later = await client.send(new ReceiveMessageCommand({ QueueUrl: started.queueUrl, WaitTimeSeconds: 3 }));
    expect(later.Messages?.map((m) => m.Body)).toEqual(['{"late":true}']);
  });
});

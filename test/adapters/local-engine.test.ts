import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, startDynamoThread } from '../../infra/local/services';
import { documentClient } from '../../shared/adapters/dynamodb/client';
import { sqsClient } from '../../shared/adapters/aws/sqs-queue';

const logging = (stack: { identify(): string[] }) => stack.identify().some((name) => name.startsWith('loggerMiddleware'));

describe('the local runtime\'s DynamoDB engine and SDK clients', () => {
  it('the engine runs in its own thread, answers on loopback TCP and on its Unix socket, and keeps its data on disk', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-engine-'));
    try {
      const first = await startDynamoThread(dir);
      await ensureTable(first.endpoint, 'engine-test');
      const overSocket = documentClient({ region: 'us-east-1', endpoint: first.endpoint, socketPath: first.socketPath });
      const overTcp = documentClient({ region: 'us-east-1', endpoint: first.endpoint });
      try {
        await overSocket.send(new PutCommand({ TableName: 'engine-test', Item: { pk: 'A', sk: 'B', via: 'socket' } }));
        expect((await overTcp.send(new GetCommand({ TableName: 'engine-test', Key: { pk: 'A', sk: 'B' } }))).Item).toEqual({ pk: 'A', sk: 'B', via: 'socket', v: 1 });
        expect(fs.existsSync(first.socketPath)).toBe(true);
      } finally {
        overSocket.destroy();
        overTcp.destroy();
        await first.stop();
      }
      expect(fs.existsSync(first.socketPath)).toBe(false);

      // a restart on the same directory finds the item (the database was closed cleanly by stop)
      const second = await startDynamoThread(dir);
      const again = documentClient({ region: 'us-east-1', endpoint: second.endpoint, socketPath: second.socketPath });
      try {
        expect((await again.send(new GetCommand({ TableName: 'engine-test', Key: { pk: 'A', sk: 'B' } }))).Item?.via).toBe('socket');
      } finally {
        again.destroy();
        await second.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the DynamoDB and SQS clients carry no logger middleware (the SDK\'s default one only discards)', () => {
    expect(logging(new DynamoDBClient({ region: 'us-east-1' }).middlewareStack)).toBe(true);
    expect(logging(new SQSClient({ region: 'us-east-1' }).middlewareStack)).toBe(true);
    const doc = documentClient({ region: 'us-east-1' });
    const sqs = sqsClient({ region: 'us-east-1' });
    expect(logging(doc.middlewareStack)).toBe(false);
    expect(logging(sqs.middlewareStack)).toBe(false);
    doc.destroy();
    sqs.destroy();
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBClient, GetItemCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import type { HttpHandlerOptions, HttpRequest as SmithyHttpRequest } from '@smithy/types';
import type { SdkRequestHandler } from '../../shared/adapters/local/in-process-transport';
import diagnostics from 'node:diagnostics_channel';
import { QueueDoesNotExist, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { HttpRequest } from '@smithy/core/protocols';
import { ensureTable, startDynamoThread, startSqs } from '../../infra/local/services';
import { LOCAL_AWS_REQUEST } from '../../infra/local/in-process-requests';
import { documentClient, isConditionFailure } from '../../shared/adapters/dynamodb/client';
import { sqsClient } from '../../shared/adapters/aws/sqs-queue';

const logging = (stack: { identify(): string[] }) => stack.identify().some((name) => name.startsWith('loggerMiddleware'));

/** The HTTP requests Node's client started and the requests the in-process transports announced while `fn` ran. */
async function traffic(fn: () => Promise<unknown>): Promise<{ http: number; inProcess: string[] }> {
  let http = 0;
  const inProcess: string[] = [];
  const onHttp = () => { http++; };
  const onLocal = (m: unknown) => { const { engine, target } = m as { engine: string; target: string }; inProcess.push(`${engine} ${target}`); };
  diagnostics.subscribe('http.client.request.start', onHttp);
  diagnostics.subscribe(LOCAL_AWS_REQUEST, onLocal);
  try { await fn(); } finally {
    diagnostics.unsubscribe('http.client.request.start', onHttp);
    diagnostics.unsubscribe(LOCAL_AWS_REQUEST, onLocal);
  }
  return { http, inProcess };
}

describe('the local runtime\'s DynamoDB engine and SDK clients', () => {
  it('the engine runs in its own thread, answers on loopback TCP and in-process (no HTTP), and keeps its data on disk', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-engine-'));
    try {
      const first = await startDynamoThread(dir);
      await ensureTable(first.endpoint, 'engine-test');
      const inProcess = documentClient({ region: 'us-east-1', endpoint: first.endpoint, requestHandler: first.requestHandler });
      const overTcp = documentClient({ region: 'us-east-1', endpoint: first.endpoint });
      try {
        const seen = await traffic(() => inProcess.send(new PutCommand({ TableName: 'engine-test', Item: { pk: 'A', sk: 'B', via: 'in-process' } })));
        expect(seen).toEqual({ http: 0, inProcess: ['dynamodb DynamoDB_20120810.PutItem'] });
        expect((await overTcp.send(new GetCommand({ TableName: 'engine-test', Key: { pk: 'A', sk: 'B' } }))).Item).toEqual({ pk: 'A', sk: 'B', via: 'in-process', v: 1 });
        // the engine's errors reach the caller as the SDK's typed errors, as over HTTP
        const refused = await inProcess.send(new PutCommand({ TableName: 'engine-test', Item: { pk: 'A', sk: 'B' }, ConditionExpression: 'attribute_not_exists(pk)' })).catch((e: unknown) => e);
        expect(isConditionFailure(refused)).toBe(true);
        const missing = await inProcess.send(new GetCommand({ TableName: 'no-such-table', Key: { pk: 'A', sk: 'B' } })).catch((e: unknown) => e);
        expect(missing).toBeInstanceOf(ResourceNotFoundException);
      } finally {
        inProcess.destroy();
        overTcp.destroy();
        await first.stop();
      }
      // a request after stop fails at once, naming the engine (it never waits for an answer that cannot come)
      await expect(first.requestHandler.handle(new HttpRequest({ method: 'POST', hostname: 'localhost', path: '/', headers: {}, body: '{}' })))
        .rejects.toThrow(/DynamoDB engine thread/);

      // a restart on the same directory finds the item (the database was closed cleanly by stop)
      const second = await startDynamoThread(dir);
      const again = documentClient({ region: 'us-east-1', endpoint: second.endpoint, requestHandler: second.requestHandler });
      try {
        expect((await again.send(new GetCommand({ TableName: 'engine-test', Key: { pk: 'A', sk: 'B' } }))).Item?.via).toBe('in-process');
      } finally {
        again.destroy();
        await second.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('SQS requests reach fauxqs in-process (no HTTP), and an aborted long poll stops waiting at once', async () => {
    const sqs = await startSqs();
    const client = sqsClient({ region: 'us-east-1', endpoint: sqs.endpoint, requestHandler: sqs.requestHandler });
    try {
      const { url } = await sqs.createQueue('in-process', { visibilityTimeoutSeconds: 30, maxReceiveCount: 3 });
      const seen = await traffic(async () => {
        await client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'hello', MessageGroupId: 'account-1' }));
        const got = await client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
        expect(got.Messages?.map((m) => m.Body)).toEqual(['hello']);
      });
      expect(seen).toEqual({ http: 0, inProcess: ['sqs AmazonSQS.SendMessage', 'sqs AmazonSQS.ReceiveMessage'] });
      // fauxqs's errors reach the caller as the SDK's typed errors, as over HTTP
      const missing = await client.send(new SendMessageCommand({ QueueUrl: `${url}-missing`, MessageBody: 'x' })).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(QueueDoesNotExist);

      const abort = new AbortController();
      const waiting = client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 1 }), { abortSignal: abort.signal });
      abort.abort();
      await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      client.destroy();
      await sqs.stop();
    }
  });

  it('clients over the in-process transports skip SigV4 (the engines check only that a request is signed) and are answered; over TCP they sign', async () => {
    const dynamo = await startDynamoThread(undefined);
    const sqs = await startSqs();
    /** The transport `handler`, keeping the Authorization header of each request it carries. */
    const recording = <H extends SdkRequestHandler>(handler: H, seen: string[]): H => Object.create(handler, {
      handle: { value: (req: SmithyHttpRequest, o?: HttpHandlerOptions) => { seen.push(req.headers.authorization ?? ''); return handler.handle(req, o); } },
    }) as H;
    const dynamoAuth: string[] = [];
    const sqsAuth: string[] = [];
    const doc = documentClient({ region: 'us-east-1', endpoint: dynamo.endpoint, requestHandler: recording(dynamo.requestHandler, dynamoAuth) });
    const queue = sqsClient({ region: 'us-east-1', endpoint: sqs.endpoint, requestHandler: recording(sqs.requestHandler, sqsAuth) });
    try {
      await ensureTable(dynamo.endpoint, 'signing-test');
      await doc.send(new PutCommand({ TableName: 'signing-test', Item: { pk: 'A', sk: 'B' } }));
      expect((await doc.send(new GetCommand({ TableName: 'signing-test', Key: { pk: 'A', sk: 'B' } }))).Item).toMatchObject({ pk: 'A', sk: 'B' });
      const { url } = await sqs.createQueue('signing', { visibilityTimeoutSeconds: 30, maxReceiveCount: 3 });
      await queue.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'hello' }));
      expect((await queue.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages?.map((m) => m.Body)).toEqual(['hello']);
      // the client's own key and the SigV4 scope, no computed signature
      const scopeOnly = (service: string) => new RegExp(`^AWS4-HMAC-SHA256 Credential=local/\\d{8}/us-east-1/${service}/aws4_request, SignedHeaders=host;x-amz-date, Signature=in-process$`);
      expect(dynamoAuth).toHaveLength(2);
      for (const auth of dynamoAuth) expect(auth).toMatch(scopeOnly('dynamodb'));
      expect(sqsAuth).toHaveLength(2);
      for (const auth of sqsAuth) expect(auth).toMatch(scopeOnly('sqs'));
      // a client without the transport signs with SigV4 as in AWS (a 64-hex-digit signature)
      const signed: string[] = [];
      const overTcp = new DynamoDBClient({ region: 'us-east-1', endpoint: dynamo.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
      overTcp.middlewareStack.add((next) => async (args) => { signed.push(String((args.request as SmithyHttpRequest).headers.authorization)); return next(args); }, { step: 'finalizeRequest', priority: 'low', name: 'recordAuthorization' });
      await overTcp.send(new GetItemCommand({ TableName: 'signing-test', Key: { pk: { S: 'A' }, sk: { S: 'B' } } }));
      overTcp.destroy();
      expect(signed).toEqual([expect.stringMatching(/Signature=[0-9a-f]{64}$/)]);
    } finally {
      doc.destroy();
      queue.destroy();
      await sqs.stop();
      await dynamo.stop();
    }
  });

  it('a condition seen before is judged on the item and values of each request, and unused names are still refused', async () => {
    const dynamo = await startDynamoThread(undefined);
    const doc = documentClient({ region: 'us-east-1', endpoint: dynamo.endpoint, requestHandler: dynamo.requestHandler });
    const Table = 'kept-conditions';
    const Key = { pk: 'A', sk: 'B' };
    const setIf = (n: number, when: number, extra: Record<string, string> = {}) => doc.send(new UpdateCommand({
      TableName: Table, Key, UpdateExpression: 'SET #n = :n', ConditionExpression: '#n = :when',
      ExpressionAttributeNames: { '#n': 'n', ...extra }, ExpressionAttributeValues: { ':n': n, ':when': when },
    })).then(() => 'updated', (e: unknown) => (isConditionFailure(e) ? 'refused' : (e as Error).message));
    try {
      await ensureTable(dynamo.endpoint, Table);
      await doc.send(new PutCommand({ TableName: Table, Item: { ...Key, n: 1 } }));
      expect(await setIf(2, 1)).toBe('updated');
      // the same expression, names and values again: judged on the item as it is now (n = 2)
      expect(await setIf(2, 1)).toBe('refused');
      expect(await setIf(3, 2)).toBe('updated');
      const byKey = await doc.send(new QueryCommand({ TableName: Table, KeyConditionExpression: 'pk = :pk AND sk = :sk', ExpressionAttributeValues: { ':pk': 'A', ':sk': 'B' } }));
      expect(byKey.Items).toEqual([expect.objectContaining({ n: 3 })]);
      const other = await doc.send(new QueryCommand({ TableName: Table, KeyConditionExpression: 'pk = :pk AND sk = :sk', ExpressionAttributeValues: { ':pk': 'A', ':sk': 'C' } }));
      expect(other.Items).toEqual([]);
      // a name the request declares and no expression uses is refused, on a condition seen before as well
      expect(await setIf(4, 3, { '#unused': 'x' })).toMatch(/unused in expressions.*#unused/);
      expect(await setIf(4, 3, { '#unused': 'x' })).toMatch(/unused in expressions.*#unused/);
      expect(await setIf(4, 3)).toBe('updated');
      // the same condition beside update values that change on every call (kept once): judged on each request's own
      // values of the condition; a value no expression uses is still refused
      const stampIf = (when: number, stamp: number, extra: Record<string, number> = {}) => doc.send(new UpdateCommand({
        TableName: Table, Key, UpdateExpression: 'SET #n = #n + :one, #s = :stamp', ConditionExpression: '#n = :when',
        ExpressionAttributeNames: { '#n': 'n', '#s': 'stamp' }, ExpressionAttributeValues: { ':one': 1, ':stamp': stamp, ':when': when, ...extra },
      })).then(() => 'updated', (e: unknown) => (isConditionFailure(e) ? 'refused' : (e as Error).message));
      expect(await stampIf(4, 1001)).toBe('updated');
      expect(await stampIf(5, 1002)).toBe('updated');
      expect(await stampIf(5, 1003)).toBe('refused');
      expect(await stampIf(4, 1004)).toBe('refused');
      expect(await stampIf(6, 1005, { ':spare': 1 })).toMatch(/unused in expressions.*:spare/);
      expect(await stampIf(6, 1006)).toBe('updated');
      expect((await doc.send(new GetCommand({ TableName: Table, Key }))).Item).toMatchObject({ n: 7, stamp: 1006 });
    } finally {
      doc.destroy();
      await dynamo.stop();
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

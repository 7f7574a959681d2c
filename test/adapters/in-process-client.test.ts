import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { HttpRequest, HttpResponse, HttpSigner } from '@smithy/types';
import { documentClient } from '../../shared/adapters/dynamodb/client';
import { sqsClient } from '../../shared/adapters/aws/sqs-queue';
import { HTTP_ONLY_MIDDLEWARE } from '../../shared/adapters/aws/in-process-client';
import type { SdkRequestHandler } from '../../shared/adapters/local/in-process-transport';

type Answer = { status: number; body: object };

/** An in-process transport (it brings a signer) answering `answers` in turn, keeping each request and the key it was signed with. */
function transport(answers: Answer[]) {
  const requests: HttpRequest[] = [];
  const keys: string[] = [];
  const signer: HttpSigner = {
    async sign(request, identity) {
      keys.push(String((identity as { accessKeyId?: string }).accessKeyId));
      request.headers.authorization = 'AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=in-process';
      return request;
    },
  };
  const handler: SdkRequestHandler = {
    signer,
    async handle(request: HttpRequest): Promise<{ response: HttpResponse }> {
      requests.push(request);
      const { status, body } = answers.shift() ?? { status: 200, body: {} };
      return { response: { statusCode: status, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Buffer.from(JSON.stringify(body)) } };
    },
    updateHttpClientConfig() { /* nothing */ },
    httpHandlerConfigs: () => ({}),
    destroy() { /* nothing */ },
  };
  return { handler, requests, keys };
}

const names = (client: { middlewareStack: { identify(): string[] } }) => client.middlewareStack.identify().map((n) => n.split(' ')[0]);

describe('SDK clients over an in-process transport', () => {
  it('go without the HTTP-only middlewares (no user-agent, Content-Length or trace header); AWS and HTTP-endpoint clients keep them', async () => {
    const { handler, requests } = transport([{ status: 200, body: { Item: { pk: { S: 'A' }, sk: { S: 'B' }, n: { N: '2' } } } }, { status: 200, body: { MessageId: 'm1', MD5OfMessageBody: '5d41402abc4b2a76b9719d911017c592' } }]);
    const doc = documentClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1', requestHandler: handler });
    const queue = sqsClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1', requestHandler: handler });
    expect((await doc.send(new GetCommand({ TableName: 'T', Key: { pk: 'A', sk: 'B' } }))).Item).toEqual({ pk: 'A', sk: 'B', n: 2 });
    await queue.send(new SendMessageCommand({ QueueUrl: 'http://127.0.0.1:1/000000000000/q', MessageBody: 'hello' }));
    expect(requests).toHaveLength(2);
    for (const r of requests) {
      expect(Object.keys(r.headers)).toEqual(expect.arrayContaining(['x-amz-target', 'content-type', 'authorization']));
      expect(Object.keys(r.headers)).not.toEqual(expect.arrayContaining(['user-agent']));
      expect(Object.keys(r.headers)).not.toEqual(expect.arrayContaining(['x-amz-user-agent']));
      expect(Object.keys(r.headers)).not.toEqual(expect.arrayContaining(['content-length']));
    }
    for (const c of [doc, queue]) for (const name of HTTP_ONLY_MIDDLEWARE) expect(names(c)).not.toContain(name);
    const kept = [documentClient({ region: 'us-east-1' }), documentClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1' }), sqsClient({ region: 'us-east-1' })];
    for (const c of kept) for (const name of HTTP_ONLY_MIDDLEWARE) expect(names(c)).toContain(name);
  });

  it('keep the SDK\'s credentials, typed errors and retries', async () => {
    const { handler, requests, keys } = transport([
      { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'try again' } },
      { status: 200, body: {} },
      { status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed' } },
    ]);
    const doc = documentClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1', requestHandler: handler });
    const put = (pk: string) => doc.send(new PutCommand({ TableName: 'T', Item: { pk, sk: 'B' }, ConditionExpression: 'attribute_not_exists(pk)' }));
    const first = await put('A');
    expect(first.$metadata.attempts).toBe(2);
    await expect(put('A')).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    expect(requests).toHaveLength(3);
    expect(keys).toEqual(['local', 'local', 'local']);
    // the item as written, format version stamped
    const body = requests[0]!.body as Uint8Array;
    expect(JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')).Item).toEqual({ pk: { S: 'A' }, sk: { S: 'B' }, v: { N: '1' } });
  });
});

import { createHash } from 'node:crypto';
import { buildDeps } from '../../shared/container';
import { config } from '../../shared/config';
import { ManualClock } from '../support/clock';
import type { HttpRequest, HttpResponse } from '@smithy/types';
import type { SdkRequestHandler } from '../../shared/adapters/local/in-process-transport';

/** A transport that answers each request with `answer(its JSON body)` and keeps the `x-amz-target` of each. */
function recordingTransport(answer: (body: Record<string, unknown>) => object): SdkRequestHandler & { targets: string[] } {
  const targets: string[] = [];
  return {
    targets,
    async handle(request: HttpRequest): Promise<{ response: HttpResponse }> {
      targets.push(request.headers['x-amz-target'] ?? '');
      const body = JSON.parse(new TextDecoder().decode(request.body as Uint8Array)) as Record<string, unknown>;
      return { response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Buffer.from(JSON.stringify(answer(body))) } };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };
}

const local = () => ({ ...config(), RUNTIME: 'local' as const, DATA_DIR: '/tmp/unused-container-test' });

describe('the container', () => {
  it('builds each dependency on first use and keeps it', () => {
    const deps = buildDeps(local());
    expect(deps.posts).toBe(deps.posts);
    expect(deps.settings.runtime).toBe('local');
  });

  it('a dependency given when it is built replaces the chosen one, and the adapters built with it read it', () => {
    const clock = new ManualClock(Date.UTC(2031, 0, 1));
    const deps = buildDeps(local(), { clock });
    expect(deps.clock).toBe(clock);
    expect(buildDeps(local()).clock).not.toBe(clock);
  });

  it('no dependency can be replaced once built: assigning one throws and leaves it as it was', () => {
    const deps = buildDeps(local());
    const original = deps.connections;
    expect(() => { (deps as { connections: unknown }).connections = {}; }).toThrow(TypeError);
    expect(() => { (deps as { clock: unknown }).clock = new ManualClock(); }).toThrow(TypeError);
    expect(() => { (deps as unknown as Record<string, unknown>).extra = 1; }).toThrow(TypeError);
    expect(deps.connections).toBe(original);
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(deps))) expect({ name, setter: d.set, configurable: d.configurable }).toEqual({ name, setter: undefined, configurable: false });
  });

  it('an object derived from the deps with its own member overrides that one, the others read through', () => {
    const deps = buildDeps(local());
    const original = deps.connections;
    const replacement = Object.create(original) as typeof original;
    const derived = Object.create(deps, { connections: { value: replacement } }) as typeof deps;
    expect(derived.connections).toBe(replacement);
    expect(deps.connections).toBe(original);
    expect(derived.posts).toBe(deps.posts);
  });

  it('the transports given when it is built carry the DynamoDB and SQS clients\' requests (no endpoint is dialled)', async () => {
    const dynamodb = recordingTransport(() => ({}));
    const md5 = (text: string) => createHash('md5').update(text).digest('hex');
    const sqs = recordingTransport((body) => ({
      Successful: (body.Entries as Array<{ Id: string; MessageBody: string }>).map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}`, MD5OfMessageBody: md5(e.MessageBody) })),
      Failed: [],
    }));
    // endpoints nothing listens on: a request that went over HTTP would fail
    const deps = buildDeps({ ...local(), DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', SQS_ENDPOINT: 'http://127.0.0.1:1' }, { transports: { dynamodb, sqs } });
    await expect(deps.keys.getByHash('h')).resolves.toBeUndefined();
    await deps.queue.sendAll('http://127.0.0.1:1/000000000000/q', [{ id: 'm1', body: { a: 1 } }]);
    expect(dynamodb.targets).toEqual(['DynamoDB_20120810.GetItem']);
    expect(sqs.targets).toEqual(['AmazonSQS.SendMessageBatch']);
  });

  it('without transports, the clients reach the engines over their endpoints', async () => {
    const deps = buildDeps({ ...local(), DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' });
    await expect(deps.keys.getByHash('h')).rejects.toThrow();
  });

  it('a bundle without the local-only modules, run against the local engines, reaches them over HTTP', () => {
    // a Lambda bundle compiles SPA_WIRE_LOCAL to "off" (shared/wiring/declaration.ts); the benches' cold starts run
    // such a bundle with RUNTIME=local against the local engines' endpoints
    const before = process.env.SPA_WIRE_LOCAL;
    process.env.SPA_WIRE_LOCAL = 'off';
    try {
      const deps = buildDeps({ ...local(), DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', SQS_ENDPOINT: 'http://127.0.0.1:1' });
      expect(() => deps.posts).not.toThrow();
      expect(() => deps.queue).not.toThrow();
    } finally {
      if (before === undefined) delete process.env.SPA_WIRE_LOCAL;
      else process.env.SPA_WIRE_LOCAL = before;
    }
  });
});

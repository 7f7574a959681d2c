/**
 * X-Ray subsegments as Lambda would send them: the Lambda environment is simulated (execution env, trace header,
 * task root) and the X-Ray daemon is a UDP socket on 127.0.0.1 that records what the SDK streams to it.
 */
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

const daemon = dgram.createSocket('udp4');
const packets: Array<Record<string, unknown>> = [];
const waiters: Array<{ n: number; wake: () => void }> = [];
daemon.on('message', (msg) => {
  const [, body] = msg.toString('utf8').split('\n');
  try { packets.push(JSON.parse(body) as Record<string, unknown>); } catch { /* not a segment */ }
  for (const w of waiters.filter((x) => packets.length >= x.n)) { waiters.splice(waiters.indexOf(w), 1); w.wake(); }
});
/** Resolves once `n` segments have arrived. */
const received = (n: number) => (packets.length >= n ? Promise.resolve() : new Promise<void>((wake) => waiters.push({ n, wake })));

let stopDynamo: (() => Promise<void>) | undefined;
afterAll(async () => {
  await stopDynamo?.();
  daemon.close();
});

describe('Powertools Tracer around network and AWS calls', () => {
  it('a network call is a subsegment annotated with platform and post id; SDK calls are captured', async () => {
    await new Promise<void>((r) => daemon.bind(0, '127.0.0.1', () => r()));
    Object.assign(process.env, {
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', LAMBDA_TASK_ROOT: '/var/task', AWS_LAMBDA_FUNCTION_NAME: 'publish-worker',
      _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`, AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
      POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false',
    });
    const { tracedRegistry } = await import('../../shared/networks/traced');
    const { withLogContext } = await import('../../shared/log');
    const { documentClient } = await import('../../shared/adapters/dynamodb/client');
    const { startDynamo, ensureTable } = await import('../../infra/local/services');

    const adapter = {
      calls: 0,
      async publish() { this.calls++; return { ok: true as const, status: 'published' as const, id: '41', url: 'https://t.me/x/41' }; },
      async verify() { throw new Error('refused by the network'); },
    };
    const registry = tracedRegistry({ telegram: adapter as never });
    await withLogContext({ post_id: 'pst_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, async () => {
      await (registry.telegram as unknown as typeof adapter).publish();
      await expect((registry.telegram as unknown as typeof adapter).verify()).rejects.toThrow('refused by the network');
    });
    expect(adapter.calls).toBe(1);

    const dynamo = await startDynamo(undefined);
    stopDynamo = () => dynamo.stop();
    await ensureTable(dynamo.endpoint, 'trace-table');
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    await documentClient({ region: 'us-east-1', endpoint: dynamo.endpoint }).send(new GetCommand({ TableName: 'trace-table', Key: { pk: 'a', sk: 'b' } }));

    await received(3);
    const publish = packets.find((p) => p.name === '## telegram.publish');
    expect(publish).toMatchObject({ trace_id: '1-5759e988-bd862e3fe1be46a994272793', parent_id: '53995c3f42cd8ad8', annotations: { platform: 'telegram', post_id: 'pst_01ARZ3NDEKTSV4RRFFQ69G5FAV' } });
    const verify = packets.find((p) => p.name === '## telegram.verify');
    expect(verify).toMatchObject({ fault: true, annotations: { platform: 'telegram' } });
    const sdk = packets.find((p) => p.name === 'DynamoDB');
    expect(sdk).toMatchObject({ namespace: 'aws', aws: expect.objectContaining({ operation: 'GetItem', table_name: 'trace-table' }) });
  });
});

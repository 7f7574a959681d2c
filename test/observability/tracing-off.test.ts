/**
 * Tracing off means the X-Ray SDK is never loaded (its cls-hooked async_hooks cost CPU in every process that loads
 * it): outside a Lambda execution environment, or with POWERTOOLS_TRACE_ENABLED=false, `traced` and `traceClient`
 * are pass-throughs and neither Powertools Tracer nor aws-xray-sdk-core is required. In a Lambda environment the
 * Tracer is loaded on first use (test/observability/tracing.test.ts checks what it sends).
 */
let mockTracerLoads = 0;
let mockXrayLoads = 0;
jest.mock('@aws-lambda-powertools/tracer', () => { mockTracerLoads++; return jest.requireActual('@aws-lambda-powertools/tracer'); });
jest.mock('aws-xray-sdk-core', () => { mockXrayLoads++; return jest.requireActual('aws-xray-sdk-core'); });

const LAMBDA_ENV = ['AWS_EXECUTION_ENV', 'AWS_SAM_LOCAL', 'POWERTOOLS_TRACE_ENABLED', 'AWS_LAMBDA_FUNCTION_NAME'] as const;
const saved = Object.fromEntries(LAMBDA_ENV.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of LAMBDA_ENV) { if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k]; }
  mockTracerLoads = 0;
  mockXrayLoads = 0;
});

/** A fresh copy of shared/tracing.ts (its Tracer is built once per module instance). */
function freshTracing(): typeof import('../../shared/tracing') {
  let mod!: typeof import('../../shared/tracing');
  jest.isolateModules(() => { mod = require('../../shared/tracing'); });
  return mod;
}

describe('tracing off', () => {
  it('outside Lambda: traced runs the call as is, traceClient returns the client, the X-Ray SDK is never loaded', async () => {
    for (const k of LAMBDA_ENV) delete process.env[k];
    const { traced, traceClient, tracingEnabled } = freshTracing();
    expect(tracingEnabled()).toBe(false);
    const client = { send: () => 'sent' };
    expect(traceClient(client)).toBe(client);
    await expect(traced('## telegram.publish', { platform: 'telegram' }, async () => 41)).resolves.toBe(41);
    await expect(traced('## telegram.verify', { platform: 'telegram' }, async () => { throw new Error('refused'); })).rejects.toThrow('refused');
    expect(mockTracerLoads).toBe(0);
    expect(mockXrayLoads).toBe(0);
  });

  it('the local runtime\'s SDK clients are built without loading it', () => {
    for (const k of LAMBDA_ENV) delete process.env[k];
    jest.isolateModules(() => {
      const { documentClient } = require('../../shared/adapters/dynamodb/client') as typeof import('../../shared/adapters/dynamodb/client');
      const { sqsClient } = require('../../shared/adapters/aws/sqs-queue') as typeof import('../../shared/adapters/aws/sqs-queue');
      documentClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1' });
      sqsClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1' });
    });
    expect(mockTracerLoads).toBe(0);
    expect(mockXrayLoads).toBe(0);
  });

  it('in Lambda with POWERTOOLS_TRACE_ENABLED=false, under SAM local or Amplify\'s mock: off, nothing loaded', () => {
    const { tracingEnabled } = freshTracing();
    expect(tracingEnabled({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'false' })).toBe(false);
    expect(tracingEnabled({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_SAM_LOCAL: 'true' })).toBe(false);
    expect(tracingEnabled({ AWS_EXECUTION_ENV: 'AWS_Lambda_amplify-mock' })).toBe(false);
    expect(tracingEnabled({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' })).toBe(true);
    expect(tracingEnabled({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'true' })).toBe(true);

    Object.assign(process.env, { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'FALSE' });
    const client = { send: () => 'sent' };
    expect(freshTracing().traceClient(client)).toBe(client);
    expect(mockTracerLoads).toBe(0);
    expect(mockXrayLoads).toBe(0);
  });
});

describe('tracing on', () => {
  it('in a Lambda execution environment the Tracer (and the X-Ray SDK) is loaded on first use and captures the client', () => {
    Object.assign(process.env, { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_LAMBDA_FUNCTION_NAME: 'publish-worker' });
    delete process.env.POWERTOOLS_TRACE_ENABLED;
    delete process.env.AWS_SAM_LOCAL;
    const { traceClient } = freshTracing();
    expect(mockTracerLoads).toBe(0);
    const { SQSClient } = jest.requireActual('@aws-sdk/client-sqs') as typeof import('@aws-sdk/client-sqs');
    const client = new SQSClient({ region: 'us-east-1' });
    const stackBefore = client.middlewareStack.identify().length;
    expect(traceClient(client)).toBe(client);
    expect(client.middlewareStack.identify().length).toBeGreaterThan(stackBefore);
    expect(mockTracerLoads).toBe(1);
    expect(mockXrayLoads).toBeGreaterThan(0);
  });
});

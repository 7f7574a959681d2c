/**
 * Concurrency in AWS: the queue consumers are capped (event source mapping maximum concurrency) and the
 * publish route keeps reserved concurrency, both set by CDK context with defaults; alarms watch the publish route's
 * throttles and duration and the publish queue's oldest message.
 */
process.env.CDK_VALIDATION = 'false';

import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacks, DEFAULT_CONCURRENCY } from '../../bin/app';
import { templateWithNested } from '../support/cdk';

type Resources = Record<string, { Properties: Record<string, any> }>;

function synth(context: Record<string, unknown> = {}) {
  const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org', ...context } }));
  return { api: templateWithNested(stacks.api), workers: Template.fromStack(stacks.workers), obs: Template.fromStack(stacks.observability), stacks };
}

/** Maximum concurrency of each worker's event source mapping, by the queue's logical id in the data stack. */
function mappings(t: Template): Array<{ fn: string; max: number | undefined }> {
  return Object.values(t.findResources('AWS::Lambda::EventSourceMapping') as Resources)
    .map((m) => ({ fn: JSON.stringify(m.Properties.FunctionName), max: m.Properties.ScalingConfig?.MaximumConcurrency as number | undefined }));
}
const reservedOf = (t: Template, description: string) => Object.values(t.findResources('AWS::Lambda::Function', { Properties: { Description: description } }) as Resources)
  .map((f) => f.Properties.ReservedConcurrentExecutions as number | undefined);

const defaults = synth();

describe('concurrency', () => {
  test('defaults: publish worker at most 20, webhook and fire workers at most 10 instances each; no function reserves concurrency (a new account\'s quota is often 10)', () => {
    expect(DEFAULT_CONCURRENCY).toEqual({ publishWorker: 20, webhookWorker: 10, fireWorker: 10, postRoute: 0, mcpFunction: 0 });
    const byWorker = Object.fromEntries([...defaults.stacks.workers.workerFunctions].map(([id, w]) => [id, defaults.stacks.workers.resolve(w.fn.fn.functionName)]));
    const maxOf = (id: string) => mappings(defaults.workers).find((m) => m.fn === JSON.stringify(byWorker[id]))?.max;
    expect(maxOf('publish-worker')).toBe(20);
    expect(maxOf('webhook-worker')).toBe(10);
    expect(maxOf('fire-worker')).toBe(10);
    expect(reservedOf(defaults.api, 'POST /api/post')).toEqual([undefined]);
    const reserved = Object.values(defaults.api.findResources('AWS::Lambda::Function') as Resources).filter((f) => f.Properties.ReservedConcurrentExecutions !== undefined);
    expect(reserved).toHaveLength(0);
    expect(reservedOf(synth({ postReservedConcurrency: '50' }).api, 'POST /api/post')).toEqual([50]);
  });

  test('set by context (-c values are strings); postReservedConcurrency=0 reserves none', () => {
    const t = synth({ publishMaxConcurrency: '100', webhookMaxConcurrency: '5', fireMaxConcurrency: '50', postReservedConcurrency: '0' });
    expect(mappings(t.workers).map((m) => m.max).sort((a, b) => a! - b!)).toEqual([5, 50, 100]);
    expect(reservedOf(t.api, 'POST /api/post')).toEqual([undefined]);
    expect(reservedOf(synth({ postReservedConcurrency: 200 }).api, 'POST /api/post')).toEqual([200]);
  });

  test('out-of-range or non-numeric values are refused at synth', () => {
    expect(() => synth({ publishMaxConcurrency: '1' })).toThrow(/publishMaxConcurrency.*2 to 1000/);
    expect(() => synth({ webhookMaxConcurrency: 'lots' })).toThrow(/webhookMaxConcurrency/);
    expect(() => synth({ postReservedConcurrency: '-3' })).toThrow(/postReservedConcurrency/);
  });
});

describe('alarms of issue 18', () => {
  const alarms = Object.values(defaults.obs.findResources('AWS::CloudWatch::Alarm') as Resources).map((a) => a.Properties);
  const byName = (name: string) => alarms.find((a) => a.AlarmName === `SocialPublishing-dev-${name}`)!;

  test('POST /api/post throttled (any, in 5 minutes)', () => {
    expect(byName('post-throttles')).toMatchObject({ MetricName: 'Throttles', Namespace: 'AWS/Lambda', Statistic: 'Sum', Period: 300, Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(JSON.stringify(byName('post-throttles').Dimensions)).toContain('FunctionName');
  });

  test('POST /api/post p99 duration above 80 % of its 29 s timeout', () => {
    expect(byName('post-duration')).toMatchObject({ MetricName: 'Duration', Namespace: 'AWS/Lambda', ExtendedStatistic: 'p99', Period: 300, Threshold: 23_200 });
  });

  test("the publish queue's oldest message older than 5 minutes", () => {
    const a = byName('publish-queue-age');
    expect(a).toMatchObject({ MetricName: 'ApproximateAgeOfOldestMessage', Namespace: 'AWS/SQS', Statistic: 'Maximum', Threshold: 300 });
    expect(JSON.stringify(a.Dimensions)).toContain('QueueName');
    expect(a.AlarmDescription).toMatch(/Runbook: docs\/operations\.md#alarm-publish-queue-age/);
  });
});

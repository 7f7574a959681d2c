/**
 * What a deploy-readiness review of the templates found, as CDK assertions (no bundling, no template validation).
 */
process.env.CDK_VALIDATION = 'false';

import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacks } from '../../bin/app';
import { templateWithNested } from '../support/cdk';

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;
const MAIL_FROM = 'Social Publishing <no-reply@mail.example.org>';
const synth = (context: Record<string, unknown> = {}) => {
  const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: MAIL_FROM, ...context } }));
  return { stacks, data: Template.fromStack(stacks.data), api: templateWithNested(stacks.api), workers: Template.fromStack(stacks.workers), obs: Template.fromStack(stacks.observability) };
};
const dev = synth();
const prod = synth({ stage: 'prod' });
const find = (t: Template, type: string) => t.findResources(type) as Resources;

test('the dispatcher (invoked asynchronously by EventBridge Scheduler) sends an invocation that failed its 2 retries to the scheduler DLQ', () => {
  const configs = Object.values(find(dev.api, 'AWS::Lambda::EventInvokeConfig'));
  expect(configs).toHaveLength(1);
  const c = configs[0]!.Properties;
  expect(c.MaximumRetryAttempts).toBe(2);
  const dlq = dev.stacks.data.resolve(dev.stacks.data.schedulerDlq.queueArn) as { 'Fn::GetAtt': [string, string] };
  expect(JSON.stringify(c.DestinationConfig.OnFailure.Destination)).toContain(dlq['Fn::GetAtt'][0]);
  expect(JSON.stringify(c.FunctionName)).toContain('Dispatcher');
  // the scheduler DLQ has its alarm
  expect(Object.values(find(dev.obs, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties.AlarmName)).toContain('SocialPublishing-dev-dlq-scheduler');
});

test('every worker queue\'s visibility timeout is at least 6 × its function\'s timeout (AWS guidance for SQS event sources)', () => {
  const queues = find(dev.data, 'AWS::SQS::Queue');
  for (const [, w] of dev.stacks.workers.workerFunctions) {
    const id = dev.stacks.data.getLogicalId(w.queue.queue.node.defaultChild as never);
    const fn = Object.values(find(dev.workers, 'AWS::Lambda::Function')).find((f) => String(f.Properties.Description).startsWith(`Consumes ${w.def.queueName} `))!;
    expect(queues[id]!.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fn.Properties.Timeout);
  }
});

test('the per-network failure-rate alarm fires on a total outage: missing PostsPublished is filled with 0', () => {
  const alarm = Object.values(find(dev.obs, 'AWS::CloudWatch::Alarm')).find((a) => a.Properties.AlarmName === 'SocialPublishing-dev-failure-rate-x')!;
  const expression = (alarm.Properties.Metrics as Array<{ Expression?: string }>).find((m) => m.Expression)!.Expression!;
  expect(expression).toContain('FILL(p, 0)');
  expect(expression).toContain('FILL(f, 0)');
  // no bare p or f is left: every use of a series that may be missing is filled
  expect(expression.replace(/FILL\([pf], 0\)/g, '')).not.toMatch(/\b[pf]\b/);
});

test('SES: non-prod stages may also send to the account\'s own (sandbox-verified) identities; prod only as the sender', () => {
  const sesResources = (t: Template) => Object.values(find(t, 'AWS::IAM::Policy')).flatMap((p) => (p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>)
    .filter((s) => [s.Action].flat().includes('ses:SendEmail')).map((s) => JSON.stringify(s.Resource)));
  expect(sesResources(dev.api).some((r) => r.includes('identity/*'))).toBe(true);
  expect(sesResources(prod.api).some((r) => r.includes('identity/*'))).toBe(false);
  expect(sesResources(prod.api).some((r) => r.includes('identity/no-reply@mail.example.org'))).toBe(true);
});

test('no function reserves concurrency unless configured', () => {
  expect(Object.values(find(dev.api, 'AWS::Lambda::Function')).filter((f) => f.Properties.ReservedConcurrentExecutions !== undefined)).toEqual([]);
});

test('every function of the API, route-group and worker stacks carries its stack\'s layer of the locked AWS SDK', () => {
  for (const t of [dev.api, dev.workers]) {
    expect(Object.keys(t.findResources('AWS::Lambda::LayerVersion')).length).toBeGreaterThan(0);
    const fns = Object.values(find(t, 'AWS::Lambda::Function'));
    expect(fns.length).toBeGreaterThan(0);
    for (const f of fns) expect(JSON.stringify(f.Properties.Layers ?? [])).toMatch(/AwsSdkLayer/);
  }
});

/** The Observability stack's issue-14 parts: dashboard over the EMF metrics, failure-rate, backlog and throttle alarms. */
process.env.CDK_VALIDATION = 'false';

import fs from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacks } from '../../bin/app';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import { METRICS } from '../../shared/metrics';

const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org' } }));
const obs = Template.fromStack(stacks.observability);
const api = Template.fromStack(stacks.api);
type Alarm = { AlarmName: string; AlarmDescription: string; Threshold: number; Metrics?: Array<{ Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Namespace: string; Dimensions: Array<{ Name: string; Value: string }> } } }>; MetricName?: string; Namespace?: string; Dimensions?: Array<{ Name: string; Value: string }> };
const alarms = Object.values(obs.findResources('AWS::CloudWatch::Alarm')).map((r) => r.Properties as Alarm);
const byName = (name: string) => alarms.find((a) => a.AlarmName === `SocialPublishing-dev-${name}`);

describe('observability stack (issue 14)', () => {
  it('one failure-rate alarm per network: failed / (published + failed) over 15 minutes, from the EMF metrics', () => {
    for (const platform of PLATFORM_NAMES) {
      const a = byName(`failure-rate-${platform}`)!;
      expect(a).toMatchObject({ Threshold: 0.5 });
      const expr = a.Metrics!.find((m) => m.Expression)!;
      expect(expr.Expression).toBe('IF((FILL(p, 0) + FILL(f, 0)) >= 5, FILL(f, 0) / (FILL(p, 0) + FILL(f, 0)), 0)');
      const stat = (id: string) => a.Metrics!.find((m) => m.Id === id)!.MetricStat!.Metric;
      const dims = [{ Name: 'platform', Value: platform }, { Name: 'service', Value: 'SocialPublishing-dev' }];
      const sorted = (m: { Dimensions: Array<{ Name: string; Value: string }> }) => ({ ...m, Dimensions: [...m.Dimensions].sort((x, y) => x.Name.localeCompare(y.Name)) });
      expect(sorted(stat('p'))).toEqual({ Namespace: 'SocialPublishing', MetricName: 'PostsPublished', Dimensions: dims });
      expect(sorted(stat('f'))).toEqual({ Namespace: 'SocialPublishing', MetricName: 'PostsFailed', Dimensions: dims });
    }
  });

  it('webhook backlog age, Lambda and DynamoDB throttles; every alarm has a runbook section in docs/operations.md', () => {
    expect(byName('webhook-backlog-age')).toMatchObject({ MetricName: 'WebhookBacklogAge', Namespace: 'SocialPublishing', Threshold: 600_000 });
    expect(byName('lambda-throttles')).toMatchObject({ MetricName: 'Throttles', Namespace: 'AWS/Lambda', Threshold: 0 });
    expect(byName('dynamodb-throttles')!.Metrics!.some((m) => m.MetricStat?.Metric.MetricName === 'ThrottledRequests')).toBe(true);
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
    for (const a of alarms) {
      const anchor = /Runbook: docs\/operations\.md#([a-z0-9-]+)/.exec(a.AlarmDescription)![1];
      expect({ alarm: a.AlarmName, documented: doc.includes(`<a id="${anchor}"></a>`) }).toEqual({ alarm: a.AlarmName, documented: true });
    }
  });

  it('a dashboard graphs every EMF metric of shared/metrics.ts for this stage', () => {
    const dashboards = Object.values(obs.findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0].Properties!.DashboardBody);
    for (const name of Object.keys(METRICS)) expect({ name, graphed: body.includes(`MetricName=\\\\\\"${name}\\\\\\"`) || body.includes(`\\"${name}\\"`) }).toEqual({ name, graphed: true });
    expect(body).toContain('service=\\\\\\"SocialPublishing-dev\\\\\\"');
  });

  it('functions write metrics and logs under the stage service name', () => {
    const fns = Object.values(api.findResources('AWS::Lambda::Function')).map((f) => (f.Properties!.Environment as { Variables: Record<string, string> }).Variables);
    expect(fns.every((v) => v.POWERTOOLS_SERVICE_NAME === 'SocialPublishing-dev' && v.POWERTOOLS_METRICS_NAMESPACE === 'SocialPublishing')).toBe(true);
  });
});

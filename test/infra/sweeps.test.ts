/**
 * The three every-minute sweeps (webhook deliveries, scheduled posts, published posts) are part of the deployment: EventBridge
 * Scheduler schedules of the API stack that invoke the dispatcher with the app's own inputs; the local runtime arms
 * the same timers at start. No request creates them at run time any more.
 */
process.env.CDK_VALIDATION = 'false';

import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { buildStacks } from '../../bin/app';
import { awsCronExpression, SWEEP_SCHEDULES } from '../../infra/sweep-schedules';
import { DispatchInput } from '../../shared/app/timers/route-timer';
import { documentClient } from '../../shared/adapters/dynamodb/client';
import { routes } from '../../functions/routes';
import { startRuntime } from '../support/runtime';

type Resources = Record<string, { Properties: Record<string, any>; DependsOn?: string[] }>;

describe('sweep schedules in CDK', () => {
  const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org' } }));
  const api = Template.fromStack(stacks.api);
  const schedules = Object.values(api.findResources('AWS::Scheduler::Schedule') as Resources);

  test('one schedule per sweep (delivery, the scheduled posts\' fan-out and reconciliation, publishing and analytics every minute, connection renewal every 15 minutes, UTC), in the default group, enabled', () => {
    expect(schedules.map((s) => s.Properties.Name).sort()).toEqual(['SocialPublishing-dev-analytics-sweep', 'SocialPublishing-dev-connection-renewal-sweep', 'SocialPublishing-dev-publish-sweep', 'SocialPublishing-dev-schedule-fan-out', 'SocialPublishing-dev-schedule-sweep', 'SocialPublishing-dev-webhook-sweep']);
    for (const s of schedules) {
      expect(s.Properties).toMatchObject({
        GroupName: 'default', ScheduleExpression: String(s.Properties.Name).endsWith('renewal-sweep') ? 'cron(0/15 * * * ? *)' : 'cron(* * * * ? *)',
        ScheduleExpressionTimezone: 'UTC', FlexibleTimeWindow: { Mode: 'OFF' }, State: 'ENABLED',
      });
    }
  });

  test('each invokes the dispatcher with the input its sweep expects, as the scheduler role, with the scheduler DLQ', () => {
    const inputs = schedules.map((s) => JSON.parse(s.Properties.Target.Input as string) as unknown);
    expect(inputs.map((i) => DispatchInput.parse(i))).toEqual(expect.arrayContaining([{ v: 1, kind: 'webhook-sweep' }, { v: 1, kind: 'schedule-fan-out' }, { v: 1, kind: 'schedule-sweep' }, { v: 1, kind: 'publish-sweep' }, { v: 1, kind: 'connection-sweep' }, { v: 1, kind: 'analytics-sweep' }]));
    const roleId = Object.keys(api.findResources('AWS::IAM::Role', { Properties: { AssumeRolePolicyDocument: { Statement: [{ Principal: { Service: 'scheduler.amazonaws.com' } }] } } }))[0]!;
    const dispatcherArn = JSON.stringify(stacks.api.resolve(stacks.api.dispatcherArn));
    for (const s of schedules) {
      expect(JSON.stringify(s.Properties.Target.Arn)).toBe(dispatcherArn);
      expect(s.Properties.Target.RoleArn).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
      expect(JSON.stringify(s.Properties.Target.DeadLetterConfig.Arn)).toContain('SchedulerDlq');
      expect(s.Properties.Target.RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 240 });
    }
  });

  test('no route creates a recurring timer for them: registering a webhook needs no scheduler grant', () => {
    expect(routes.postWebhooks.grants).not.toContain('scheduler');
  });

  test('awsCronExpression turns a 5-field cron into EventBridge Scheduler form', () => {
    expect(awsCronExpression('*/5 * * * *')).toBe('cron(0/5 * * * ? *)');
    expect(awsCronExpression('* * * * *')).toBe('cron(* * * * ? *)');
    expect(awsCronExpression('0 8 1 * *')).toBe('cron(0 8 1 * ? *)');
    expect(awsCronExpression('30 9 * * 1')).toBe('cron(30 9 ? * 1 *)');
    expect(() => awsCronExpression('0 8 1 * 1')).toThrow(/day of month and a day of week/);
    expect(() => awsCronExpression('* * *')).toThrow(/5-field/);
  });
});

describe('sweep timers locally', () => {
  test('the local runtime arms every sweep timer at start, with the same inputs', async () => {
    const rt = await startRuntime();
    const doc = documentClient({ region: 'us-east-1', endpoint: process.env.DYNAMODB_ENDPOINT! });
    try {
      for (const sweep of SWEEP_SCHEDULES) {
        const item = (await doc.send(new GetCommand({ TableName: process.env.TABLE_NAME!, Key: { pk: `TIMER#${sweep.name}`, sk: 'TIMER' } }))).Item;
        expect(item).toMatchObject({ cron: sweep.cron, timezone: 'UTC', input: sweep.input });
        expect(Date.parse(item!.run_at as string) - Date.now()).toBeLessThanOrEqual(sweep.name === 'connection-renewal-sweep' ? 15 * 60_000 : 60_000);
      }
    } finally {
      doc.destroy();
      await rt.stop();
    }
  });
});

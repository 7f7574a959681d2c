process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { buildDeps } from '../../shared/container';
import { config } from '../../shared/config';

/*
 * EventBridge Scheduler loads the cron grammar (shared/domain/cron.ts: luxon and cron-parser) at its first recurring
 * schedule, not when the function starts or schedules a one-time alarm.
 */

const mockLoads: string[] = [];
jest.mock('../../shared/domain/cron', () => {
  mockLoads.push('cron');
  return jest.requireActual('../../shared/domain/cron');
});

const sdk = mockClient(SchedulerClient);
afterEach(() => sdk.reset());

it('loads the cron grammar at the first recurring schedule, which it sends in EventBridge\'s dialect', async () => {
  sdk.on(CreateScheduleCommand).resolves({});
  const scheduler = buildDeps({
    ...config(), RUNTIME: 'aws', AWS_REGION: 'us-east-1', SCHEDULE_GROUP: 'publishing',
    SCHEDULER_TARGET_ARN: 'arn:aws:lambda:us-east-1:123456789012:function:dispatcher', SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
  }).scheduler;
  await scheduler.scheduleOnce({ name: 'sched-1', runAt: new Date('2026-12-01T10:00:00Z'), input: { schedule_id: 'sch_1' } });
  expect(mockLoads).toEqual([]);
  await scheduler.scheduleCron({ name: 'rec-1', cron: '30 9 * * 1-5', timezone: 'Europe/Paris', input: { recurring_id: 'rec_1' } });
  expect(mockLoads).toEqual(['cron']);
  expect(sdk.commandCalls(CreateScheduleCommand).map((c) => [c.args[0].input.Name, c.args[0].input.ScheduleExpression, c.args[0].input.ScheduleExpressionTimezone])).toEqual([
    ['sched-1', 'at(2026-12-01T10:00:00)', 'UTC'],
    ['rec-1', 'cron(30 9 ? * 2-6 *)', 'Europe/Paris'],
  ]);
});

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { buildDeps } from '../../shared/container';
import { config } from '../../shared/config';

/*
 * The container's EventBridge Scheduler (its module pulls luxon and cron-parser) is loaded by the scheduler's first
 * call, not when the function starts or reads `deps.scheduler`; a function that does not wire it is refused on reading.
 */

const mockLoads: string[] = [];
jest.mock('../../shared/adapters/aws/eventbridge-scheduler', () => {
  mockLoads.push('eventbridge-scheduler');
  return jest.requireActual('../../shared/adapters/aws/eventbridge-scheduler');
});

const sdk = mockClient(SchedulerClient);
const awsDeps = () => buildDeps({
  ...config(), RUNTIME: 'aws', AWS_REGION: 'us-east-1', SCHEDULE_GROUP: 'publishing',
  SCHEDULER_TARGET_ARN: 'arn:aws:lambda:us-east-1:123456789012:function:dispatcher', SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/scheduler',
});

afterEach(() => { delete process.env.SPA_WIRE_SCHEDULER; sdk.reset(); });

it('loads EventBridge Scheduler at its first call, then sends each call with the configured group, target and role', async () => {
  sdk.on(CreateScheduleCommand).resolves({});
  sdk.on(DeleteScheduleCommand).resolves({});
  const scheduler = awsDeps().scheduler;
  expect(mockLoads).toEqual([]);
  await scheduler.scheduleOnce({ name: 'sched-1', runAt: new Date('2026-12-01T10:00:00Z'), input: { schedule_id: 'sch_1' } });
  expect(mockLoads).toEqual(['eventbridge-scheduler']);
  await scheduler.cancel('sched-1');
  expect(sdk.commandCalls(CreateScheduleCommand).map((c) => c.args[0].input)).toEqual([expect.objectContaining({
    Name: 'sched-1', GroupName: 'publishing', ScheduleExpression: 'at(2026-12-01T10:00:00)',
    Target: expect.objectContaining({ Arn: 'arn:aws:lambda:us-east-1:123456789012:function:dispatcher', RoleArn: 'arn:aws:iam::123456789012:role/scheduler' }),
  })]);
  expect(sdk.commandCalls(DeleteScheduleCommand).map((c) => c.args[0].input)).toEqual([{ Name: 'sched-1', GroupName: 'publishing' }]);
  expect(mockLoads).toEqual(['eventbridge-scheduler']);
});

it('is refused on reading where the function does not wire it', () => {
  process.env.SPA_WIRE_SCHEDULER = 'off';
  expect(() => awsDeps().scheduler).toThrow('EventBridge Scheduler is not wired into this function');
});

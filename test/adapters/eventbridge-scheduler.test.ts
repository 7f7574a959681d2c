process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { EventBridgeScheduler, atExpression } from '../../shared/adapters/aws/eventbridge-scheduler';
import { SCHEDULED_TIME } from '../../shared/ports/scheduler';
import { timerName } from '../../shared/app/schedule/common';

const scheduler = mockClient(SchedulerClient);
const OPTS = {
  groupName: 'publishing',
  targetArn: 'arn:aws:lambda:us-east-1:123456789012:function:dispatcher',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler',
};
const DLQ = 'arn:aws:sqs:us-east-1:123456789012:scheduler-dlq';

function adapter(dlqArn?: string): EventBridgeScheduler {
  return new EventBridgeScheduler(new SchedulerClient({ region: 'us-east-1' }), { ...OPTS, ...(dlqArn ? { dlqArn } : {}) });
}

const invocation = {
  name: 'sched-abc123',
  runAt: new Date('2026-03-04T05:06:07.891Z'),
  input: { schedule_id: 'abc123', account_id: 'acc_1' },
};

const expectedInput = {
  Name: 'sched-abc123',
  GroupName: 'publishing',
  ScheduleExpression: 'at(2026-03-04T05:06:07)',
  ScheduleExpressionTimezone: 'UTC',
  FlexibleTimeWindow: { Mode: 'OFF' },
  Target: {
    Arn: OPTS.targetArn,
    RoleArn: OPTS.roleArn,
    Input: '{"schedule_id":"abc123","account_id":"acc_1"}',
    RetryPolicy: { MaximumRetryAttempts: 5, MaximumEventAgeInSeconds: 3600 },
  },
  ActionAfterCompletion: 'DELETE',
};

beforeEach(() => scheduler.reset());

describe('atExpression', () => {
  it('formats UTC to the second, without milliseconds or Z', () => {
    expect(atExpression(new Date('2026-03-04T05:06:07.891Z'))).toBe('at(2026-03-04T05:06:07)');
    expect(atExpression(new Date(Date.UTC(2026, 11, 31, 23, 59, 59, 999)))).toBe('at(2026-12-31T23:59:59)');
    expect(atExpression(new Date('2026-07-01T12:00:00+02:00'))).toBe('at(2026-07-01T10:00:00)');
  });

  it('refuses an invalid date', () => {
    expect(() => atExpression(new Date('nope'))).toThrow();
  });
});

describe('EventBridgeScheduler', () => {
  it('creates a one-time schedule with the exact input', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
    await adapter().scheduleOnce(invocation);
    const calls = scheduler.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual(expectedInput);
    expect(scheduler.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
  });

  it('adds the dead-letter queue when configured', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
    await adapter(DLQ).scheduleOnce(invocation);
    expect(scheduler.commandCalls(CreateScheduleCommand)[0]!.args[0].input).toEqual({
      ...expectedInput,
      Target: { ...expectedInput.Target, DeadLetterConfig: { Arn: DLQ } },
    });
  });

  it('updates the schedule when one with that name exists', async () => {
    scheduler.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    scheduler.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
    await adapter(DLQ).scheduleOnce(invocation);
    const updates = scheduler.commandCalls(UpdateScheduleCommand);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.args[0].input).toEqual({
      ...expectedInput,
      Target: { ...expectedInput.Target, DeadLetterConfig: { Arn: DLQ } },
    });
  });

  it('propagates other errors', async () => {
    scheduler.on(CreateScheduleCommand).rejects(new ValidationException({ message: 'bad', Message: 'bad', $metadata: {} }));
    await expect(adapter().scheduleOnce(invocation)).rejects.toThrow('bad');
    expect(scheduler.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
  });

  it('cancels by name and group', async () => {
    scheduler.on(DeleteScheduleCommand).resolves({});
    await adapter().cancel('sched-abc123');
    expect(scheduler.commandCalls(DeleteScheduleCommand)[0]!.args[0].input).toEqual({ Name: 'sched-abc123', GroupName: 'publishing' });
  });

  it('treats cancelling a missing schedule as done', async () => {
    scheduler.on(DeleteScheduleCommand).rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    await expect(adapter().cancel('sched-gone')).resolves.toBeUndefined();
  });

  it('propagates other cancel errors', async () => {
    scheduler.on(DeleteScheduleCommand).rejects(new Error('throttled'));
    await expect(adapter().cancel('sched-x')).rejects.toThrow('throttled');
  });
});

describe('EventBridgeScheduler: scheduled posts and recurring schedules', () => {
  it('a one-time alarm (deferrals, approval expiries, alarms of the previous release): at() in UTC, deleted after it fires, retries and the DLQ', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
    await adapter(DLQ).scheduleOnce({ name: 's-sch_01JZ0000000000000000000000', runAt: new Date('2026-11-21T16:30:00.000Z'), input: { v: 1, kind: 'scheduled', schedule_id: 'sch_01JZ0000000000000000000000' } });
    expect(scheduler.commandCalls(CreateScheduleCommand)[0]!.args[0].input).toEqual({
      Name: 's-sch_01JZ0000000000000000000000',
      GroupName: 'publishing',
      ScheduleExpression: 'at(2026-11-21T16:30:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: OPTS.targetArn,
        RoleArn: OPTS.roleArn,
        Input: '{"v":1,"kind":"scheduled","schedule_id":"sch_01JZ0000000000000000000000"}',
        RetryPolicy: { MaximumRetryAttempts: 5, MaximumEventAgeInSeconds: 3600 },
        DeadLetterConfig: { Arn: DLQ },
      },
      ActionAfterCompletion: 'DELETE',
    });
  });

  it('a recurring schedule: cron(...) in the EventBridge dialect with ScheduleExpressionTimezone, bounded, kept after runs', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
    const startsAt = new Date('2026-12-01T00:00:00Z');
    const endsAt = new Date('2027-06-30T22:00:00Z');
    await adapter(DLQ).scheduleCron({
      name: 'r-rec_01JZ0000000000000000000000', cron: '30 9 * * 1-5', timezone: 'Europe/Berlin', startsAt, endsAt,
      input: { kind: 'recurring', recurring_id: 'rec_01JZ0000000000000000000000', occurrence: SCHEDULED_TIME },
    });
    expect(scheduler.commandCalls(CreateScheduleCommand)[0]!.args[0].input).toEqual({
      Name: 'r-rec_01JZ0000000000000000000000',
      GroupName: 'publishing',
      ScheduleExpression: 'cron(30 9 ? * 2-6 *)',
      ScheduleExpressionTimezone: 'Europe/Berlin',
      StartDate: startsAt,
      EndDate: endsAt,
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: OPTS.targetArn,
        RoleArn: OPTS.roleArn,
        Input: '{"kind":"recurring","recurring_id":"rec_01JZ0000000000000000000000","occurrence":"<aws.scheduler.scheduled-time>"}',
        RetryPolicy: { MaximumRetryAttempts: 5, MaximumEventAgeInSeconds: 3600 },
        DeadLetterConfig: { Arn: DLQ },
      },
      ActionAfterCompletion: 'NONE',
    });
  });

  it('a recurring schedule without a window has no StartDate/EndDate; an existing name is updated', async () => {
    scheduler.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    scheduler.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:x' });
    await adapter().scheduleCron({ name: 'r-rec_1', cron: '0 8 1 * *', timezone: 'America/New_York', input: { kind: 'recurring' } });
    const input = scheduler.commandCalls(UpdateScheduleCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ Name: 'r-rec_1', ScheduleExpression: 'cron(0 8 1 * ? *)', ScheduleExpressionTimezone: 'America/New_York', ActionAfterCompletion: 'NONE' });
    expect(input).not.toHaveProperty('StartDate');
    expect(input).not.toHaveProperty('EndDate');
  });

  it('cancel of a recurring schedule deletes it by its name in the group', async () => {
    scheduler.on(DeleteScheduleCommand).resolves({});
    await adapter().cancel(timerName.recurring('rec_01JZ0000000000000000000000'));
    expect(scheduler.commandCalls(DeleteScheduleCommand)[0]!.args[0].input).toEqual({ Name: 'r-rec_01JZ0000000000000000000000', GroupName: 'publishing' });
  });
});

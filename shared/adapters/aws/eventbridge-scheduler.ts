import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  SchedulerClient,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import type { CronInvocation, ScheduledInvocation, Scheduler } from '../../ports/scheduler';
import { traceClient } from '../../tracing';

/** The EventBridge Scheduler client (named imports, so a bundle keeps only the commands it sends). */
export const schedulerClient = (region: string): SchedulerClient => traceClient(new SchedulerClient({ region }));

export interface EventBridgeSchedulerOptions {
  groupName: string;
  /** The dispatcher function invoked when a schedule fires. */
  targetArn: string;
  /** The role EventBridge Scheduler assumes to invoke the target. */
  roleArn: string;
  /** Where events go after the retries run out. */
  dlqArn?: string;
}

/**
 * The Scheduler port on EventBridge Scheduler: one one-time `at()` schedule per invocation, deleted by the service
 * after it fires. Scheduling a name that exists updates it; cancelling a missing one is a no-op.
 */
export class EventBridgeScheduler implements Scheduler {
  constructor(
    private readonly client: SchedulerClient,
    private readonly opts: EventBridgeSchedulerOptions,
  ) {}

  async scheduleOnce(invocation: ScheduledInvocation): Promise<void> {
    const input: CreateScheduleCommandInput = {
      Name: invocation.name,
      GroupName: this.opts.groupName,
      ScheduleExpression: atExpression(invocation.runAt),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: this.target(invocation.input),
      ActionAfterCompletion: 'DELETE',
    };
    await this.createOrUpdate(input);
  }

  /**
   * A recurring schedule: `cron(...)` (EventBridge's 6-field dialect, translated from the 5-field expression) in the
   * given timezone, bounded by StartDate/EndDate, kept after each run; the target input carries
   * `<aws.scheduler.scheduled-time>`, which the service replaces with each occurrence's time.
   */
  async scheduleCron(invocation: CronInvocation): Promise<void> {
    // imported on first use: the cron grammar pulls luxon and cron-parser, which then sit in a chunk of their own in a
    // bundle split into chunks (the MCP function's), never read or compiled by the function's start
    const { parseCron, toAwsCron } = await import('../../domain/cron');
    const input: CreateScheduleCommandInput = {
      Name: invocation.name,
      GroupName: this.opts.groupName,
      ScheduleExpression: toAwsCron(parseCron(invocation.cron)),
      ScheduleExpressionTimezone: invocation.timezone,
      ...(invocation.startsAt ? { StartDate: invocation.startsAt } : {}),
      ...(invocation.endsAt ? { EndDate: invocation.endsAt } : {}),
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: this.target(invocation.input),
      ActionAfterCompletion: 'NONE',
    };
    await this.createOrUpdate(input);
  }

  /** The dispatcher as target, with retries and the scheduler DLQ. */
  private target(input: Record<string, unknown>): NonNullable<CreateScheduleCommandInput['Target']> {
    return {
      Arn: this.opts.targetArn,
      RoleArn: this.opts.roleArn,
      Input: JSON.stringify(input),
      RetryPolicy: { MaximumRetryAttempts: 5, MaximumEventAgeInSeconds: 3600 },
      ...(this.opts.dlqArn ? { DeadLetterConfig: { Arn: this.opts.dlqArn } } : {}),
    };
  }

  private async createOrUpdate(input: CreateScheduleCommandInput): Promise<void> {
    try {
      await this.client.send(new CreateScheduleCommand(input));
    } catch (err) {
      if (errorName(err) !== 'ConflictException') throw err;
      await this.client.send(new UpdateScheduleCommand(input));
    }
  }

  async cancel(name: string): Promise<void> {
    try {
      await this.client.send(new DeleteScheduleCommand({ Name: name, GroupName: this.opts.groupName }));
    } catch (err) {
      if (errorName(err) !== 'ResourceNotFoundException') throw err;
    }
  }
}

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC, seconds precision (EventBridge Scheduler's one-time expression). */
export function atExpression(runAt: Date): string {
  if (Number.isNaN(runAt.getTime())) throw new Error('Invalid schedule time');
  return `at(${runAt.toISOString().slice(0, 19)})`;
}

function errorName(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'name' in err && typeof err.name === 'string' ? err.name : undefined;
}

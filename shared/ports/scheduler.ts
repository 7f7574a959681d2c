/** A one-time alarm clock (EventBridge Scheduler in AWS, an in-process scheduler locally). */
export interface ScheduledInvocation {
  /** Deterministic name, derived from the schedule id. */
  name: string;
  runAt: Date;
  /** The dispatcher input (validated again with zod when it fires). */
  input: Record<string, unknown>;
}
/**
 * A recurring alarm: a 5-field cron expression in an IANA timezone, optionally bounded. Each firing's input has
 * SCHEDULED_TIME replaced by that occurrence's time (ISO 8601 UTC), as EventBridge Scheduler's context attribute does.
 */
export interface CronInvocation {
  name: string;
  cron: string;
  timezone: string;
  startsAt?: Date;
  endsAt?: Date;
  input: Record<string, unknown>;
}

/** EventBridge Scheduler's context attribute for the time a firing was scheduled for (replaced in the input). */
export const SCHEDULED_TIME = '<aws.scheduler.scheduled-time>';

export interface Scheduler {
  scheduleOnce(invocation: ScheduledInvocation): Promise<void>;
  /** Creates (or replaces) a recurring alarm; `cancel(name)` removes it. */
  scheduleCron(invocation: CronInvocation): Promise<void>;
  cancel(name: string): Promise<void>;
}

/** A one-time alarm clock (EventBridge Scheduler in AWS, an in-process scheduler locally). */
export interface ScheduledInvocation {
  /** Deterministic name, derived from the schedule id. */
  name: string;
  runAt: Date;
  /** The dispatcher input (validated again with zod when it fires). */
  input: Record<string, unknown>;
}
export interface Scheduler {
  scheduleOnce(invocation: ScheduledInvocation): Promise<void>;
  cancel(name: string): Promise<void>;
}

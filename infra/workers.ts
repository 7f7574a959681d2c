/**
 * The queue consumers: the CDK workers stack and the local runtime's event-source poller both read this table.
 * Each worker's handler lives in `handler`; its queue URL reaches functions through `queueEnv`.
 */
export interface WorkerDef {
  id: string;
  handler: string;
  queueEnv: 'PUBLISH_QUEUE_URL' | 'WEBHOOK_QUEUE_URL';
  queueName: string;
  batchSize: number;
  /** Must exceed the function timeout (AWS requires visibility ≥ timeout). */
  visibilityTimeoutSeconds: number;
  timeoutSeconds: number;
  /** Receives before a message goes to the DLQ. */
  maxReceiveCount: number;
  memoryMb: number;
}

export const workers: WorkerDef[] = [
  {
    id: 'publish-worker', handler: 'functions/queue/publish-worker.ts', queueEnv: 'PUBLISH_QUEUE_URL', queueName: 'publish',
    batchSize: 5, timeoutSeconds: 120, visibilityTimeoutSeconds: 150, maxReceiveCount: 5, memoryMb: 1024,
  },
];

/** The scheduler's target: fires scheduled and rate-limit-deferred posts (input validated with zod). */
export const dispatcher = { id: 'dispatch', handler: 'functions/scheduler/dispatch.ts', timeoutSeconds: 60, memoryMb: 512 } as const;

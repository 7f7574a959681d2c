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

export const workers: WorkerDef[] = [];

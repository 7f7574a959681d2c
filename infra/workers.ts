import type { WiringDeclaration } from '../shared/wiring/declaration';

/**
 * The queue consumers: the CDK workers stack and the local runtime's event-source poller both read this table.
 * Each worker's handler lives in `handler`; its queue URL reaches functions through `queueEnv`.
 */
export interface WorkerDef extends WiringDeclaration {
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

export const publishWorker: WorkerDef = {
  id: 'publish-worker', handler: 'functions/queue/publish-worker.ts', queueEnv: 'PUBLISH_QUEUE_URL', queueName: 'publish',
  batchSize: 5, timeoutSeconds: 120, visibilityTimeoutSeconds: 150, maxReceiveCount: 5, memoryMb: 1024,
  grants: ['table', 'kms', 'scheduler', 'bucketRead', 'webhookQueue', 'oauthConfig'], networks: true, tracing: true, publishes: true,
};

export const webhookWorker: WorkerDef = {
  // Signed webhook deliveries: one try ≤ 10 s per record; a claim older than 40 s is stale (CLAIM_STALE_MS), so a
  // message redelivered after the 60 s visibility timeout can take over a crashed worker's try.
  id: 'webhook-worker', handler: 'functions/queue/webhook-delivery.ts', queueEnv: 'WEBHOOK_QUEUE_URL', queueName: 'webhooks',
  batchSize: 10, timeoutSeconds: 30, visibilityTimeoutSeconds: 60, maxReceiveCount: 5, memoryMb: 512,
  grants: ['table', 'kms', 'scheduler', 'webhookQueue'], tracing: true,
};

export const workers: WorkerDef[] = [publishWorker, webhookWorker];

/** The scheduler's target: fires scheduled and rate-limit-deferred posts, long webhook waits and the webhook sweep (input validated with zod). */
export const dispatcher = {
  id: 'dispatch', handler: 'functions/scheduler/dispatch.ts', timeoutSeconds: 60, memoryMb: 512,
  grants: ['table', 'publishQueue', 'scheduler', 'webhookQueue', 'kms', 'ses'],
} as const satisfies WiringDeclaration & Record<string, unknown>;

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
  /** At least 6 × the function timeout (AWS's guidance for SQS event sources: room for retries when throttled). */
  visibilityTimeoutSeconds: number;
  timeoutSeconds: number;
  /** Receives before a message goes to the DLQ. */
  maxReceiveCount: number;
  memoryMb: number;
}

export const publishWorker: WorkerDef = {
  id: 'publish-worker', handler: 'functions/queue/publish-worker.ts', queueEnv: 'PUBLISH_QUEUE_URL', queueName: 'publish',
  batchSize: 5, timeoutSeconds: 120, visibilityTimeoutSeconds: 720, maxReceiveCount: 5, memoryMb: 1024,
  // kms: decrypts credentials, encrypts renewed tokens and a resume state; publishQueue: queues a processing network's resume
  grants: ['table', 'kms', 'scheduler', 'bucketRead', 'publishQueue', 'webhookQueue', 'oauthConfig'], networks: true, tracing: true, publishes: true,
};

export const webhookWorker: WorkerDef = {
  // Signed webhook deliveries: one try ≤ 10 s per record; a claim older than 40 s is stale (CLAIM_STALE_MS), so a
  // message redelivered after the 180 s visibility timeout (6 × the 30 s timeout) can take over a crashed worker's try.
  id: 'webhook-worker', handler: 'functions/queue/webhook-delivery.ts', queueEnv: 'WEBHOOK_QUEUE_URL', queueName: 'webhooks',
  batchSize: 10, timeoutSeconds: 30, visibilityTimeoutSeconds: 180, maxReceiveCount: 5, memoryMb: 512,
  // kmsDecrypt: reads the endpoint's signing secret; scheduler: a wait longer than SQS's 15 minutes
  grants: ['table', 'kmsDecrypt', 'scheduler', 'webhookQueue'], tracing: true,
};

export const workers: WorkerDef[] = [publishWorker, webhookWorker];

/**
 * The scheduler's target: fires scheduled and rate-limit-deferred posts, long webhook waits and the webhook sweep
 * (input validated with zod). Its grants: read and write the table; enqueue a post's networks and webhook tries;
 * re-arm and delete schedules; a scheduled post held for approval emails the owner its review link (ses). The
 * connections' renewal sweep (issue 27) renews OAuth tokens at the networks (`networks`, the client registrations
 * `oauthConfig`), stores them encrypted (`kms`) and emails owners about sign-ins that need them (ses).
 */
export const dispatcher = {
  id: 'dispatch', handler: 'functions/scheduler/dispatch.ts', timeoutSeconds: 60, memoryMb: 512,
  // kms: a scheduled post's checks read its connections' credentials; the renewal sweep encrypts renewed tokens
  grants: ['table', 'publishQueue', 'scheduler', 'webhookQueue', 'kms', 'ses', 'oauthConfig'], networks: true,
} as const satisfies WiringDeclaration & Record<string, unknown>;

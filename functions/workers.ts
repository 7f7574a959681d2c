import type { WiringDeclaration } from '../shared/wiring/declaration';

/**
 * The queue consumers: the CDK workers stack and the local runtime's event-source poller both read this table.
 * Each worker's handler lives in `handler`; its queue URL reaches functions through `queueEnv`.
 */
export interface WorkerDef extends WiringDeclaration {
  id: string;
  handler: string;
  queueEnv: 'PUBLISH_QUEUE_URL' | 'WEBHOOK_QUEUE_URL' | 'FIRE_QUEUE_URL';
  queueName: string;
  batchSize: number;
  /** At least 6 × the function timeout (AWS's guidance for SQS event sources: room for retries when throttled). */
  visibilityTimeoutSeconds: number;
  timeoutSeconds: number;
  /** Receives before a message goes to the DLQ. */
  maxReceiveCount: number;
  memoryMb: number;
}

export const publishWorker = {
  id: 'publish-worker', handler: 'functions/queue/publish-worker.ts', queueEnv: 'PUBLISH_QUEUE_URL', queueName: 'publish',
  batchSize: 5, timeoutSeconds: 120, visibilityTimeoutSeconds: 720, maxReceiveCount: 5, memoryMb: 1024,
  // kms: decrypts credentials, encrypts renewed tokens and a resume state; publishQueue: queues a processing network's resume;
  // ses: a sign-in found lost while publishing emails the owner its connect link (connection.reauth_required)
  grants: ['table', 'kms', 'scheduler', 'bucketRead', 'publishQueue', 'webhookQueue', 'oauthConfig', 'ses'], networks: true, tracing: true, publishes: true,
} as const satisfies WorkerDef;

export const webhookWorker = {
  // Signed webhook deliveries: one try ≤ 10 s per record; a claim older than 40 s is stale (CLAIM_STALE_MS), so a
  // message redelivered after the 180 s visibility timeout (6 × the 30 s timeout) can take over a crashed worker's try.
  id: 'webhook-worker', handler: 'functions/queue/webhook-delivery.ts', queueEnv: 'WEBHOOK_QUEUE_URL', queueName: 'webhooks',
  batchSize: 10, timeoutSeconds: 30, visibilityTimeoutSeconds: 180, maxReceiveCount: 5, memoryMb: 512,
  // kmsDecrypt: reads the endpoint's signing secret; scheduler: a wait longer than SQS's 15 minutes
  grants: ['table', 'kmsDecrypt', 'scheduler', 'webhookQueue'], tracing: true,
} as const satisfies WorkerDef;

export const fireWorker = {
  // Scheduled posts that came due (shared/app/schedule/due-fan-out.ts queues one message per post each minute): each
  // record is the dispatcher's claim and publish of one schedule (fireScheduled), ≤ 2 s, so 10 records a batch fit
  // 30 s; visibility 6 × the timeout. A lost or failed message is queued again by the next minute's fan-out.
  id: 'fire-worker', handler: 'functions/queue/fire-worker.ts', queueEnv: 'FIRE_QUEUE_URL', queueName: 'fire',
  batchSize: 10, timeoutSeconds: 30, visibilityTimeoutSeconds: 180, maxReceiveCount: 5, memoryMb: 512,
  // the grants of the dispatcher's scheduled-post path: the checks read credentials (kms), publishing queues the
  // networks and events, a post held for approval arms its expiry (scheduler) and emails its review link (ses)
  grants: ['table', 'kms', 'publishQueue', 'webhookQueue', 'scheduler', 'ses'], networks: true,
} as const satisfies WorkerDef;

export const workers: WorkerDef[] = [publishWorker, webhookWorker, fireWorker];

/**
 * The scheduler's target: fires scheduled and rate-limit-deferred posts, long webhook waits and the webhook sweep
 * (input validated with zod). Its grants: read and write the table; enqueue a post's networks and webhook tries;
 * re-arm and delete schedules; a scheduled post held for approval emails the owner its review link (ses). The
 * connections' renewal sweep renews OAuth tokens at the networks (`networks`, the client registrations
 * `oauthConfig`), stores them encrypted (`kms`) and emails owners about sign-ins that need them (ses).
 */
export const dispatcher = {
  id: 'dispatch', handler: 'functions/scheduler/dispatch.ts', timeoutSeconds: 60, memoryMb: 512,
  // kms: a scheduled post's checks read its connections' credentials; the renewal sweep encrypts renewed tokens
  grants: ['table', 'publishQueue', 'scheduler', 'webhookQueue', 'fireQueue', 'kms', 'ses', 'oauthConfig'], networks: true,
} as const satisfies WiringDeclaration & Record<string, unknown>;

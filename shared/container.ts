import path from 'node:path';
import { KMSClient } from '@aws-sdk/client-kms';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Deps } from './app/deps';
import { config, type Config } from './config';
import { systemClock } from './ports/clock';
import type { Scheduler } from './ports/scheduler';
import { documentClient, type TableRef } from './adapters/dynamodb/client';
import { DynamoAccountStore } from './adapters/dynamodb/accounts';
import { DynamoKeyStore } from './adapters/dynamodb/api-keys';
import { DynamoBrandStore } from './adapters/dynamodb/brands';
import { DynamoTokenStore } from './adapters/dynamodb/tokens';
import { DynamoCounterStore } from './adapters/dynamodb/counters';
import { SqsQueue, sqsClient } from './adapters/aws/sqs-queue';
import { S3Blobs, s3Client } from './adapters/aws/s3-blobs';
import { SesMailer } from './adapters/aws/ses-mailer';
import { KmsEnvelopeCipher } from './adapters/aws/kms-cipher';
import { EventBridgeScheduler } from './adapters/aws/eventbridge-scheduler';
import { LocalKeyCipher } from './adapters/local/local-cipher';
import { OutboxMailer } from './adapters/local/outbox-mailer';
import { TableScheduler } from './adapters/dynamodb/table-scheduler';
import { DynamoConnectionStore } from './adapters/dynamodb/connections';
import { DynamoPostStore } from './adapters/dynamodb/posts';
import { DynamoLockStore } from './adapters/dynamodb/locks';
import { DynamoPaceStore } from './adapters/dynamodb/pace';
import { DynamoEventSink } from './adapters/dynamodb/events';
import { DynamoWebhookStore } from './adapters/dynamodb/webhooks';
import { HttpWebhookSender } from './adapters/webhook-sender';
import { WebhookEventSink } from './app/webhooks/deliver';
import { DynamoScheduleStore } from './adapters/dynamodb/schedules';
import { buildOAuthProviders, buildRegistry } from './networks/registry';
import { SSMClient } from '@aws-sdk/client-ssm';
import { SsmOAuthClients } from './adapters/aws/ssm-oauth-clients';
import { envClients, firstOf, type OAuthClients } from './app/oauth/clients';
import { errorFields, log } from './log';

/**
 * OAuth client registrations: SSM Parameter Store in AWS (when OAUTH_SSM_PREFIX is set), with the environment
 * (`<NAME>_CLIENT_ID` / `_SECRET`) as the fallback and, locally, the only source. An unreadable Parameter Store is
 * logged and the environment answers.
 */
function oauthClients(cfg: Config): OAuthClients {
  const env = envClients(cfg);
  if (cfg.RUNTIME !== 'aws' || !cfg.OAUTH_SSM_PREFIX) return env;
  const ssm = new SsmOAuthClients(new SSMClient({ region: cfg.AWS_REGION }), cfg.OAUTH_SSM_PREFIX);
  const guarded: OAuthClients = {
    get: (platform) => ssm.get(platform).catch((err: unknown) => {
      log.warn('oauth client registrations could not be read from SSM', { prefix: cfg.OAUTH_SSM_PREFIX, ...errorFields(err) });
      return undefined;
    }),
  };
  return firstOf(guarded, env);
}
import { checkUrl } from './net/address-guard';
import { downloadMedia, probeMedia } from './net/media';
import type { MediaGateway } from './app/deps';
import { DynamoMediaStore } from './adapters/dynamodb/media';
import { withOwnMedia } from './app/media/own-media';

/** Largest media file a worker downloads for a network that needs the bytes (spec §8.3 upload limit). */
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;

/** Media links through the address guard: public https only unless ALLOW_PRIVATE_TARGETS (tests, local demos). */
export function mediaGateway(allowPrivate: boolean): MediaGateway {
  return {
    probe: (url) => probeMedia(url, { allowPrivate }),
    download: (url, signal) => downloadMedia(url, { allowPrivate, maxBytes: MAX_MEDIA_BYTES, signal }),
    checkTarget: async (url) => { await checkUrl(url, { allowPrivate }); },
  };
}

/**
 * Wires adapters to ports once per cold start: AWS services in Lambda; the embedded stand-ins (same DynamoDB, SQS
 * and S3 adapters pointed at local endpoints, plus the outbox mailer, a local key and the table-backed scheduler)
 * in local mode. The only module besides infra/local that chooses adapters.
 */
export function buildDeps(cfg: Config): Deps {
  const table: TableRef = { doc: documentClient({ region: cfg.AWS_REGION, endpoint: cfg.DYNAMODB_ENDPOINT }), tableName: cfg.TABLE_NAME };
  const local = cfg.RUNTIME === 'local';
  const s3 = s3Client({ region: cfg.AWS_REGION, endpoint: cfg.S3_ENDPOINT });
  const scheduler: Scheduler = local
    ? new TableScheduler(table)
    : new EventBridgeScheduler(new SchedulerClient({ region: cfg.AWS_REGION }), {
      groupName: cfg.SCHEDULE_GROUP, targetArn: cfg.SCHEDULER_TARGET_ARN, roleArn: cfg.SCHEDULER_ROLE_ARN, dlqArn: cfg.SCHEDULER_DLQ_ARN || undefined,
    });
  const publicBaseUrl = cfg.PUBLIC_BASE_URL.replace(/\/$/, '');
  const blobs = new S3Blobs(s3, s3, cfg.MEDIA_BUCKET);
  const uploads = new DynamoMediaStore(table);
  const queue = new SqsQueue(sqsClient({ region: cfg.AWS_REGION, endpoint: cfg.SQS_ENDPOINT }));
  // Every recorded event fans out to the account's webhook endpoints (deliveries written, then queued).
  const webhooks = new DynamoWebhookStore(table);
  const fanout = { webhooks, queue, clock: systemClock, settings: { webhookQueueUrl: cfg.WEBHOOK_QUEUE_URL } };
  return {
    accounts: new DynamoAccountStore(table),
    keys: new DynamoKeyStore(table),
    brands: new DynamoBrandStore(table),
    tokens: new DynamoTokenStore(table),
    counters: new DynamoCounterStore(table),
    mailer: local ? new OutboxMailer(path.join(cfg.DATA_DIR, 'outbox')) : new SesMailer(new SESv2Client({ region: cfg.AWS_REGION }), cfg.MAIL_FROM),
    cipher: local ? new LocalKeyCipher(path.join(cfg.DATA_DIR, 'local.key')) : new KmsEnvelopeCipher(new KMSClient({ region: cfg.AWS_REGION }), cfg.KMS_KEY_ID),
    queue,
    scheduler,
    blobs,
    uploads,
    connections: new DynamoConnectionStore(table),
    posts: new DynamoPostStore(table),
    locks: new DynamoLockStore(table),
    pace: new DynamoPaceStore(table),
    events: new WebhookEventSink(new DynamoEventSink(table), () => fanout),
    webhooks,
    webhookSender: new HttpWebhookSender({ allowPrivate: cfg.ALLOW_PRIVATE_TARGETS }),
    schedules: new DynamoScheduleStore(table),
    networks: buildRegistry(cfg),
    oauth: { providers: buildOAuthProviders(cfg), clients: oauthClients(cfg) },
    // Own uploads (${PUBLIC_BASE_URL}/media/…) are answered from the table and the bucket; other links go out.
    media: withOwnMedia(mediaGateway(cfg.ALLOW_PRIVATE_TARGETS), { uploads, blobs, clock: systemClock, settings: { publicBaseUrl } }),
    clock: systemClock,
    settings: {
      publicBaseUrl, runtime: cfg.RUNTIME, publishQueueUrl: cfg.PUBLISH_QUEUE_URL, webhookQueueUrl: cfg.WEBHOOK_QUEUE_URL,
      networkTimeoutMs: cfg.NETWORK_TIMEOUT_MS, publishWaitMs: cfg.PUBLISH_WAIT_MS,
      rateLimitsOff: local && cfg.DISABLE_RATE_LIMITS,
    },
  };
}

let deps: Deps | undefined;

export function getDeps(): Deps {
  deps ??= buildDeps(config());
  return deps;
}

/** Replaces the dependencies (tests) or forgets them so the next call rebuilds from the environment. */
export function setDeps(next: Deps | undefined): void {
  deps = next;
}

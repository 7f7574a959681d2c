import path from 'node:path';
import type { Deps } from './app/deps';
import type { MediaGateway } from './ports/media-gateway';
import { config, type Config } from './config';
import { systemClock, type Clock } from './ports/clock';
import type { Blobs } from './ports/blobs';
import type { Queue } from './ports/queue';
import type { Scheduler } from './ports/scheduler';
import type { OAuthClients } from './ports/oauth';
import type { DraftProvider } from './ports/ai';
import { documentClient, type TableRef } from './adapters/dynamodb/client';
import { DynamoAccountStore } from './adapters/dynamodb/accounts';
import { DynamoKeyStore } from './adapters/dynamodb/api-keys';
import { DynamoBrandStore } from './adapters/dynamodb/brands';
import { DynamoTokenStore } from './adapters/dynamodb/tokens';
import { DynamoCounterStore } from './adapters/dynamodb/counters';
import { DynamoConnectionStore } from './adapters/dynamodb/connections';
import { DynamoPostStore } from './adapters/dynamodb/posts';
import { DynamoLockStore } from './adapters/dynamodb/locks';
import { DynamoPaceStore } from './adapters/dynamodb/pace';
import { DynamoEventSink } from './adapters/dynamodb/events';
import { DynamoWebhookStore } from './adapters/dynamodb/webhooks';
import { DynamoScheduleStore } from './adapters/dynamodb/schedules';
import { DynamoMediaStore } from './adapters/dynamodb/media';
import { TableScheduler } from './adapters/dynamodb/table-scheduler';
import { DynamoMcpOAuthStore } from './adapters/dynamodb/mcp-oauth';
import { McpAppRegistry } from './adapters/mcp-app-registry';
import { DynamoBillingStore } from './adapters/dynamodb/billing';
import { PlanLifecycleAccounts } from './app/billing/plan-state';
import { DynamoSessionStore } from './adapters/dynamodb/sessions';
import { DynamoGuardrailStore } from './adapters/dynamodb/guardrails';
import { DynamoApprovalStore } from './adapters/dynamodb/approvals';
import { DynamoBrandingStore } from './adapters/dynamodb/branding';
import { checkUrl } from './net/address-guard';
import { downloadDocument, downloadMedia, probeMedia } from './net/media';
import { guardedFetch } from './net/pinned-fetch';
import { WebhookFanOut } from './app/webhooks/fan-out';
import { DynamoPublishContextStore } from './adapters/dynamodb/publish-context';
import { withOwnMedia } from './app/media/own-media';
import { envClients, firstOf } from './adapters/env-oauth-clients';
import { isPlatformName } from './domain/platforms';
import { errorFields, log } from './log';
import { traceClient } from './tracing';
import { tracedRegistry } from './networks/traced';
import { trimBase } from './domain/values';

/*
 * Heavy adapters (AWS SDK clients other than DynamoDB's, the network adapters with their WebSocket and crypto
 * libraries) are loaded with require() on first use, so each Lambda function evaluates at cold start only what it
 * touches (esbuild keeps a required module's code in a closure until it is required).
 */
type Module<T> = () => T;
const sqsModule: Module<typeof import('./adapters/aws/sqs-queue')> = () => require('./adapters/aws/sqs-queue');
const s3Module: Module<typeof import('./adapters/aws/s3-blobs')> = () => require('./adapters/aws/s3-blobs');
const sesModule: Module<typeof import('./adapters/aws/ses-mailer')> = () => require('./adapters/aws/ses-mailer');
const sesClientModule: Module<typeof import('@aws-sdk/client-sesv2')> = () => require('@aws-sdk/client-sesv2');
const kmsModule: Module<typeof import('./adapters/aws/kms-cipher')> = () => require('./adapters/aws/kms-cipher');
const kmsClientModule: Module<typeof import('@aws-sdk/client-kms')> = () => require('@aws-sdk/client-kms');
const schedulerModule: Module<typeof import('./adapters/aws/eventbridge-scheduler')> = () => require('./adapters/aws/eventbridge-scheduler');
const schedulerClientModule: Module<typeof import('@aws-sdk/client-scheduler')> = () => require('@aws-sdk/client-scheduler');
const ssmModule: Module<typeof import('./adapters/aws/ssm-oauth-clients')> = () => require('./adapters/aws/ssm-oauth-clients');
const ssmClientModule: Module<typeof import('@aws-sdk/client-ssm')> = () => require('@aws-sdk/client-ssm');
const registryModule: Module<typeof import('./networks/registry')> = () => require('./networks/registry');
const sandboxLinksModule: Module<typeof import('./networks/sandbox-links')> = () => require('./networks/sandbox-links');
const localCipherModule: Module<typeof import('./adapters/local/local-cipher')> = () => require('./adapters/local/local-cipher');
const outboxModule: Module<typeof import('./adapters/local/outbox-mailer')> = () => require('./adapters/local/outbox-mailer');
const senderModule: Module<typeof import('./adapters/webhook-sender')> = () => require('./adapters/webhook-sender');
const stripeModule: Module<typeof import('./adapters/stripe/stripe-payments')> = () => require('./adapters/stripe/stripe-payments');
const ssmBillingModule: Module<typeof import('./adapters/aws/ssm-billing-settings')> = () => require('./adapters/aws/ssm-billing-settings');
// --- AI drafts (issue 12)
const bedrockModule: Module<typeof import('./adapters/aws/bedrock-drafter')> = () => require('./adapters/aws/bedrock-drafter');
const openAiModule: Module<typeof import('./adapters/openai-drafter')> = () => require('./adapters/openai-drafter');
const localDrafterModule: Module<typeof import('./adapters/local/local-drafter')> = () => require('./adapters/local/local-drafter');

/** Largest media file a worker downloads for a network that needs the bytes (spec §8.3 upload limit). */
export const MAX_MEDIA_BYTES = 50 * 1024 * 1024;

/** Media links through the address guard: public https only unless ALLOW_PRIVATE_TARGETS (tests, local demos). */
export function mediaGateway(allowPrivate: boolean): MediaGateway {
  return {
    probe: (url) => probeMedia(url, { allowPrivate }),
    download: (url, signal) => downloadMedia(url, { allowPrivate, maxBytes: MAX_MEDIA_BYTES, signal }),
    downloadDocument: (url, signal) => downloadDocument(url, { allowPrivate, maxBytes: MAX_MEDIA_BYTES, signal }),
    checkTarget: async (url) => { await checkUrl(url, { allowPrivate }); },
    fetch: guardedFetch({ allowPrivate }),
  };
}

/**
 * OAuth client registrations: SSM Parameter Store in AWS (when OAUTH_SSM_PREFIX is set), with the environment
 * (`<NAME>_CLIENT_ID` / `_SECRET`) as the fallback and, locally, the only source. An unreadable Parameter Store is
 * logged and the environment answers.
 */
function oauthClients(cfg: Config): OAuthClients {
  const env = envClients(cfg);
  if (cfg.RUNTIME !== 'aws' || !cfg.OAUTH_SSM_PREFIX) return env;
  const { SSMClient } = ssmClientModule();
  const ssm = new (ssmModule().SsmOAuthClients)(traceClient(new SSMClient({ region: cfg.AWS_REGION })), cfg.OAUTH_SSM_PREFIX);
  const guarded: OAuthClients = {
    get: (platform) => ssm.get(platform).catch((err: unknown) => {
      log.warn('oauth client registrations could not be read from SSM', { prefix: cfg.OAUTH_SSM_PREFIX, ...errorFields(err) });
      return undefined;
    }),
  };
  return firstOf(guarded, env);
}

/**
 * Stripe's settings (issue 13): in AWS only from SSM Parameter Store under BILLING_SSM_PREFIX (SecureStrings; never
 * Lambda environment variables); locally from the environment. No secret key → billing is not configured.
 */
function billingSettings(cfg: Config): () => Promise<import('./adapters/stripe/stripe-payments').StripeSettings | undefined> {
  if (cfg.RUNTIME === 'aws') {
    const prefix = cfg.BILLING_SSM_PREFIX;
    if (!prefix) return async () => undefined;
    return () => ssmBillingModule().ssmBillingSettings(new (ssmClientModule().SSMClient)({ region: cfg.AWS_REGION }), prefix);
  }
  const env = cfg as unknown as Record<string, string | undefined>;
  return async () => cfg.STRIPE_SECRET_KEY
    ? { secretKey: cfg.STRIPE_SECRET_KEY, webhookSecret: cfg.STRIPE_WEBHOOK_SECRET, prices: stripeModule().priceTableFrom((name) => env[name]) }
    : undefined;
}

/**
 * An object whose properties are built on first read (then kept). Assigning a property gives the receiver its own
 * plain value (tests replace a dependency; an object made with Object.create(deps) can override one without
 * touching deps).
 */
function lazily<T extends object>(factories: { [K in keyof T]: () => T[K] }): T {
  const out = {} as T;
  for (const key of Object.keys(factories) as Array<keyof T>) {
    let built = false;
    let value: T[keyof T];
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get: () => { if (!built) { value = factories[key](); built = true; } return value; },
      set(this: T, v: T[keyof T]) { Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true }); },
    });
  }
  return out;
}

/**
 * Wires adapters to ports once per cold start: AWS services in Lambda; the embedded stand-ins (same DynamoDB, SQS
 * and S3 adapters pointed at local endpoints, plus the outbox mailer, a local key and the table-backed scheduler)
 * in local mode. The only module besides infra/local that chooses adapters.
 */
export function buildDeps(cfg: Config): Deps {
  const table: TableRef = { doc: documentClient({ region: cfg.AWS_REGION, endpoint: cfg.DYNAMODB_ENDPOINT }), tableName: cfg.TABLE_NAME };
  const local = cfg.RUNTIME === 'local';
  const publicBaseUrl = trimBase(cfg.PUBLIC_BASE_URL);
  // Adapters built here read deps.clock at each call (a test may replace it after they are built).
  const liveClock: Clock = { now: () => deps.clock.now(), sleep: (ms) => deps.clock.sleep(ms) };
  const shared = lazily<{ queue: Queue; blobs: Blobs; uploads: DynamoMediaStore; webhooks: DynamoWebhookStore }>({
    queue: () => { const m = sqsModule(); return new m.SqsQueue(m.sqsClient({ region: cfg.AWS_REGION, endpoint: cfg.SQS_ENDPOINT }), { clock: liveClock }); },
    blobs: () => { const m = s3Module(); const s3 = m.s3Client({ region: cfg.AWS_REGION, endpoint: cfg.S3_ENDPOINT }); return new m.S3Blobs(s3, s3, cfg.MEDIA_BUCKET); },
    uploads: () => new DynamoMediaStore(table),
    webhooks: () => new DynamoWebhookStore(table),
  });
  const deps: Deps = lazily<Deps>({
    // Reads answer the plan in force now (a change due at the period end or after a grace period applies on read).
    accounts: () => new PlanLifecycleAccounts(new DynamoAccountStore(table), { get clock() { return deps.clock; }, get billing() { return deps.billing; } }),
    keys: () => new DynamoKeyStore(table),
    brands: () => new DynamoBrandStore(table),
    tokens: () => new DynamoTokenStore(table),
    counters: () => new DynamoCounterStore(table, () => Math.floor(deps.clock.now() / 1000)),
    mailer: () => local
      ? new (outboxModule().OutboxMailer)(path.join(cfg.DATA_DIR, 'outbox'), liveClock)
      : new (sesModule().SesMailer)(traceClient(new (sesClientModule().SESv2Client)({ region: cfg.AWS_REGION })), cfg.MAIL_FROM),
    cipher: () => local
      ? new (localCipherModule().LocalKeyCipher)(path.join(cfg.DATA_DIR, 'local.key'))
      : new (kmsModule().KmsEnvelopeCipher)(traceClient(new (kmsClientModule().KMSClient)({ region: cfg.AWS_REGION })), cfg.KMS_KEY_ID),
    queue: () => shared.queue,
    scheduler: (): Scheduler => local
      ? new TableScheduler(table, liveClock)
      : new (schedulerModule().EventBridgeScheduler)(traceClient(new (schedulerClientModule().SchedulerClient)({ region: cfg.AWS_REGION })), {
        groupName: cfg.SCHEDULE_GROUP, targetArn: cfg.SCHEDULER_TARGET_ARN, roleArn: cfg.SCHEDULER_ROLE_ARN, dlqArn: cfg.SCHEDULER_DLQ_ARN || undefined,
      }),
    blobs: () => shared.blobs,
    uploads: () => shared.uploads,
    connections: () => new DynamoConnectionStore(table),
    posts: () => new DynamoPostStore(table),
    locks: () => new DynamoLockStore(table),
    pace: () => new DynamoPaceStore(table),
    events: () => new DynamoEventSink(table),
    webhooks: () => shared.webhooks,
    webhookSender: () => new (senderModule().HttpWebhookSender)({ allowPrivate: cfg.ALLOW_PRIVATE_TARGETS, clock: liveClock }),
    schedules: () => new DynamoScheduleStore(table),
    networks: () => {
      const registry = tracedRegistry(registryModule().buildRegistry(cfg));
      // sandbox mode (local only): posts to simulated networks link to the sandbox inbox
      if (!local || !cfg.SANDBOX_ORIGIN) return registry;
      const simulated = new Set(cfg.SANDBOX_NETWORKS.split(',').map((n) => n.trim()).filter(isPlatformName));
      return sandboxLinksModule().withSandboxLinks(registry, cfg.SANDBOX_ORIGIN, simulated);
    },
    oauth: () => ({ providers: registryModule().buildOAuthProviders(cfg), clients: oauthClients(cfg) }),
    // Own uploads (${PUBLIC_BASE_URL}/media/…) are answered from the table and the bucket; other links go out.
    media: () => withOwnMedia(mediaGateway(cfg.ALLOW_PRIVATE_TARGETS), deps),
    clock: () => systemClock,
    // Dashboard (issue 16)
    sessions: () => new DynamoSessionStore(table),
    // --- MCP server (issue 11)
    mcpOAuth: () => new DynamoMcpOAuthStore(table),
    guardrails: () => new DynamoGuardrailStore(table),
    apps: () => new McpAppRegistry(new DynamoMcpOAuthStore(table)),
    approvals: () => new DynamoApprovalStore(table),
    branding: () => new DynamoBrandingStore(table),
    // --- AI drafts (issue 12)
    ai: () => draftProvider(cfg),
    // --- Lean publish path (issue 18)
    publishContext: () => new DynamoPublishContextStore(table),
    fanOut: () => new WebhookFanOut(() => deps),
    settings: () => Object.freeze({
      publicBaseUrl, runtime: cfg.RUNTIME, publishQueueUrl: cfg.PUBLISH_QUEUE_URL, webhookQueueUrl: cfg.WEBHOOK_QUEUE_URL,
      networkTimeoutMs: cfg.NETWORK_TIMEOUT_MS, publishWaitMs: cfg.PUBLISH_WAIT_MS,
      rateLimitsOff: local && cfg.DISABLE_RATE_LIMITS,
      aiTimeoutMs: cfg.AI_TIMEOUT_MS,
    }),
    // --- Billing (issue 13)
    payments: () => new (stripeModule().StripePayments)(billingSettings(cfg), cfg.STRIPE_API_BASE),
    billing: () => new DynamoBillingStore(table),
  });
  return deps;
}

/**
 * The AI drafting provider (issue 12): AI_PROVIDER, else Bedrock in AWS and the deterministic local drafter locally.
 * `openai` needs AI_BASE_URL.
 */
export function draftProvider(cfg: Config): DraftProvider {
  const kind = cfg.AI_PROVIDER ?? (cfg.RUNTIME === 'aws' ? 'bedrock' : 'local');
  if (kind === 'bedrock') {
    const m = bedrockModule();
    return new m.BedrockDrafter(m.bedrockClient({ region: cfg.BEDROCK_REGION ?? cfg.AWS_REGION, endpoint: cfg.BEDROCK_ENDPOINT }), cfg.BEDROCK_MODEL_ID, { structuredOutput: cfg.BEDROCK_STRUCTURED_OUTPUT });
  }
  if (kind === 'openai') {
    if (!cfg.AI_BASE_URL) throw new Error('AI_PROVIDER=openai needs AI_BASE_URL (an OpenAI-compatible endpoint)');
    return new (openAiModule().OpenAiCompatibleDrafter)({ baseUrl: cfg.AI_BASE_URL, model: cfg.AI_MODEL, apiKey: cfg.AI_API_KEY });
  }
  return new (localDrafterModule().LocalDrafter)();
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

// In Lambda, a bad environment stops the function at init with one line naming the variable (shared/config.ts),
// never as a 500 on every request.
if (process.env.AWS_LAMBDA_FUNCTION_NAME) config();

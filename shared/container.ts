import path from 'node:path';
import type { Deps } from './app/deps';
import { config, type Config } from './config';
import { systemClock, type Clock } from './ports/clock';
import type { Blobs } from './ports/blobs';
import type { Queue } from './ports/queue';
import type { Scheduler } from './ports/scheduler';
import type { OAuthClients } from './ports/oauth';
import type { DraftProvider } from './ports/ai';
import type { MediaStore } from './ports/media';
import type { WebhookStore } from './ports/webhooks';
import type { TableRef } from './adapters/dynamodb/client';
import type { EngineTransports } from './adapters/local/in-process-transport';
import { WebhookFanOut } from './app/webhooks/fan-out';
import { envClients, firstOf } from './adapters/env-oauth-clients';
import { isPlatformName } from './domain/platforms';
import { errorFields, log } from './log';
import { trimBase } from './domain/values';
import { unwiredMessage, type WireGroup } from './wiring/declaration';
import { polledResults } from './adapters/aws/polled-results';
import { networkLimits } from './networks/descriptor-limits';
import { buildVerifyOnlyRegistry } from './networks/verifiers';
import { buildOAuthProviders } from './networks/oauth-providers';

/*
 * Each adapter is loaded with require() on first use, behind its wiring switch `process.env.SPA_WIRE_<GROUP>`. In a
 * Lambda bundle esbuild replaces every switch with "on" or "off" from the function's declaration (its route's or
 * worker's grants and `networks`, shared/wiring/declaration.ts, infra/bundling.ts), so an unwired adapter's require() is dead
 * code and its module (an AWS SDK client, the network adapters, the local stand-ins) is not in the bundle at all.
 * Unbundled (the local runtime, tests) no switch is set and everything is wired.
 */
type Module<T> = () => T;

/** A function used an adapter its declaration does not wire (only in a Lambda bundle). */
function unwired(what: string, group: WireGroup): never {
  throw new Error(unwiredMessage(what, group));
}

const dynamoModule: Module<typeof import('./wiring/dynamo-stores')> = () => process.env.SPA_WIRE_TABLE === 'off'
  ? unwired('The DynamoDB table', 'TABLE') : require('./wiring/dynamo-stores');
const sqsModule: Module<typeof import('./adapters/aws/sqs-queue')> = () => process.env.SPA_WIRE_SQS === 'off'
  ? unwired('The SQS queue', 'SQS') : require('./adapters/aws/sqs-queue');
const s3Module: Module<typeof import('./adapters/aws/s3-blobs')> = () => process.env.SPA_WIRE_S3 === 'off'
  ? unwired('The S3 media bucket', 'S3') : require('./adapters/aws/s3-blobs');
const sesModule: Module<typeof import('./adapters/aws/ses-mailer')> = () => process.env.SPA_WIRE_SES === 'off'
  ? unwired('The SES mailer', 'SES') : require('./adapters/aws/ses-mailer');
const kmsModule: Module<typeof import('./adapters/aws/kms-cipher')> = () => process.env.SPA_WIRE_KMS === 'off'
  ? unwired('The KMS cipher', 'KMS') : require('./adapters/aws/kms-cipher');
const schedulerModule: Module<typeof import('./adapters/aws/eventbridge-scheduler')> = () => process.env.SPA_WIRE_SCHEDULER === 'off'
  ? unwired('EventBridge Scheduler', 'SCHEDULER') : require('./adapters/aws/eventbridge-scheduler');
const ssmModule: Module<typeof import('./adapters/aws/ssm-oauth-clients')> = () => process.env.SPA_WIRE_OAUTH_SSM === 'off'
  ? unwired('The OAuth client registrations in SSM', 'OAUTH_SSM') : require('./adapters/aws/ssm-oauth-clients');
const ssmClientModule: Module<typeof import('./adapters/aws/ssm-client')> = () => process.env.SPA_WIRE_OAUTH_SSM === 'off' && process.env.SPA_WIRE_BILLING === 'off'
  ? unwired('SSM Parameter Store', 'OAUTH_SSM') : require('./adapters/aws/ssm-client');
// the send code (every adapter) only where the declaration says `publishes`; elsewhere `networks` wires each
// network's credential check and sign-in side alone: each network's descriptor loads them behind the same switches
// (shared/networks/descriptor.ts), so verifiers.ts and oauth-providers.ts carry no network code of their own
const registryModule: Module<typeof import('./networks/registry')> = () => process.env.SPA_WIRE_NETWORKS === 'off' || process.env.SPA_WIRE_PUBLISH === 'off'
  ? unwired('The network send code', 'PUBLISH') : require('./networks/registry');
const tracedModule: Module<typeof import('./networks/traced')> = () => process.env.SPA_WIRE_NETWORKS === 'off'
  ? unwired('The network adapters', 'NETWORKS') : require('./networks/traced');
const senderModule: Module<typeof import('./adapters/webhook-sender')> = () => require('./adapters/webhook-sender');
// required on first use (not imported): they pull the pinned fetch (node:http, node:https, node:zlib), which a
// function that never fetches a link then does not load at start. A module that imports zod stays imported: a
// require()d one would keep all of zod (its locales too) in the bundle.
const gatewayModule: Module<typeof import('./net/media-gateway')> = () => require('./net/media-gateway');
const ownMediaModule: Module<typeof import('./app/media/own-media')> = () => require('./app/media/own-media');
const stripeModule: Module<typeof import('./adapters/stripe/stripe-payments')> = () => process.env.SPA_WIRE_BILLING === 'off'
  ? unwired('Stripe', 'BILLING') : require('./adapters/stripe/stripe-payments');
const ssmBillingModule: Module<typeof import('./adapters/aws/ssm-billing-settings')> = () => process.env.SPA_WIRE_BILLING === 'off'
  ? unwired('Stripe', 'BILLING') : require('./adapters/aws/ssm-billing-settings');
// local stand-ins: never in a Lambda bundle (SPA_WIRE_LOCAL is "off" in every one)
const localSchedulerModule: Module<typeof import('./adapters/dynamodb/table-scheduler')> = () => process.env.SPA_WIRE_LOCAL === 'off'
  ? unwired('The table-backed scheduler (local runtime only)', 'LOCAL') : require('./adapters/dynamodb/table-scheduler');
const sandboxLinksModule: Module<typeof import('./networks/sandbox-links')> = () => process.env.SPA_WIRE_LOCAL === 'off'
  ? unwired('The sandbox (local runtime only)', 'LOCAL') : require('./networks/sandbox-links');
const localCipherModule: Module<typeof import('./adapters/local/local-cipher')> = () => process.env.SPA_WIRE_LOCAL === 'off'
  ? unwired('The local key cipher (local runtime only)', 'LOCAL') : require('./adapters/local/local-cipher');
const outboxModule: Module<typeof import('./adapters/local/outbox-mailer')> = () => process.env.SPA_WIRE_LOCAL === 'off'
  ? unwired('The outbox mailer (local runtime only)', 'LOCAL') : require('./adapters/local/outbox-mailer');
// --- AI drafts
const bedrockModule: Module<typeof import('./adapters/aws/bedrock-drafter')> = () => process.env.SPA_WIRE_AI === 'off'
  ? unwired('The AI drafter', 'AI') : require('./adapters/aws/bedrock-drafter');
const openAiModule: Module<typeof import('./adapters/openai-drafter')> = () => process.env.SPA_WIRE_AI === 'off'
  ? unwired('The AI drafter', 'AI') : require('./adapters/openai-drafter');
const localDrafterModule: Module<typeof import('./adapters/local/local-drafter')> = () => process.env.SPA_WIRE_LOCAL === 'off'
  ? unwired('The local drafter (local runtime only)', 'LOCAL') : require('./adapters/local/local-drafter');
// --- Local speed
const localResultsModule: Module<typeof import('./adapters/local/in-process-results')> = () => process.env.SPA_WIRE_LOCAL === 'off'
  ? unwired('The in-process result signal (local runtime only)', 'LOCAL') : require('./adapters/local/in-process-results');

/**
 * OAuth client registrations: SSM Parameter Store in AWS (when OAUTH_SSM_PREFIX is set), with the environment
 * (`<NAME>_CLIENT_ID` / `_SECRET`) as the fallback and, locally, the only source. An unreadable Parameter Store is
 * logged and the environment answers.
 */
function oauthClients(cfg: Config): OAuthClients {
  const env = envClients(cfg);
  if (cfg.RUNTIME !== 'aws' || !cfg.OAUTH_SSM_PREFIX) return env;
  const ssm = new (ssmModule().SsmOAuthClients)(ssmClientModule().ssmClient(cfg.AWS_REGION), cfg.OAUTH_SSM_PREFIX);
  const guarded: OAuthClients = {
    get: (platform) => ssm.get(platform).catch((err: unknown) => {
      log.warn('oauth client registrations could not be read from SSM', { prefix: cfg.OAUTH_SSM_PREFIX, ...errorFields(err) });
      return undefined;
    }),
  };
  return firstOf(guarded, env);
}

/**
 * Stripe's settings: in AWS only from SSM Parameter Store under BILLING_SSM_PREFIX (SecureStrings; never
 * Lambda environment variables); locally from the environment. No secret key → billing is not configured.
 */
function billingSettings(cfg: Config): () => Promise<import('./adapters/stripe/stripe-payments').StripeSettings | undefined> {
  if (cfg.RUNTIME === 'aws') {
    const prefix = cfg.BILLING_SSM_PREFIX;
    if (!prefix) return async () => undefined;
    return () => ssmBillingModule().ssmBillingSettings(ssmClientModule().ssmClient(cfg.AWS_REGION), prefix);
  }
  const env = cfg as unknown as Record<string, string | undefined>;
  return async () => cfg.STRIPE_SECRET_KEY
    ? { secretKey: cfg.STRIPE_SECRET_KEY, webhookSecret: cfg.STRIPE_WEBHOOK_SECRET, prices: stripeModule().priceTableFrom((name) => env[name]) }
    : undefined;
}

/**
 * An object whose members are built on first read (then kept); a member in `given` is taken as it is. No member can
 * be assigned afterwards: what a function (or a test) uses is decided when its dependencies are built.
 */
function builtOnFirstRead<T extends object>(factories: { [K in keyof T]: () => T[K] }, given: Partial<T> = {}): T {
  const out = {} as T;
  for (const key of Object.keys(factories) as Array<keyof T>) {
    if (given[key] !== undefined) {
      Object.defineProperty(out, key, { value: given[key], enumerable: true, writable: false, configurable: false });
      continue;
    }
    let built = false;
    let value: T[keyof T];
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: false,
      get: () => { if (!built) { value = factories[key](); built = true; } return value; },
    });
  }
  return Object.freeze(out);
}

/** What the caller decides when the dependencies are built, besides the configuration. */
export interface Given extends Partial<Deps> {
  /** The embedded engines' in-process transports (the local runtime's): the DynamoDB and SQS clients built here use them. */
  transports?: EngineTransports;
}

/**
 * Wires adapters to ports once per cold start: AWS services in Lambda; the embedded stand-ins (same DynamoDB, SQS
 * and S3 adapters pointed at local endpoints, plus the outbox mailer, a local key and the table-backed scheduler)
 * in local mode. The only module besides infra/local that chooses adapters. A member in `given` replaces the one
 * the configuration would choose (the local runtime's clock; a test's fakes), decided here, once; so do the
 * transports the SDK clients use (none given → each client reaches its endpoint over HTTP).
 */
export function buildDeps(cfg: Config, given: Given = {}): Deps {
  const { transports = {}, ...members } = given;
  let tableRef: TableRef | undefined;
  const local = cfg.RUNTIME === 'local';
  const table = (): TableRef => (tableRef ??= { doc: dynamoModule().documentClient({ region: cfg.AWS_REGION, endpoint: cfg.DYNAMODB_ENDPOINT, requestHandler: transports.dynamodb }), tableName: cfg.TABLE_NAME });
  const db = dynamoModule;
  const publicBaseUrl = trimBase(cfg.PUBLIC_BASE_URL);
  // Adapters built here read the container's clock at each call (the given one, else the system clock).
  const liveClock: Clock = { now: () => deps.clock.now(), sleep: (ms) => deps.clock.sleep(ms) };
  const shared = builtOnFirstRead<{ queue: Queue; blobs: Blobs; uploads: MediaStore; webhooks: WebhookStore }>({
    queue: () => { const m = sqsModule(); return new m.SqsQueue(m.sqsClient({ region: cfg.AWS_REGION, endpoint: cfg.SQS_ENDPOINT, requestHandler: transports.sqs }), { clock: liveClock }); },
    blobs: () => { const m = s3Module(); const s3 = m.s3Client({ region: cfg.AWS_REGION, endpoint: cfg.S3_ENDPOINT }); return new m.S3Blobs(s3, s3, cfg.MEDIA_BUCKET); },
    uploads: () => new (db().DynamoMediaStore)(table()),
    webhooks: () => new (db().DynamoWebhookStore)(table()),
  });
  const deps: Deps = builtOnFirstRead<Deps>({
    // Reads answer the plan in force now (a change due at the period end or after a grace period applies on read).
    accounts: () => new (db().PlanLifecycleAccounts)(new (db().DynamoAccountStore)(table()), { get clock() { return deps.clock; }, get billing() { return deps.billing; } }),
    keys: () => new (db().DynamoKeyStore)(table()),
    brands: () => new (db().DynamoBrandStore)(table()),
    tokens: () => new (db().DynamoTokenStore)(table()),
    counters: () => new (db().DynamoCounterStore)(table(), () => Math.floor(deps.clock.now() / 1000)),
    mailer: () => local
      ? new (outboxModule().OutboxMailer)(path.join(cfg.DATA_DIR, 'outbox'), liveClock)
      : new (sesModule().SesMailer)(sesModule().sesClient(cfg.AWS_REGION), cfg.MAIL_FROM),
    cipher: () => local
      ? new (localCipherModule().LocalKeyCipher)(path.join(cfg.DATA_DIR, 'local.key'))
      : new (kmsModule().KmsEnvelopeCipher)(kmsModule().kmsClient(cfg.AWS_REGION), cfg.KMS_KEY_ID),
    queue: () => shared.queue,
    scheduler: (): Scheduler => local
      ? new (localSchedulerModule().TableScheduler)(table(), liveClock)
      : new (schedulerModule().EventBridgeScheduler)(schedulerModule().schedulerClient(cfg.AWS_REGION), {
        groupName: cfg.SCHEDULE_GROUP, targetArn: cfg.SCHEDULER_TARGET_ARN, roleArn: cfg.SCHEDULER_ROLE_ARN, dlqArn: cfg.SCHEDULER_DLQ_ARN || undefined,
      }),
    blobs: () => shared.blobs,
    uploads: () => shared.uploads,
    connections: () => new (db().DynamoConnectionStore)(table()),
    posts: () => new (db().DynamoPostStore)(table()),
    locks: () => new (db().DynamoLockStore)(table()),
    postChanges: () => new (db().DynamoPostChangeStore)(table()),
    analytics: () => new (db().DynamoAnalyticsStore)(table()),
    pace: () => new (db().DynamoPaceStore)(table()),
    events: () => new (db().DynamoEventSink)(table()),
    webhooks: () => shared.webhooks,
    webhookSender: () => new (senderModule().HttpWebhookSender)({ allowPrivate: cfg.ALLOW_PRIVATE_TARGETS, clock: liveClock }),
    schedules: () => new (db().DynamoScheduleStore)(table()),
    recurring: () => new (db().DynamoRecurringStore)(table()),
    slots: () => new (db().DynamoSlotStore)(table()),
    networks: () => {
      const adapters = process.env.SPA_WIRE_PUBLISH === 'off' ? buildVerifyOnlyRegistry(cfg) : registryModule().buildRegistry(cfg);
      const registry = tracedModule().tracedRegistry(adapters);
      // sandbox mode (local only): posts to simulated networks link to the sandbox inbox
      if (!local || !cfg.SANDBOX_ORIGIN) return registry;
      const simulated = new Set(cfg.SANDBOX_NETWORKS.split(',').map((n) => n.trim()).filter(isPlatformName));
      return sandboxLinksModule().withSandboxLinks(registry, cfg.SANDBOX_ORIGIN, simulated);
    },
    // the networks' facts (no send code): every function has them
    networkLimits: () => networkLimits(),
    // The sign-in side is network code (wired with `networks`); the client registrations are configuration.
    oauth: () => builtOnFirstRead<Deps['oauth']>({ providers: () => (process.env.SPA_WIRE_NETWORKS === 'off' ? unwired('The OAuth sign-in providers', 'NETWORKS') : buildOAuthProviders(cfg)), clients: () => oauthClients(cfg) }),
    // Own uploads (${PUBLIC_BASE_URL}/media/…) are answered from the table and the bucket; other links go out.
    media: () => ownMediaModule().withOwnMedia(gatewayModule().mediaGateway(cfg.ALLOW_PRIVATE_TARGETS), deps),
    clock: () => systemClock,
    // Dashboard
    sessions: () => new (db().DynamoSessionStore)(table()),
    // --- MCP server
    mcpOAuth: () => new (db().DynamoMcpOAuthStore)(table()),
    guardrails: () => new (db().DynamoGuardrailStore)(table()),
    apps: () => new (db().McpAppRegistry)(new (db().DynamoMcpOAuthStore)(table())),
    approvals: () => new (db().DynamoApprovalStore)(table()),
    branding: () => new (db().DynamoBrandingStore)(table()),
    // --- AI drafts
    ai: () => draftProvider(cfg),
    // --- Lean publish path
    publishContext: () => new (db().DynamoPublishContextStore)(table()),
    fanOut: () => new WebhookFanOut(() => deps),
    settings: () => Object.freeze({
      publicBaseUrl, runtime: cfg.RUNTIME, publishQueueUrl: cfg.PUBLISH_QUEUE_URL, webhookQueueUrl: cfg.WEBHOOK_QUEUE_URL, fireQueueUrl: cfg.FIRE_QUEUE_URL,
      networkTimeoutMs: cfg.NETWORK_TIMEOUT_MS, publishWaitMs: cfg.PUBLISH_WAIT_MS,
      reconcileAfterMs: cfg.RECONCILE_AFTER_SECONDS * 1000, claimsDeadBefore: local ? cfg.LOCAL_STARTED_AT_MS : undefined,
      rateLimitsOff: local && cfg.DISABLE_RATE_LIMITS,
      aiTimeoutMs: cfg.AI_TIMEOUT_MS,
      connectionExpiringDays: cfg.CONNECTION_EXPIRING_DAYS,
    }),
    // --- Local speed: the worker shares the process with the API locally; in AWS only the poll notices
    resultSignal: () => (local ? new (localResultsModule().InProcessResults)() : polledResults),
    // --- Billing
    payments: () => new (stripeModule().StripePayments)(billingSettings(cfg), cfg.STRIPE_API_BASE),
    billing: () => new (db().DynamoBillingStore)(table()),
    // --- Dashboard charts
    daySummaries: () => new (db().DynamoDaySummaryStore)(table()),
  }, members);
  return deps;
}

/**
 * The AI drafting provider: AI_PROVIDER, else Bedrock in AWS and the deterministic local drafter locally.
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
  return new (localDrafterModule().LocalDrafter)(networkLimits());
}

let wired: Deps | undefined;

/** The dependencies of the Lambda exports: built from the environment on first use, once per cold start. */
function defaultDeps(): Deps {
  wired ??= buildDeps(config());
  return wired;
}

/**
 * A function's handler, made by `make` from where its dependencies come from: the export Lambda runs reads the
 * default wiring (defaultDeps); `using(deps)` makes the same handler over dependencies built elsewhere (the local
 * runtime's container, a test's). Workers type `make`'s argument by their declaration,
 * `() => DepsOf<typeof worker>` (shared/wiring/declaration.ts), so reading anything else is a compile error.
 */
export function wiredHandler<H extends object>(make: (deps: () => Deps) => H): Wired<H> {
  return Object.assign(make(defaultDeps), { using: (deps: Deps) => make(() => deps) });
}

/** A handler export together with the factory of the same handler over given dependencies. */
export type Wired<H> = H & { readonly using: (deps: Deps) => H };

// In Lambda, a bad environment stops the function at init with one line naming the variable (shared/config.ts),
// never as a 500 on every request.
if (process.env.AWS_LAMBDA_FUNCTION_NAME) config();

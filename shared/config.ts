import * as z from 'zod';
import type { NetworkDescriptor } from './networks/descriptor';
import { NETWORKS } from './networks/network-list';

/** AI drafts: the Bedrock model used when BEDROCK_MODEL_ID is not set (the CDK stack grants this one). */
export const DEFAULT_BEDROCK_MODEL_ID = 'amazon.nova-lite-v1:0';

const bool = z.enum(['0', '1', 'true', 'false']).optional().transform((v) => v === '1' || v === 'true');

/**
 * The environment, parsed once with zod: the service's own keys here, and each network's (`<NAME>_API_BASE`,
 * `_AUTH_BASE`, `_CLIENT_ID`, `_CLIENT_SECRET`, `MASTODON_POLL_MS`…) in its folder's config-keys.ts, merged in from the
 * registry of networks (shared/networks/network-list.ts). In AWS the CDK stack sets these; locally the local runtime
 * does. Defaults are the production values; numbers that are product rules live in shared/domain, not here.
 */
const SERVICE_KEYS = {
  RUNTIME: z.enum(['aws', 'local']).default('aws'),
  TABLE_NAME: z.string().min(1).default('social-publishing'),
  PUBLISH_QUEUE_URL: z.string().default(''),
  WEBHOOK_QUEUE_URL: z.string().default(''),
  FIRE_QUEUE_URL: z.string().default(''),
  MEDIA_BUCKET: z.string().default(''),
  SCHEDULE_GROUP: z.string().default('default'),
  SCHEDULER_ROLE_ARN: z.string().default(''),
  SCHEDULER_TARGET_ARN: z.string().default(''),
  SCHEDULER_DLQ_ARN: z.string().default(''),
  KMS_KEY_ID: z.string().default(''),
  MAIL_FROM: z.string().default('no-reply@example.com'),
  /** Public origin of the API, used in emailed links and connect links. */
  PUBLIC_BASE_URL: z.string().url().default('http://localhost:3000'),
  /** Behind the edge stack (-c waf=true): the secret origin header that makes the forwarded viewer address trusted. */
  EDGE_ORIGIN_SECRET: z.string().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  // Local stand-ins (set by the local runtime; absent in AWS).
  DYNAMODB_ENDPOINT: z.string().optional(),
  SQS_ENDPOINT: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  ALLOW_PRIVATE_TARGETS: bool,
  /** Benchmarks only: turns request rate limits off. Honoured only when RUNTIME=local; never set by CDK. */
  DISABLE_RATE_LIMITS: bool,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Largest JSON request body accepted, bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_000_000),
  /** Each network call's deadline and the API's wait for worker results (decisions.md "Publishing"). */
  NETWORK_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  PUBLISH_WAIT_MS: z.coerce.number().int().positive().default(25_000),
  /**
   * The reconciliation sweep (docs/operations.md "Reconciliation sweep"): a network still queued or claimed this
   * long is re-driven through its claim. The default is the publish worker's visibility timeout (functions/workers.ts),
   * past which no live worker holds a claim (its 120 s Lambda timeout has ended the invocation).
   */
  RECONCILE_AFTER_SECONDS: z.coerce.number().int().positive().default(150),
  /**
   * Local runtime only (set by it at start, ms): no worker of this process existed before, so every claim older
   * than this belongs to a worker that died with the previous process. Ignored unless RUNTIME=local.
   */
  LOCAL_STARTED_AT_MS: z.coerce.number().int().nonnegative().optional(),
  /**
   * OAuth networks (decisions.md "Local mode and test seams", docs/operations.md): where the service's client id and
   * secret per network are read (`<NAME>_CLIENT_ID`, `_CLIENT_SECRET`: its folder's config-keys.ts) in AWS: SSM under this
   * prefix, the environment as a fallback.
   */
  OAUTH_SSM_PREFIX: z.string().optional(),
  // --- Billing ---
  /** Locally: Stripe's secret key and webhook signing secret; unset = billing not configured (503 billing_unavailable). */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Locally: the price id of each plan and interval (STRIPE_PRICE_<PLAN>_<MONTH|YEAR>). */
  STRIPE_PRICE_STARTER_MONTH: z.string().optional(), STRIPE_PRICE_STARTER_YEAR: z.string().optional(),
  STRIPE_PRICE_PRO_MONTH: z.string().optional(), STRIPE_PRICE_PRO_YEAR: z.string().optional(),
  STRIPE_PRICE_AGENCY_MONTH: z.string().optional(), STRIPE_PRICE_AGENCY_YEAR: z.string().optional(),
  STRIPE_PRICE_SCALE_MONTH: z.string().optional(), STRIPE_PRICE_SCALE_YEAR: z.string().optional(),
  /** Tests only: the origin of a Stripe API stand-in (e.g. http://127.0.0.1:12111). */
  STRIPE_API_BASE: z.string().url().optional(),
  /** In AWS: the SSM path holding the same names as SecureString parameters (the secrets are never env vars there). */
  BILLING_SSM_PREFIX: z.string().optional(),
  // --- sandbox ---
  /** Local mode: `sandbox` (default) simulates all 19 networks in process; `live` reaches the real networks. */
  NETWORKS: z.enum(['sandbox', 'live']).default('sandbox'),
  /** Set by the local runtime in sandbox mode: the one private origin the address guard allows (its /sandbox/ paths). */
  SANDBOX_ORIGIN: z.string().url().optional(),
  /** Set with it: the networks whose API base is the sandbox's (comma-separated); their post links go to the inbox. */
  SANDBOX_NETWORKS: z.string().default(''),
  // --- AI drafts: the provider (default: bedrock in AWS, local in local mode)
  AI_PROVIDER: z.enum(['bedrock', 'openai', 'local']).optional(),
  /** Bedrock model (or inference profile) id; the CDK stack grants bedrock:InvokeModel on this model only. */
  BEDROCK_MODEL_ID: z.string().min(1).default(DEFAULT_BEDROCK_MODEL_ID),
  BEDROCK_REGION: z.string().optional(),
  /** Send the answer's JSON Schema as Bedrock structured output (only for models that support it, e.g. Claude 4.5). */
  BEDROCK_STRUCTURED_OUTPUT: bool,
  /** Bedrock Runtime endpoint override (tests point it at a loopback fake). */
  BEDROCK_ENDPOINT: z.string().url().optional(),
  /** An OpenAI-compatible chat completions endpoint (e.g. a local Ollama: http://127.0.0.1:11434/v1). */
  AI_BASE_URL: z.string().url().optional(),
  AI_MODEL: z.string().default('llama3.1'),
  AI_API_KEY: z.string().optional(),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  /** Days ahead of a sign-in's lapse that connection.expiring is sent (and the connection shows `expiring`). */
  CONNECTION_EXPIRING_DAYS: z.coerce.number().int().min(1).max(60).default(7),
  // --- MCP for browser clients
  /**
   * Browser origins allowed on the MCP endpoint and the OAuth endpoints (comma-separated, e.g.
   * `https://inspector.example.org,http://localhost:6274`), besides PUBLIC_BASE_URL's own; any other Origin gets 403.
   */
  MCP_ALLOWED_ORIGINS: z.string().default(''),
};

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every registered network's configuration keys as one shape (typed: `Config['MASTODON_POLL_MS']` is a number). */
type NetworkKeys = UnionToIntersection<(typeof NETWORKS)[number]['config']>;

/** The configuration schema: the service's keys and those of `networks` (their folders' config-keys.ts). */
const schemaOf = (networks: readonly NetworkDescriptor[]) =>
  z.object({ ...SERVICE_KEYS, ...(Object.assign({}, ...networks.map((d) => d.config)) as NetworkKeys) });

const EnvSchema = schemaOf(NETWORKS);

export type Config = z.infer<typeof EnvSchema>;

/** An environment variable with a value the service cannot run with; the message is one line naming it. */
export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function allowed(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value') return `one of ${issue.values.map(String).join(', ')}`;
  if (issue.code === 'invalid_format') return issue.format === 'url' ? 'an absolute URL (e.g. https://host)' : `a ${issue.format}`;
  if (issue.code === 'invalid_type') return `a ${issue.expected}`;
  if (issue.code === 'too_small') return `at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : ''}`;
  return issue.message;
}

/**
 * Parses the environment (with the keys of `networks`, by default the registry's). An empty value means unset (its default applies). A value the service cannot use
 * throws ConfigError with one line naming the variable and what is allowed: the local runtime stops at start and a
 * Lambda at init (shared/container.ts), instead of every request answering 500.
 */
export function parseConfig(env: Record<string, string | undefined>, networks: readonly NetworkDescriptor[] = NETWORKS): Config {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const res = (networks === NETWORKS ? EnvSchema : schemaOf(networks)).safeParse(set);
  if (res.success) return res.data;
  const issue = res.error.issues[0];
  const name = String(issue.path[0] ?? '?');
  throw new ConfigError(name, `Invalid environment variable ${name}=${JSON.stringify(set[name] ?? '')}: expected ${allowed(issue)} (or leave it empty for the default)`);
}

let cached: Config | undefined;

export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Forget the parsed environment (the local runtime and tests change it). */
export function resetConfig(): void {
  cached = undefined;
}

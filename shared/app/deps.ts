import type { AccountStore, BrandStore, CounterStore, KeyStore, TokenStore } from '../ports/store';
import type { Mailer } from '../ports/mailer';
import type { Clock } from '../ports/clock';
import type { Cipher } from '../ports/cipher';
import type { Queue } from '../ports/queue';
import type { Scheduler } from '../ports/scheduler';
import type { Blobs } from '../ports/blobs';
import type { MediaStore } from '../ports/media';
import type { ConnectionStore, EventFanOut, EventSink, LockStore, PaceStore, PostStore, PublishContextStore } from '../ports/publishing';
import type { WebhookSender, WebhookStore } from '../ports/webhooks';
import type { Registry } from '../ports/networks';
import type { NetworkLimits } from '../ports/network-limits';
import type { OAuthNetworks } from '../ports/oauth';
import type { RecurringStore, ScheduleStore, SlotStore } from '../ports/schedules';
import type { MediaGateway } from '../ports/media-gateway';
import type { BillingStore, PaymentProvider } from '../ports/billing';
import type { SessionStore } from '../ports/sessions';
import type { McpOAuthStore } from '../ports/mcp-oauth';
import type { AppRegistry, GuardrailStore } from '../ports/guardrails';
import type { ApprovalStore } from '../ports/approvals';
import type { BrandingStore } from '../ports/branding';
import type { DraftProvider } from '../ports/ai';
import type { ResultSignal } from '../ports/result-signal';
import type { PostChangeStore } from '../ports/post-changes';
import type { DaySummaryStore } from '../ports/day-summaries';
import type { AnalyticsStore } from '../ports/analytics';

/** Everything a use case may need, built once per cold start by shared/container.ts. */
export interface Deps {
  accounts: AccountStore;
  keys: KeyStore;
  brands: BrandStore;
  tokens: TokenStore;
  counters: CounterStore;
  mailer: Mailer;
  clock: Clock;
  cipher: Cipher;
  queue: Queue;
  scheduler: Scheduler;
  blobs: Blobs;
  connections: ConnectionStore;
  posts: PostStore;
  locks: LockStore;
  pace: PaceStore;
  events: EventSink;
  schedules: ScheduleStore;
  /** Recurring schedules (shared/app/schedule/recurring.ts). */
  recurring: RecurringStore;
  /** A brand's posting slots held by schedules (shared/app/schedule/slots.ts). */
  slots: SlotStore;
  networks: Registry;
  /** What use cases know of each network without its send code: limits, media rules, delete / edit / read-back, post links. */
  networkLimits: NetworkLimits;
  /** OAuth networks: each one's sign-in provider and the service's client registration (shared/app/oauth). */
  oauth: OAuthNetworks;
  media: MediaGateway;
  /** Webhook endpoints, deliveries and their log; the HTTP sender with the address checks (shared/app/webhooks). */
  webhooks: WebhookStore;
  webhookSender: WebhookSender;
  /** Media uploads and hosted upload links (shared/app/media). */
  uploads: MediaStore;
  // --- Billing: the payment provider (Stripe) and the billing state in the table (shared/app/billing).
  payments: PaymentProvider;
  billing: BillingStore;
  // Dashboard
  /** Dashboard sessions, stored by hash (shared/app/dashboard/sign-in.ts). */
  sessions: SessionStore;
  // --- MCP server
  /** The MCP OAuth authorization server: clients, AI apps, codes and tokens (shared/app/mcp-oauth). */
  mcpOAuth: McpOAuthStore;
  /** Guardrails per actor (API key or AI app), enforced in the publish path (shared/app/guardrails). */
  guardrails: GuardrailStore;
  /** AI apps (MCP OAuth clients) an account has; the MCP feature plugs in its registry. */
  apps: AppRegistry;
  /** Posts held for approval and the approval rules (shared/app/approvals). */
  approvals: ApprovalStore;
  /** White label of the account and its brands (shared/app/dashboard/branding.ts). */
  branding: BrandingStore;
  // --- AI drafts
  /** The drafting provider: Bedrock, an OpenAI-compatible endpoint, or the local drafter (shared/app/ai). */
  ai: DraftProvider;
  // --- Lean publish path
  /** The account's brands, connections, guardrails and approval rules in one read (shared/app/publish). */
  publishContext: PublishContextStore;
  /** Hands recorded events to webhook endpoints: the explicit step after recording (shared/app/webhooks/fan-out.ts). */
  fanOut: EventFanOut;
  /** Deployment settings, read-only: a test that needs others replaces the whole object. */
  settings: Readonly<{
    publicBaseUrl: string;
    runtime: 'aws' | 'local';
    publishQueueUrl: string;
    /** The webhook delivery queue (its own queue, not the publish queue). */
    webhookQueueUrl: string;
    /** The fire queue of scheduled posts (the per-minute fan-out queues one message per due post). */
    fireQueueUrl: string;
    /** Each network call's deadline (ms). */
    networkTimeoutMs: number;
    /** How long POST /api/post waits for the workers' results (ms). */
    publishWaitMs: number;
    /** A network still queued or claimed this long is re-driven by the reconciliation sweep (ms). */
    reconcileAfterMs?: number;
    /** Local runtime: claims older than this (ms) belong to workers of a previous process, dead for sure. */
    claimsDeadBefore?: number;
    /** Local benchmarks only: request rate limits off. */
    rateLimitsOff?: boolean;
    // --- AI drafts
    /** Deadline of one provider call (ms; default 20 s). */
    aiTimeoutMs?: number;
    // --- Connection health
    /** Days ahead of a sign-in's lapse that connection.expiring is sent (default 7). */
    connectionExpiringDays?: number;
  }>;
  // --- Local speed
  /** Wakes a request waiting for a post's results when a worker settles one of its networks (polling stays). */
  resultSignal: ResultSignal;
  // --- Post life cycle
  /** Deletes and edits of published posts, per network (shared/app/post-changes). */
  postChanges: PostChangeStore;
  // --- Dashboard charts
  /** The Overview's final daily summaries (shared/app/dashboard/overview-charts.ts). */
  daySummaries: DaySummaryStore;
  // --- Analytics
  /** Post analytics per network and the sweep's due index (shared/app/analytics). */
  analytics: AnalyticsStore;
}

/** The deployment settings use cases read (public URL, queues, deadlines). */
export type Settings = Deps['settings'];

/** What a network adapter's context is built from (shared/app/network-context.ts): adapters, pacing, media, time. */
export type NetworkDeps = Pick<Deps, 'clock' | 'media' | 'pace' | 'settings'>;


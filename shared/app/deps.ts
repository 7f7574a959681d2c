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
import type { Registry } from '../networks/registry';
import type { OAuthNetworks } from './oauth/clients';
import type { ScheduleStore } from '../ports/schedules';
import type { FetchedMedia } from '../networks/types';
import type { BillingStore, PaymentProvider } from '../ports/billing';
import type { SessionStore } from '../ports/sessions';
import type { McpOAuthStore } from '../ports/mcp-oauth';
import type { AppRegistry, GuardrailStore } from '../ports/guardrails';
import type { ApprovalStore } from '../ports/approvals';
import type { BrandingStore } from '../ports/branding';
import type { DraftProvider } from '../ports/ai';

/** Media links: a one-time check before sending and a capped download for networks that need the bytes. */
export interface MediaGateway {
  probe(url: string): Promise<{ ok: true; content_type: string; kind: 'image' | 'video'; bytes?: number } | { ok: false; reason: string }>;
  download(url: string, signal: AbortSignal): Promise<FetchedMedia>;
  /** A document (PDF) link, same checks and cap as download (issue 15: LinkedIn document posts). */
  downloadDocument?(url: string, signal: AbortSignal): Promise<FetchedMedia>;
  /** Throws UnsafeTargetError when a credential URL (instance, site, webhook) points at a non-public address. */
  checkTarget(url: string): Promise<void>;
  /**
   * The fetch network adapters get (ctx.fetch): every hop is address-checked (public only unless
   * ALLOW_PRIVATE_TARGETS) and connected to the checked address, so a credential URL cannot be rebound.
   */
  fetch: typeof fetch;
}

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
  networks: Registry;
  /** OAuth networks: each one's sign-in provider and the service's client registration (shared/app/oauth). */
  oauth: OAuthNetworks;
  media: MediaGateway;
  /** Webhook endpoints, deliveries and their log; the HTTP sender with the address checks (shared/app/webhooks). */
  webhooks: WebhookStore;
  webhookSender: WebhookSender;
  /** Media uploads and hosted upload links (shared/app/media). */
  uploads: MediaStore;
  // --- Billing (issue 13): the payment provider (Stripe) and the billing state in the table (shared/app/billing).
  payments: PaymentProvider;
  billing: BillingStore;
  // Dashboard (issue 16)
  /** Dashboard sessions, stored by hash (shared/app/dashboard/sign-in.ts). */
  sessions: SessionStore;
  // --- MCP server (issue 11)
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
  // --- AI drafts (issue 12)
  /** The drafting provider: Bedrock, an OpenAI-compatible endpoint, or the local drafter (shared/app/ai). */
  ai: DraftProvider;
  // --- Lean publish path (issue 18)
  /** The account's brands, connections, guardrails and approval rules in one read (shared/app/publish). */
  publishContext: PublishContextStore;
  /** Hands recorded events to webhook endpoints: the explicit step after recording (shared/app/webhooks/fan-out.ts). */
  fanOut: EventFanOut;
  settings: {
    publicBaseUrl: string;
    runtime: 'aws' | 'local';
    publishQueueUrl: string;
    /** The webhook delivery queue (its own queue, not the publish queue). */
    webhookQueueUrl: string;
    /** Each network call's deadline (ms). */
    networkTimeoutMs: number;
    /** How long POST /api/post waits for the workers' results (ms). */
    publishWaitMs: number;
    /** Local benchmarks only: request rate limits off. */
    rateLimitsOff?: boolean;
    // --- AI drafts (issue 12)
    /** Deadline of one provider call (ms; default 20 s). */
    aiTimeoutMs?: number;
  };
}

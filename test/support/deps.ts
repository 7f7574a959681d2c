import { randomUUID } from 'node:crypto';
import type { Deps } from '../../shared/app/deps';
import type { Email, Mailer } from '../../shared/ports/mailer';
import type { Clock } from '../../shared/ports/clock';
import type { Cipher } from '../../shared/ports/cipher';
import type { Queue, QueueMessage } from '../../shared/ports/queue';
import type { CronInvocation, ScheduledInvocation, Scheduler } from '../../shared/ports/scheduler';
import type { Blobs } from '../../shared/ports/blobs';
import { documentClient, type TableRef } from '../../shared/adapters/dynamodb/client';
import { DynamoAccountStore } from '../../shared/adapters/dynamodb/accounts';
import { DynamoKeyStore } from '../../shared/adapters/dynamodb/api-keys';
import { DynamoBrandStore } from '../../shared/adapters/dynamodb/brands';
import { DynamoTokenStore } from '../../shared/adapters/dynamodb/tokens';
import { DynamoCounterStore } from '../../shared/adapters/dynamodb/counters';
import { ensureTable, startDynamo, type Service } from '../../infra/local/services';
import { DynamoConnectionStore } from '../../shared/adapters/dynamodb/connections';
import { DynamoPostStore } from '../../shared/adapters/dynamodb/posts';
import { DynamoLockStore } from '../../shared/adapters/dynamodb/locks';
import { DynamoPaceStore } from '../../shared/adapters/dynamodb/pace';
import { DynamoEventSink } from '../../shared/adapters/dynamodb/events';
import { DynamoWebhookStore } from '../../shared/adapters/dynamodb/webhooks';
import { HttpWebhookSender } from '../../shared/adapters/webhook-sender';
import { WebhookFanOut } from '../../shared/app/webhooks/fan-out';
import { DynamoPublishContextStore } from '../../shared/adapters/dynamodb/publish-context';
import { DynamoScheduleStore } from '../../shared/adapters/dynamodb/schedules';
import { buildOAuthProviders, buildRegistry } from '../../shared/networks/registry';
import { envClients } from '../../shared/app/oauth/clients';
import { mediaGateway } from '../../shared/container';
import { DynamoMediaStore } from '../../shared/adapters/dynamodb/media';
import { DynamoBillingStore } from '../../shared/adapters/dynamodb/billing';
import { StripePayments } from '../../shared/adapters/stripe/stripe-payments';
import { withOwnMedia } from '../../shared/app/media/own-media';
import { config } from '../../shared/config';
import { DynamoSessionStore } from '../../shared/adapters/dynamodb/sessions';
import { DynamoMcpOAuthStore } from '../../shared/adapters/dynamodb/mcp-oauth';
import { McpAppRegistry } from '../../shared/adapters/mcp-app-registry';
import { DynamoGuardrailStore } from '../../shared/adapters/dynamodb/guardrails';
import { DynamoApprovalStore } from '../../shared/adapters/dynamodb/approvals';
import { DynamoBrandingStore } from '../../shared/adapters/dynamodb/branding';
import { sendToNetwork } from '../../shared/app/publish/send-to-network';
import type { PublishMessage } from '../../shared/app/publish/create-post';
import { LocalDrafter } from '../../shared/adapters/local/local-drafter';

/** Billing as on a server without Stripe configured (checkout and portal: 503 billing_unavailable). */
export const unconfiguredPayments = new StripePayments(async () => undefined);

/** An in-memory embedded DynamoDB (dynalite) with the project's table, one per test file. */
export async function startTestTable(): Promise<{ table: TableRef; stop: () => Promise<void>; endpoint: string }> {
  const dynamo: Service = await startDynamo(undefined);
  const tableName = `t-${randomUUID()}`;
  await ensureTable(dynamo.endpoint, tableName);
  const doc = documentClient({ region: 'us-east-1', endpoint: dynamo.endpoint });
  return { table: { doc, tableName }, endpoint: dynamo.endpoint, stop: async () => { doc.destroy(); await dynamo.stop(); } };
}

/** Records emails instead of sending them. */
export class MemoryMailer implements Mailer {
  readonly sent: Email[] = [];
  async send(email: Email) { this.sent.push(email); }
}

/** A clock that follows real time, shifted by hand (`advance`), for tests where time must also pass. */
export class OffsetClock implements Clock {
  private offset = 0;
  now() { return Date.now() + this.offset; }
  advance(ms: number) { this.offset += ms; }
  get ms() { return this.now(); }
  set ms(value: number) { this.offset = value - Date.now(); }
  sleep(ms: number) { return new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms))); }
}

/** A clock tests move by hand; it stands still otherwise. */
export class ManualClock implements Clock {
  constructor(public ms: number = Date.UTC(2026, 10, 21, 12, 0, 0)) {}
  now() { return this.ms; }
  advance(ms: number) { this.ms += ms; }
  /** Waits real time (workers run meanwhile); this clock still stands still. */
  sleep(ms: number) { return new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms))); }
}

/**
 * Records sent messages; with `worker` set, each publish message is delivered in the background as the worker
 * Lambda would (so a use case that waits for results sees them).
 */
export class MemoryQueue implements Queue {
  readonly sent: Array<{ queueUrl: string; message: QueueMessage }> = [];
  worker?: Deps;
  readonly running: Promise<void>[] = [];
  failWith?: Error;
  async sendAll(queueUrl: string, messages: QueueMessage[]) {
    if (this.failWith) throw this.failWith;
    for (const message of messages) {
      this.sent.push({ queueUrl, message });
      if (this.worker && queueUrl === this.worker.settings.publishQueueUrl) this.running.push(sendToNetwork(this.worker, message.body as PublishMessage));
    }
  }
  /** Waits for every background delivery started so far. */
  async drain() { await Promise.all(this.running); }
}

export class MemoryScheduler implements Scheduler {
  readonly scheduled = new Map<string, ScheduledInvocation>();
  readonly crons = new Map<string, CronInvocation>();
  async scheduleOnce(inv: ScheduledInvocation) { this.scheduled.set(inv.name, inv); }
  async scheduleCron(inv: CronInvocation) { this.crons.set(inv.name, inv); }
  async cancel(name: string) { this.scheduled.delete(name); this.crons.delete(name); }
}

/** Readable in tests, and strict about contexts like the real ciphers: a value decrypts only under its own context. */
const reversible: Cipher = {
  encrypt: async (p, context) => `test:${Buffer.from(JSON.stringify({ p, c: context ?? null })).toString('base64')}`,
  decrypt: async (c, context) => {
    const { p, c: bound } = JSON.parse(Buffer.from(c.slice(5), 'base64').toString()) as { p: string; c: Record<string, string> | null };
    if (bound && JSON.stringify(Object.entries(bound).sort()) !== JSON.stringify(Object.entries(context ?? {}).sort())) throw new Error('Ciphertext failed authentication');
    return p;
  },
};

const noBlobs: Blobs = {
  presignPut: async () => { throw new Error('blobs not configured in this test'); },
  presignGet: async () => { throw new Error('blobs not configured in this test'); },
  head: async () => undefined,
  readRange: async () => new Uint8Array(),
  delete: async () => undefined,
  putStream: async () => { throw new Error('blobs not configured in this test'); },
};

/** Deps over the embedded table, with in-memory mail/queue/scheduler and a manual clock. */
export function testDeps(table: TableRef, overrides: Partial<Deps> = {}, opts: { frozenClock?: boolean } = {}) {
  const mailer = new MemoryMailer();
  const clock = opts.frozenClock ? new ManualClock(Date.now()) : new OffsetClock();
  const queue = new MemoryQueue();
  const scheduler = new MemoryScheduler();
  const deps: Deps = {
    accounts: new DynamoAccountStore(table),
    keys: new DynamoKeyStore(table),
    brands: new DynamoBrandStore(table),
    tokens: new DynamoTokenStore(table),
    counters: new DynamoCounterStore(table, () => Math.floor(clock.now() / 1000)),
    connections: new DynamoConnectionStore(table),
    posts: new DynamoPostStore(table),
    locks: new DynamoLockStore(table),
    pace: new DynamoPaceStore(table),
    events: new DynamoEventSink(table),
    schedules: new DynamoScheduleStore(table),
    networks: buildRegistry(config()),
    oauth: { providers: buildOAuthProviders(config()), clients: envClients(config()) },
    media: mediaGateway(true),
    uploads: new DynamoMediaStore(table),
    webhooks: new DynamoWebhookStore(table),
    webhookSender: new HttpWebhookSender({ allowPrivate: true }),
    payments: unconfiguredPayments,
    billing: new DynamoBillingStore(table),
    sessions: new DynamoSessionStore(table),
    mcpOAuth: new DynamoMcpOAuthStore(table),
    guardrails: new DynamoGuardrailStore(table),
    apps: new McpAppRegistry(new DynamoMcpOAuthStore(table)),
    approvals: new DynamoApprovalStore(table),
    branding: new DynamoBrandingStore(table),
    ai: new LocalDrafter(),
    publishContext: new DynamoPublishContextStore(table),
    // As in the container: recorded events fan out to webhook endpoints (messages land in queue.sent under memory://webhooks).
    fanOut: new WebhookFanOut(() => deps),
    mailer, clock, queue, scheduler, cipher: reversible, blobs: noBlobs,
    settings: { publicBaseUrl: 'https://api.test', runtime: 'local', publishQueueUrl: 'memory://publish', webhookQueueUrl: 'memory://webhooks', networkTimeoutMs: 4_000, publishWaitMs: 6_000 },
    ...overrides,
  };
  // As in the container: own uploads (${publicBaseUrl}/media/…) are answered from the table and blobs (read at call time).
  deps.media = withOwnMedia(deps.media, deps);
  return { deps, mailer, clock, queue, scheduler };
}

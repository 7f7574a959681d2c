import { randomUUID } from 'node:crypto';
import type { Deps } from '../../shared/app/deps';
import type { Email, Mailer } from '../../shared/ports/mailer';
import { ManualClock, OffsetClock } from './clock';
import type { Cipher } from '../../shared/ports/cipher';
import type { Queue, QueueMessage } from '../../shared/ports/queue';
import type { CronInvocation, ScheduledInvocation, Scheduler } from '../../shared/ports/scheduler';
import type { Blobs } from '../../shared/ports/blobs';
import { documentClient, type TableRef } from '../../shared/adapters/dynamodb/client';
import { ensureTable, startDynamo, type Service } from '../../infra/local/services';
import { buildDeps } from '../../shared/container';
import { parseConfig } from '../../shared/config';
import { sendToNetwork } from '../../shared/app/publish/send-to-network';
import type { PublishMessage } from '../../shared/app/publish/publish-message';
import { applyChange } from '../../shared/app/post-changes/apply-change';
import type { PostChangeMessage } from '../../shared/app/post-changes/change-message';
import { fanOutDue, FireMessage } from '../../shared/app/schedule/due-fan-out';
import { fireScheduled } from '../../shared/app/schedule/fire';

/** A table of the embedded DynamoDB: where it listens, and a document client for tests that read it directly. */
export type TestTable = TableRef & { endpoint: string };

/** An in-memory embedded DynamoDB (dynalite) with the project's table, one per test file. */
export async function startTestTable(): Promise<{ table: TestTable; stop: () => Promise<void>; endpoint: string }> {
  const dynamo: Service = await startDynamo(undefined);
  const tableName = `t-${randomUUID()}`;
  await ensureTable(dynamo.endpoint, tableName);
  const doc = documentClient({ region: 'us-east-1', endpoint: dynamo.endpoint });
  return { table: { doc, tableName, endpoint: dynamo.endpoint }, endpoint: dynamo.endpoint, stop: async () => { doc.destroy(); await dynamo.stop(); } };
}

/** Records emails instead of sending them. */
export class MemoryMailer implements Mailer {
  readonly sent: Email[] = [];
  async send(email: Email) { this.sent.push(email); }
}

export { ManualClock } from './clock';

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
      if (!this.worker || queueUrl !== this.worker.settings.publishQueueUrl) continue;
      // the publish worker takes deletes and edits (`change`) apart from publish messages, as functions/queue/publish-worker.ts does
      const body = message.body as PublishMessage | PostChangeMessage;
      this.running.push('change' in body ? applyChange(this.worker, body) : sendToNetwork(this.worker, body));
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

/**
 * The per-minute fan-out of scheduled posts at the clock's time, then each fire message it queued, run by the fire
 * worker's use case (fireScheduled) one after the other, as the queue would deliver them (the delay until run_at is
 * not waited for: a message run early loses the claim, as one delivered early would). Answers the fire messages run.
 */
export async function fireDue(deps: Deps, queue: MemoryQueue): Promise<number> {
  const before = queue.sent.length;
  await fanOutDue(deps);
  const fires = queue.sent.slice(before).filter((s) => s.queueUrl === deps.settings.fireQueueUrl);
  for (const f of fires) await fireScheduled(deps, FireMessage.parse(f.message.body).schedule_id);
  return fires.length;
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
  copy: async () => { throw new Error('blobs not configured in this test'); },
  putStream: async () => { throw new Error('blobs not configured in this test'); },
};

/** Members a test puts in place of the container's own: fixed, or made from the ones the configuration chooses. */
export type DepsOverrides = Partial<Deps> | ((chosen: Deps) => Partial<Deps>);

/**
 * Deps as the production container wires them (shared/container.ts `buildDeps`, local runtime) over the embedded
 * table, with only what a test must own replaced: in-memory mail, queue and scheduler, a test clock, a readable
 * cipher, no blob storage. Settings come from the configuration: https://api.test, memory:// queues (fire messages
 * are run by `fireDue`), 4 s network
 * deadline, 6 s publish wait, private targets allowed (the fakes listen on 127.0.0.1), no Stripe, the local drafter.
 * `overrides` are given to the container when it is built (a built container's members cannot be replaced); `rebuild`
 * builds another over the same table and fakes with more members replaced.
 */
export function testDeps(table: Pick<TestTable, 'tableName' | 'endpoint'>, overrides: DepsOverrides = {}, opts: { frozenClock?: boolean } = {}) {
  const mailer = new MemoryMailer();
  const clock = opts.frozenClock ? new ManualClock(Date.now()) : new OffsetClock();
  const queue = new MemoryQueue();
  const scheduler = new MemoryScheduler();
  const cfg = parseConfig({
    ...process.env,
    RUNTIME: 'local', TABLE_NAME: table.tableName, DYNAMODB_ENDPOINT: table.endpoint, AWS_REGION: 'us-east-1',
    PUBLIC_BASE_URL: 'https://api.test', PUBLISH_QUEUE_URL: 'memory://publish', WEBHOOK_QUEUE_URL: 'memory://webhooks', FIRE_QUEUE_URL: 'memory://fire',
    NETWORK_TIMEOUT_MS: '4000', PUBLISH_WAIT_MS: '6000', ALLOW_PRIVATE_TARGETS: '1',
    STRIPE_SECRET_KEY: undefined, OAUTH_SSM_PREFIX: undefined, SANDBOX_ORIGIN: undefined, AI_PROVIDER: 'local', LOCAL_STARTED_AT_MS: undefined,
  });
  let given: Partial<Deps> = { mailer, clock, queue, scheduler, cipher: reversible, blobs: noBlobs };
  const rebuild = (more: DepsOverrides): Deps => {
    const chosen = buildDeps(cfg, given);
    given = { ...given, ...(typeof more === 'function' ? more(chosen) : more) };
    return buildDeps(cfg, given);
  };
  const deps = rebuild(overrides);
  return { deps, mailer, clock, queue, scheduler, rebuild };
}

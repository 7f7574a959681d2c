import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startTestTable, type TestTable } from '../support/deps';
import { DynamoWebhookStore } from '../../shared/adapters/dynamodb/webhooks';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { DELIVERY_RETENTION_SECONDS } from '../../shared/domain/webhooks';
import { FORMAT_VERSION } from '../../shared/domain/format-version';
import type { DeliveryAttempt, WebhookDelivery, WebhookEndpoint } from '../../shared/ports/webhooks';

let table: TestTable;
let stop: () => Promise<void>;
let store: DynamoWebhookStore;
/** A document client without the format stamp: writes items as the previous release did (no `v`). */
let previous: DynamoDBDocumentClient;
let previousClient: DynamoDBClient;
beforeAll(async () => {
  ({ table, stop } = await startTestTable());
  store = new DynamoWebhookStore(table);
  previousClient = new DynamoDBClient({ region: 'us-east-1', endpoint: table.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  previous = DynamoDBDocumentClient.from(previousClient);
});
afterAll(async () => { previousClient.destroy(); await stop(); });

const T0 = Date.parse('2026-03-01T10:00:00Z');
const raw = async (key: { pk: string; sk: string }) =>
  (await table.doc.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }))).Item;

function endpoint(accountId = `acc_${randomUUID()}`): WebhookEndpoint {
  return { id: `wh_${randomUUID()}`, account_id: accountId, url: 'https://hooks.example.com/in', events: ['post.published'], secret_enc: 'enc:s', created_at: new Date(T0).toISOString() };
}

function delivery(over: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    delivery_id: randomUUID(), webhook_id: `wh_${randomUUID()}`, account_id: 'acc_1', event_id: `evt_${randomUUID()}`, type: 'post.published',
    body: '{"type":"post.published"}', state: 'pending', attempts: 0, max_attempts: 9, next_attempt_at: T0, queued_attempt: 1, rescues: 0,
    created_at: new Date(T0).toISOString(), updated_at: new Date(T0).toISOString(), ...over,
  };
}

function attempt(d: WebhookDelivery, n: number, startedMs: number): DeliveryAttempt {
  return {
    delivery_id: d.delivery_id, webhook_id: d.webhook_id, event_id: d.event_id, type: d.type, attempt: n, status_code: 500, ok: false,
    duration_ms: 12, error: 'HTTP 500', next_attempt_at: new Date(startedMs + 60_000).toISOString(), created_at: new Date(startedMs).toISOString(),
  };
}

describe('webhook store (embedded DynamoDB)', () => {
  it('a delivery reads back as written: no keys, no format version, no expiry', async () => {
    const d = delivery();
    expect(await store.putDelivery(d)).toBe(true);
    expect(await raw(keys.delivery(d.delivery_id))).toMatchObject({ v: FORMAT_VERSION, expires_at: Math.floor(T0 / 1000) + DELIVERY_RETENTION_SECONDS });
    expect(await store.getDelivery(d.delivery_id)).toEqual(d);
    expect((await store.due(T0, 1000)).filter((x) => x.delivery_id === d.delivery_id)).toEqual([d]);
  });

  it('the delivery log answers each try as recorded, newest first, paged by the try before', async () => {
    const d = delivery();
    const tries = [attempt(d, 1, T0), attempt(d, 2, T0 + 60_000), attempt(d, 3, T0 + 360_000)];
    for (const [i, a] of tries.entries()) await store.addAttempt(a, T0 + [0, 60_000, 360_000][i]);
    const first = await store.listAttempts(d.webhook_id, 2);
    expect(first.attempts).toEqual([tries[2], tries[1]]);
    expect(first.next_before).toBe(keys.deliveryAttempt(d.webhook_id, T0 + 60_000, d.delivery_id, 2).sk);
    const rest = await store.listAttempts(d.webhook_id, 2, first.next_before!);
    expect(rest).toEqual({ attempts: [tries[0]], next_before: null });
    expect(await raw(keys.deliveryAttempt(d.webhook_id, T0, d.delivery_id, 1))).toMatchObject({ v: FORMAT_VERSION, expires_at: Math.floor(T0 / 1000) + DELIVERY_RETENTION_SECONDS });
  });

  it('endpoints read back as written, one by one and listed under their account', async () => {
    const a = endpoint();
    const b = endpoint(a.account_id);
    await store.create(a);
    await store.create(b);
    await expect(store.create(a)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(await store.get(a.account_id, a.id)).toEqual(a);
    expect((await store.list(a.account_id)).sort((x, y) => x.id.localeCompare(y.id))).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)));
    expect(await store.rotate(a.account_id, a.id, 'enc:new', a.secret_enc, T0 + 86_400_000, new Date(T0).toISOString())).toBe(true);
    expect(await store.get(a.account_id, a.id)).toEqual({ ...a, secret_enc: 'enc:new', previous_secret_enc: 'enc:s', previous_secret_until: T0 + 86_400_000, rotated_at: new Date(T0).toISOString() });
    expect(await store.delete(a.account_id, a.id)).toBe(true);
    expect(await store.delete(a.account_id, a.id)).toBe(false);
    expect(await store.rotate(a.account_id, a.id, 'enc:x', 'enc:new', T0, new Date(T0).toISOString())).toBe(false);
  });

  it('items of the previous format (no v) still read, and their changes keep working', async () => {
    const d = delivery();
    await previous.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.delivery(d.delivery_id), ...keys.deliveryDue(d.delivery_id, T0), ...d, expires_at: 1 } }));
    expect(await raw(keys.delivery(d.delivery_id))).not.toHaveProperty('v');
    expect(await store.getDelivery(d.delivery_id)).toEqual(d);
    expect(await store.claim(d.delivery_id, 1, T0, T0 - 1)).toBe(T0);
    expect(await store.finish(d.delivery_id, 1, T0, { state: 'succeeded', status_code: 200, error: null, at: new Date(T0).toISOString() })).toBe(true);
    const { next_attempt_at: _due, ...settled } = d;
    expect(await store.getDelivery(d.delivery_id)).toEqual({ ...settled, state: 'succeeded', attempts: 1, last_status_code: 200, last_error: null, updated_at: new Date(T0).toISOString() });
    const e = endpoint();
    await previous.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.webhook(e.account_id, e.id), ...e } }));
    expect(await store.get(e.account_id, e.id)).toEqual(e);
  });

  it('one of many concurrent claims of a try wins; only its claim records the outcome; a final delivery leaves the due index', async () => {
    const d = delivery();
    await store.putDelivery(d);
    expect(await store.putDelivery({ ...d, body: 'second fan-out' })).toBe(false);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => store.claim(d.delivery_id, 1, T0 + i, T0 - 1)));
    const won = claims.filter((c) => c !== undefined);
    expect(won).toHaveLength(1);
    // a fresh claim is not taken over; a wrong claim time cannot finish
    expect(await store.claim(d.delivery_id, 1, T0 + 100, T0 - 1)).toBeUndefined();
    expect(await store.finish(d.delivery_id, 1, won[0]! + 1000, { state: 'failed', status_code: 500, error: 'x', at: 'later' })).toBe(false);
    const next = T0 + 60_000;
    expect(await store.finish(d.delivery_id, 1, won[0]!, { state: 'pending', next_attempt_at: next, status_code: 500, error: 'HTTP 500', at: 'then' })).toBe(true);
    const after = await store.getDelivery(d.delivery_id);
    expect(after).toMatchObject({ state: 'pending', attempts: 1, next_attempt_at: next, last_status_code: 500, last_error: 'HTTP 500', updated_at: 'then' });
    expect(after).not.toHaveProperty('claimed_at');
    expect(after).not.toHaveProperty('claim_attempt');
    expect((await store.due(next, 1000)).map((x) => x.delivery_id)).toContain(d.delivery_id);
    // try 2 is claimed by one of racing workers, then closed
    const second = (await Promise.all(Array.from({ length: 4 }, () => store.claim(d.delivery_id, 2, next, next - 1)))).filter((c) => c !== undefined);
    expect(second).toHaveLength(1);
    expect(await store.finish(d.delivery_id, 2, second[0]!, { state: 'succeeded', status_code: 200, error: null, at: 'done' })).toBe(true);
    expect((await store.due(next + 86_400_000, 1000)).map((x) => x.delivery_id)).not.toContain(d.delivery_id);
    expect(await store.getDelivery(d.delivery_id)).not.toHaveProperty('next_attempt_at');
  });

  it('rescue, re-queue marks, reopen and abandon change a delivery only under their conditions', async () => {
    const d = delivery();
    await store.putDelivery(d);
    const rescued = await Promise.all(Array.from({ length: 5 }, () => store.rescue(d.delivery_id, T0, T0 + 90_000)));
    expect(rescued.filter(Boolean)).toHaveLength(1);
    expect(await store.getDelivery(d.delivery_id)).toMatchObject({ next_attempt_at: T0 + 90_000, rescues: 1 });
    await store.markQueued(d.delivery_id, 3);
    await store.markQueued(d.delivery_id, 2);
    expect(await store.getDelivery(d.delivery_id)).toMatchObject({ queued_attempt: 3 });
    expect(await store.reopen(d.delivery_id, 'failed', 10, T0, 'x')).toBe(false);
    await store.abandon(d.delivery_id, 'gave up', 'closed');
    const closed = await store.getDelivery(d.delivery_id);
    expect(closed).toMatchObject({ state: 'failed', last_error: 'gave up', updated_at: 'closed' });
    expect(closed).not.toHaveProperty('next_attempt_at');
    expect((await store.due(T0 + 86_400_000, 1000)).map((x) => x.delivery_id)).not.toContain(d.delivery_id);
    expect(await store.reopen(d.delivery_id, 'failed', 10, T0 + 200_000, 'reopened')).toBe(true);
    expect(await store.reopen(d.delivery_id, 'failed', 11, T0 + 200_000, 'again')).toBe(false);
    expect(await store.getDelivery(d.delivery_id)).toMatchObject({ state: 'pending', max_attempts: 10, next_attempt_at: T0 + 200_000, updated_at: 'reopened' });
    expect((await store.due(T0 + 200_000, 1000)).map((x) => x.delivery_id)).toContain(d.delivery_id);
  });
});

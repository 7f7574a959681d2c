import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fs from 'node:fs';
import path from 'node:path';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { TINY_PNG } from '../media/world';
import { WebhookReceiver } from '../webhooks/receiver';
import type { LocalRuntime } from '../../infra/local/runtime';
import { runAdmin } from '../../bin/social-admin';
import { documentClient } from '../../shared/adapters/dynamodb/client';
import { s3Client } from '../../shared/adapters/aws/s3-blobs';
import { sqsClient } from '../../shared/adapters/aws/sqs-queue';

let rt: LocalRuntime;
const telegram = new TelegramFake();
const rx = new WebhookReceiver();
type RuntimeFile = { table: string; bucket: string; dynamodb: string; s3: string; sqs: string; queues: Record<string, { url: string; dlqUrl: string }> };
let info: RuntimeFile;

beforeAll(async () => {
  await Promise.all([telegram.start(), rx.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  info = JSON.parse(fs.readFileSync(path.join(rt.dataDir, 'runtime.json'), 'utf8')) as RuntimeFile;
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), rx.stop()]);
});

async function admin(...args: string[]) {
  let out = '';
  let err = '';
  const code = await runAdmin([...args, '--local', '--data-dir', rt.dataDir], { out: (t) => { out += t; }, err: (t) => { err += t; }, env: {} });
  return { code, out, err };
}

async function scanTable(): Promise<Array<Record<string, unknown>>> {
  const doc = documentClient({ region: 'us-east-1', endpoint: info.dynamodb });
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new ScanCommand({ TableName: info.table, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** An account with a bit of everything: brands, keys, connection, posts, webhook and deliveries, a schedule, media. */
async function busyAccount(email: string) {
  const key = await signupThroughApi(rt.url, email);
  const api = client(rt.url, key);
  expect((await admin('set-plan', email, 'starter')).code).toBe(0);
  const brand = (await api('POST', '/api/brands', { name: 'Second' })).body.brand as { id: string };
  expect((await api('POST', '/api/keys', { name: 'extra' })).status).toBe(200);
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' }, brand_id: brand.id })).status).toBe(200);
  expect((await api('POST', '/api/webhooks', { url: rx.url(`/${email}`) })).status).toBe(201);
  const post = await api('POST', '/api/post', { platforms: ['telegram'], text: `from ${email}`, brand_id: brand.id, idempotency_key: `k-${email}` });
  expect(post.status).toBe(200);
  expect((await api('POST', '/api/schedule', { platforms: ['telegram'], text: 'later', brand_id: brand.id, run_at: new Date(Date.now() + 86_400_000).toISOString() })).status).toBe(200);
  const up = await api('POST', '/api/media/upload-url', { content_type: 'image/png', size_bytes: TINY_PNG.length });
  await (await fetch(up.body.upload_url as string, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(TINY_PNG) })).arrayBuffer();
  expect((await api('GET', `/api/media/finalize?path=${encodeURIComponent(up.body.path as string)}`)).status).toBe(200);
  expect((await api('POST', '/api/media/upload-link', {})).status).toBe(200);
  return { key, api, postId: post.body.post_id as string };
}

describe('social-admin against the local runtime', () => {
  it('find, set a plan, revoke keys, export, and delete an account leaving nothing in the table or the bucket', async () => {
    const victim = await busyAccount('leaving@example.com');
    const stays = await busyAccount('staying@example.com');
    await rt.drained(); // both accounts' webhook deliveries made

    const found = await admin('find', 'leaving@example.com');
    expect(found.code).toBe(0);
    const account = JSON.parse(found.out) as { id: string; plan: string; brands: number; connections: number; posts: number; webhooks: number; keys: Array<{ id: string }> };
    expect(account).toMatchObject({ email: 'leaving@example.com', plan: 'starter', brands: 2, connections: 1, posts: 1, webhooks: 1 });
    expect(account.keys).toHaveLength(2);
    expect((await admin('find', account.id)).out).toBe(found.out);
    expect((await admin('find', 'nobody@example.com')).code).toBe(5);

    expect((await admin('set-plan', account.id, 'pro')).out).toBe(`${account.id}: plan pro\n`);
    expect((await victim.api('GET', '/api/me')).body).toMatchObject({ account: expect.objectContaining({ id: account.id }) });
    expect(JSON.stringify((await victim.api('GET', '/api/me')).body)).toContain('"pro"');
    expect((await admin('set-plan', account.id, 'platinum')).code).toBe(2);

    const exported = await admin('export', 'leaving@example.com');
    const data = JSON.parse(exported.out) as { account_id: string; exported_items: number; items: Record<string, Array<Record<string, unknown>>>; media_objects: string[] };
    expect(data.account_id).toBe(account.id);
    expect(Object.keys(data.items)).toEqual(expect.arrayContaining(['ACC/ACCOUNT', 'ACC/BRAND', 'ACC/CON', 'ACC/WEBHOOK', 'POST', 'SCH', 'MEDIA', 'KEY', 'EMAIL']));
    expect(data.media_objects).toEqual([expect.stringMatching(new RegExp(`^media/${account.id}/med_`))]);
    expect(exported.out).not.toContain(telegram.token);
    expect(exported.out).not.toMatch(/_enc"|"hash"/);

    expect((await admin('revoke-keys', 'leaving@example.com')).out).toMatch(new RegExp(`^${account.id}: revoked 2 key\\(s\\)`));
    expect((await victim.api('GET', '/api/me')).status).toBe(401);

    const before = await scanTable();
    const stayingId = (JSON.parse((await admin('find', 'staying@example.com')).out) as { id: string }).id;
    const ofBystander = (items: Array<Record<string, unknown>>) => items.filter((i) => JSON.stringify(i).includes('staying@example.com') || JSON.stringify(i).includes(stayingId));
    const bystanderItems = ofBystander(before).length;
    expect(bystanderItems).toBeGreaterThan(10);
    expect((await admin('delete', account.id)).code).toBe(2); // needs --yes
    const deleted = await admin('delete', 'leaving@example.com', '--yes');
    expect(deleted.out).toMatch(new RegExp(`^${account.id}: deleted \\d+ item\\(s\\) and 1 media object\\(s\\)\\n$`));

    const after = await scanTable();
    // every id that appears in the export (brands, keys, posts, events, webhooks, deliveries, schedules, media…)
    const ownedIds = [...new Set([account.id, victim.postId, ...(exported.out.match(/"((?:acc|brd|pst|wh|sch|rec|med|con|key|evt)_[0-9A-Z]{26}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/g) ?? []).map((q) => q.slice(1, -1))])];
    expect(ownedIds.length).toBeGreaterThan(8);
    const leftovers = after.filter((i) => ownedIds.some((id) => JSON.stringify(i).includes(id)) || JSON.stringify(i).includes('leaving@example.com'));
    expect(leftovers).toEqual([]);
    const objects = await s3Client({ region: 'us-east-1', endpoint: info.s3 }).send(new ListObjectsV2Command({ Bucket: info.bucket, Prefix: `media/${account.id}/` }));
    expect(objects.Contents ?? []).toEqual([]);
    expect((await admin('find', account.id)).code).toBe(5);
    // the other account is untouched
    expect(ofBystander(after).length).toBe(bystanderItems);
    expect((await stays.api('GET', '/api/me')).status).toBe(200);
    const staying = JSON.parse((await admin('export', 'staying@example.com')).out) as { media_objects: string[] };
    expect(staying.media_objects).toHaveLength(1);
  });

  it('replay-dlq moves dead-lettered messages back to their queue', async () => {
    const sqs = sqsClient({ region: 'us-east-1', endpoint: info.sqs });
    const { dlqUrl } = info.queues.publish;
    const orphan = { post_id: 'pst_01ARZ3NDEKTSV4RRFFQ69G5FAV', platform: 'telegram', deferral: 0 };
    await sqs.send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: JSON.stringify(orphan) }));
    await sqs.send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: JSON.stringify(orphan) }));
    const res = await admin('replay-dlq', 'publish');
    expect(res).toMatchObject({ code: 0, out: 'moved 2 message(s) from the publish DLQ back to its queue\n' });
    const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
    expect(attrs.Attributes).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
    expect((await admin('replay-dlq', 'nope')).code).toBe(2);
  });
});

import fs from 'node:fs';
import { over } from '../support/invoke';
import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { getPost } from '../../shared/app/publish/queries';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { handler as publishWorkerHandler } from '../../functions/queue/publish-worker';
import { handler as webhookDeliveryHandler } from '../../functions/queue/webhook-delivery';
import { handler as dispatchHandler } from '../../functions/scheduler/dispatch';
import { FORMAT_VERSION } from '../../shared/ports/format-version';

const worker = over(publishWorkerHandler, () => w.deps);
const dispatcher = over(dispatchHandler, () => w.deps);
const webhookWorker = over(webhookDeliveryHandler, () => w.deps);

/**
 * A deploy while work is in flight: the new workers read what the previous release wrote (messages, timer inputs
 * and table items without `v`), and leave what a newer release wrote for it instead of dropping it.
 */

const sample = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'events', file), 'utf8')) as T;
const withBodies = (file: string, bodies: string[]): SQSEvent => {
  const base = sample<SQSEvent>(file).Records[0];
  return { Records: bodies.map((body, i) => ({ ...base, messageId: `m-${i}`, body })) };
};

let w: Awaited<ReturnType<typeof publishingWorld>>;
let raw: DynamoDBDocumentClient;
beforeAll(async () => {
  w = await publishingWorld();
  // the previous release's writer: a client without the format stamp
  raw = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: w.table.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }), { marshallOptions: { removeUndefinedValues: true } });
});
afterAll(async () => { raw.destroy(); await w.stop(); });

/** A post queued but not yet sent (the queue records its message; no background worker). */
async function queuedPost(text: string) {
  const acc = await w.newAccount('pro');
  await w.connectTelegram(w.deps, acc);
  w.queue.worker = undefined;
  try {
    const res = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text }), { source: 'api', wait: false });
    return { acc, postId: res.post_id, message: w.queue.sent.at(-1)!.message.body as Record<string, unknown> };
  } finally {
    w.queue.worker = w.deps;
  }
}

describe('format versions across a deploy', () => {
  it('messages and items the new code writes carry v', async () => {
    const { postId, message } = await queuedPost('stamped');
    expect(message.v).toBe(FORMAT_VERSION);
    const item = (await raw.send(new GetCommand({ TableName: w.table.tableName, Key: keys.post(postId) }))).Item!;
    expect(item.v).toBe(FORMAT_VERSION);
    // the domain never sees the format field
    expect(await w.deps.posts.get(postId)).not.toHaveProperty('v');
  });

  it('the publish worker sends a previous-format message (no v) of a previous-format post item (no v)', async () => {
    const { acc, postId, message } = await queuedPost('from the previous release');
    const item = (await raw.send(new GetCommand({ TableName: w.table.tableName, Key: keys.post(postId) }))).Item!;
    const { v: _v, ...previous } = item;
    await raw.send(new PutCommand({ TableName: w.table.tableName, Item: previous }));
    expect((await raw.send(new GetCommand({ TableName: w.table.tableName, Key: keys.post(postId) }))).Item).not.toHaveProperty('v');
    const { v: _mv, connection: _c, ...previousMessage } = message;
    const sends = w.telegramSends();
    const out = await worker(withBodies('sqs/publish-worker.json', [JSON.stringify(previousMessage)]));
    expect(out).toEqual({ batchItemFailures: [] });
    expect(w.telegramSends()).toBe(sends + 1);
    expect((await getPost(w.deps, acc.id, postId)).results[0]).toMatchObject({ ok: true, status: 'published' });
  });

  it('a newer release\'s publish message is brought back by SQS, neither sent nor dropped', async () => {
    const { acc, postId, message } = await queuedPost('from the next release');
    const sends = w.telegramSends();
    const before = (await getPost(w.deps, acc.id, postId)).results[0];
    const out = await worker(withBodies('sqs/publish-worker.json', [JSON.stringify({ ...message, v: FORMAT_VERSION + 1 })]));
    expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-0' }] });
    expect(w.telegramSends()).toBe(sends);
    expect((await getPost(w.deps, acc.id, postId)).results[0]).toEqual(before);
  });

  it('the webhook worker brings back a newer message and reads a previous-format one', async () => {
    const newer = JSON.stringify({ v: FORMAT_VERSION + 1, delivery_id: '6f1c2a4e-8b3d-8e5f-9a7b-0c1d2e3f4a5b', attempt: 1 });
    const previous = JSON.stringify({ delivery_id: '6f1c2a4e-8b3d-8e5f-9a7b-0c1d2e3f4a5b', attempt: 1 });
    // an unknown delivery is a no-op for a message the worker reads; the newer one is failed for SQS to retry
    expect(await webhookWorker(withBodies('sqs/webhook-delivery.json', [previous, newer]))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
  });

  it('the dispatcher fires a previous-format timer input and refuses to drop a newer one', async () => {
    const before = w.queue.sent.length;
    w.queue.worker = undefined;
    try {
      const { v: _v, ...previous } = sample<Record<string, unknown>>('scheduler/deferred.json');
      await dispatcher(previous);
      expect(w.queue.sent.slice(before).map((s) => s.message.body)).toEqual([{ v: FORMAT_VERSION, post_id: 'pst_01M8064SQJKQ31WMRSDYREHSP7', platform: 'telegram', deferral: 1 }]);
      await expect(dispatcher({ ...previous, v: FORMAT_VERSION + 1 })).rejects.toThrow(/newer/);
      expect(w.queue.sent.length).toBe(before + 1);
    } finally {
      w.queue.worker = w.deps;
    }
  });
});

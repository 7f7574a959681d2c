import fs from 'node:fs';
import { over } from '../support/invoke';
import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { getPost } from '../../shared/app/publish/queries';
import { handler as publishWorkerHandler } from '../../functions/queue/publish-worker';
import { handler as dispatchHandler } from '../../functions/scheduler/dispatch';

const worker = over(publishWorkerHandler, () => w.deps);
const dispatcher = over(dispatchHandler, () => w.deps);

const sample = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'events', file), 'utf8')) as T;

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(async () => { await w.stop(); });

const withBodies = (bodies: string[]): SQSEvent => {
  const base = sample<SQSEvent>('sqs/publish-worker.json').Records[0];
  return { Records: bodies.map((body, i) => ({ ...base, messageId: `m-${i}`, body })) };
};

describe('publish worker handler (SQS event)', () => {
  it('publishes the records of a batch and reports only the record that failed', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.queue.worker = undefined;
    try {
      const res = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'from the worker handler' }), { source: 'api', wait: false });
      const good = JSON.stringify(w.queue.sent.at(-1)!.message.body);
      const failing = JSON.stringify({ post_id: res.post_id, platform: 'telegram', deferral: 0 });
      const posts = Object.create(w.deps.posts) as typeof w.deps.posts;
      posts.get = async (id: string) => { if (id === 'pst_01ZZZZZZZZZZZZZZZZZZZZZZZZ') throw new Error('table unavailable'); return w.deps.posts.get(id); };
      const broken = { ...w.deps, posts };
      const out = await publishWorkerHandler.using(broken)(withBodies([good, JSON.stringify({ post_id: 'pst_01ZZZZZZZZZZZZZZZZZZZZZZZZ', platform: 'telegram', deferral: 0 }), failing]));
      expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
      expect(w.telegramSends()).toBe(1);
      expect((await getPost(w.deps, acc.id, res.post_id)).results[0]).toMatchObject({ ok: true, status: 'published' });
    } finally {
      w.queue.worker = w.deps;
    }
  });

  it('drops malformed records without failing the batch (they could never succeed)', async () => {
    const out = await worker(withBodies(['not json', JSON.stringify({ post_id: 'nope', platform: 'telegram', deferral: 0 }), JSON.stringify({ post_id: 'pst_01M8064SQJKQ31WMRSDYREHSP7', platform: 'myspace', deferral: 0 })]));
    expect(out).toEqual({ batchItemFailures: [] });
  });

  it('the sample event of events/ is accepted and is a no-op for an unknown post', async () => {
    expect(await worker(sample<SQSEvent>('sqs/publish-worker.json'))).toEqual({ batchItemFailures: [] });
  });
});

describe('dispatcher handler (scheduler input)', () => {
  it('re-queues a due deferral and refuses malformed input', async () => {
    const before = w.queue.sent.length;
    w.queue.worker = undefined;
    try {
      await dispatcher(sample('scheduler/deferred.json'));
      expect(w.queue.sent.slice(before).map((s) => s.message.body)).toEqual([{ v: 1, post_id: 'pst_01M8064SQJKQ31WMRSDYREHSP7', platform: 'telegram', deferral: 1 }]);
      await dispatcher({ kind: 'deferred', post_id: 'x', platform: 'telegram', deferral: 1 });
      await dispatcher({ kind: 'unknown' });
      expect(w.queue.sent.length).toBe(before + 1);
    } finally {
      w.queue.worker = w.deps;
    }
  });
});

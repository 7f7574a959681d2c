import { signInAtNetwork } from '../support/oauth-browser';
import { oauthWorld, registered } from '../support/oauth';
import { startOAuth, completeOAuth } from '../../shared/app/oauth/flow';
import { publishPost } from '../../shared/app/publish/create-post';
import type { PublishMessage } from '../../shared/app/publish/publish-message';
import { validatePost } from '../../shared/app/publish/request';
import { sendToNetwork, MAX_PROCESSING_MS } from '../../shared/app/publish/send-to-network';
import { postStatus } from '../../shared/app/publish/queries';
import { usageKeys } from '../../shared/domain/usage';
import type { Deps } from '../../shared/app/deps';
import type { Queue, QueueMessage } from '../../shared/ports/queue';
import type { ServiceEvent } from '../../shared/ports/publishing';
import type { Account } from '../../shared/ports/store';

/** Delivers undelayed publish messages in the background like the worker; delayed ones (resume steps) are only recorded. */
class StepQueue implements Queue {
  readonly sent: QueueMessage[] = [];
  readonly running: Promise<void>[] = [];
  constructor(private readonly worker: () => Deps) {}
  async sendAll(_url: string, messages: QueueMessage[]) {
    for (const m of messages) {
      this.sent.push(m);
      if (!m.delaySeconds) this.running.push(sendToNetwork(this.worker(), m.body as PublishMessage));
    }
  }
  resumes(): Array<{ body: PublishMessage; delaySeconds?: number }> {
    return this.sent.filter((m) => (m.body as PublishMessage).resume).map((m) => ({ body: m.body as PublishMessage, delaySeconds: m.delaySeconds }));
  }
}

let w: Awaited<ReturnType<typeof oauthWorld>>;
let queue: StepQueue;
const events: ServiceEvent[] = [];
beforeAll(async () => {
  w = await oauthWorld([{ name: 'linkedin' }]);
  queue = new StepQueue(() => w.deps);
  w.deps = w.rebuild({ queue });
  // every event handed to webhook endpoints (a network's outcome event is stored with its result)
  const inner = w.deps.fanOut;
  w.deps = w.rebuild({ fanOut: { prepare: async (e) => { events.push(e); return inner.prepare(e); }, forget: (id) => inner.forget(id) } });
});
afterAll(async () => { await Promise.all(queue.running); await w.stop(); });
beforeEach(() => { w.fake.reset(); events.length = 0; queue.sent.length = 0; w.deps = w.rebuild((chosen) => registered(chosen, w.fake, [{ name: 'linkedin' }])); });

async function connectedAccount(): Promise<Account> {
  const acc = await w.newAccount('pro');
  const { url } = await startOAuth(w.deps, acc, 'linkedin', {});
  const { query, nonce } = await signInAtNetwork(w.deps, url);
  expect(await completeOAuth(w.deps, 'linkedin', query, nonce)).toMatchObject({ kind: 'connected' });
  return acc;
}
/** Posts a video and waits for the background delivery too (it queues the resume step right after settling). */
const videoPost = async (acc: Account, text: string) => {
  const res = await publishPost(w.deps, acc, validatePost({ platform: 'linkedin', text, video_url: `${w.fake.url}/media/clip.mp4` }), { source: 'api', wait: true });
  await Promise.all(queue.running);
  return res;
};
const network = async (postId: string) => (await w.deps.posts.get(postId))!.networks[0];
const statusCalls = () => w.fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/posts/')).length;
const typesFor = (postId: string) => events.filter((e) => e.data.post_id === postId).map((e) => e.type);

describe('async media: processing → resume → published', () => {
  it('the API answers processing at once; the worker resumes with the stored state until published; post.published once', async () => {
    const acc = await connectedAccount();
    w.fake.processingPolls = 1;
    const res = await videoPost(acc, 'a video that takes a while');
    expect(res.results).toEqual([expect.objectContaining({ platform: 'linkedin', ok: true, status: 'processing', id: expect.stringMatching(/^post-/), url: expect.stringContaining('https://fake.example/p/') })]);
    const id = res.results[0].id!;

    // processing: resume state stored encrypted, step 1 queued with the adapter's delay; nothing emitted yet
    let net = await network(res.post_id);
    expect(net).toMatchObject({ state: 'processing', resumes: 1, reserved: true, result: { ok: true, status: 'processing', id } });
    expect(net.resume_enc).toMatch(/^test:/);
    expect(JSON.parse(await w.deps.cipher.decrypt(net.resume_enc!))).toEqual({ upload_id: id, step: '1' });
    expect(net.resume_at! - w.clock.now()).toBeGreaterThan(25_000);
    expect(queue.resumes()).toEqual([{ body: { v: 1, post_id: res.post_id, platform: 'linkedin', deferral: 0, resume: true, step: 1 }, delaySeconds: 30 }]);
    expect(typesFor(res.post_id)).toEqual([]);
    expect(await postStatus(w.deps, acc.id, 'linkedin', res.post_id)).toMatchObject({ status: 'processing' });

    // a message that arrives early is queued again for the rest of the wait; the network is not asked
    await sendToNetwork(w.deps, queue.resumes()[0].body);
    expect(statusCalls()).toBe(0);
    expect(queue.resumes()).toHaveLength(2);
    expect(queue.resumes()[1]).toEqual({ body: expect.objectContaining({ step: 1 }), delaySeconds: expect.any(Number) });
    expect(queue.resumes()[1].delaySeconds).toBeGreaterThan(25);

    // step 1: still processing → step 2
    w.clock.advance(31_000);
    await sendToNetwork(w.deps, queue.resumes()[0].body);
    expect(statusCalls()).toBe(1);
    net = await network(res.post_id);
    expect(net).toMatchObject({ state: 'processing', resumes: 2 });
    expect(JSON.parse(await w.deps.cipher.decrypt(net.resume_enc!))).toEqual({ upload_id: id, step: '2' });
    expect(queue.resumes().at(-1)).toEqual({ body: expect.objectContaining({ step: 2, resume: true }), delaySeconds: 30 });

    // a duplicate of step 1 is dropped
    await sendToNetwork(w.deps, queue.resumes()[1].body);
    expect(statusCalls()).toBe(1);

    // step 2: published → done, post.published once, counted once
    w.clock.advance(31_000);
    const step2 = queue.resumes().at(-1)!.body;
    await Promise.all([sendToNetwork(w.deps, step2), sendToNetwork(w.deps, step2)]);
    expect(statusCalls()).toBe(2);
    net = await network(res.post_id);
    expect(net).toMatchObject({ state: 'done', reserved: true, result: { ok: true, status: 'published', id } });
    expect(net.resume_enc).toBeUndefined();
    expect(typesFor(res.post_id)).toEqual(['post.published']);
    expect(events.find((e) => e.data.post_id === res.post_id)!.data).toMatchObject({ status: 'published', url: `https://fake.example/p/${id}` });
    expect(await postStatus(w.deps, acc.id, 'linkedin', id)).toMatchObject({ post_id: res.post_id, status: 'published' });
    expect(await w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()))).toBe(1);

    // once done, further copies change nothing
    await sendToNetwork(w.deps, step2);
    expect(typesFor(res.post_id)).toEqual(['post.published']);
    expect(statusCalls()).toBe(2);
  });

  it('a resume that finally fails records post.failed once and gives the post reservation back', async () => {
    const acc = await connectedAccount();
    w.fake.processingPolls = 5;
    const res = await videoPost(acc, 'a video the network loses');
    expect(res.results[0]).toMatchObject({ ok: true, status: 'processing' });
    const net = await network(res.post_id);
    // the network forgets the upload (its status call answers 404): the stored resume state is made to point at it
    const claimed = await w.deps.posts.claim(res.post_id, 'linkedin', ['processing'], w.clock.now());
    expect(claimed).toBeTruthy();
    await w.deps.posts.settle(res.post_id, 'linkedin', 'processing', net.result!, { resume_enc: await w.deps.cipher.encrypt(JSON.stringify({ upload_id: 'post-missing', step: '1' })) });
    w.clock.advance(31_000);
    await sendToNetwork(w.deps, queue.resumes()[0].body);
    expect(await network(res.post_id)).toMatchObject({ state: 'done', reserved: false, result: { ok: false, code: 'rejected', status: 'failed' } });
    expect(typesFor(res.post_id)).toEqual(['post.failed']);
    expect(await w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()))).toBe(0);
  });

  it('waits longer than SQS allows are served in 15-minute hops; after 24 hours of processing the post is closed as unknown', async () => {
    w.deps = w.rebuild((chosen) => registered(chosen, w.fake, [{ name: 'linkedin' }], { resumeAfterSeconds: 2_000 }));
    const acc = await connectedAccount();
    w.fake.processingPolls = 1000;
    const res = await videoPost(acc, 'a very slow upload');
    expect(queue.resumes()[0]).toEqual({ body: expect.objectContaining({ step: 1 }), delaySeconds: 900 });
    w.clock.advance(901_000);
    await sendToNetwork(w.deps, queue.resumes()[0].body);
    expect(statusCalls()).toBe(0);
    expect(queue.resumes()[1].delaySeconds).toBe(900);
    w.clock.advance(900_000);
    await sendToNetwork(w.deps, queue.resumes()[1].body);
    expect(statusCalls()).toBe(0);
    expect(queue.resumes()[2].delaySeconds).toBeGreaterThan(190);
    expect(queue.resumes()[2].delaySeconds).toBeLessThanOrEqual(200);
    w.clock.advance(200_000);
    await sendToNetwork(w.deps, queue.resumes()[2].body);
    expect(statusCalls()).toBe(1);
    expect(await network(res.post_id)).toMatchObject({ state: 'processing', resumes: 2 });

    w.clock.advance(MAX_PROCESSING_MS);
    await sendToNetwork(w.deps, queue.resumes().at(-1)!.body);
    expect(await network(res.post_id)).toMatchObject({ state: 'done', result: { ok: false, status: 'unknown', code: 'timed_out' } });
    expect(typesFor(res.post_id)).toEqual(['post.failed']);
  });
});

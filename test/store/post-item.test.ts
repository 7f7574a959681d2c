import { networkLimits } from '../../shared/networks/descriptor-limits';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { sendToNetwork } from '../../shared/app/publish/send-to-network';
import { getPost, postStatus } from '../../shared/app/publish/queries';
import { newId } from '../../shared/domain/ids';
import type { NetworkRecord, PostRecord } from '../../shared/ports/publishing';
import type { PlatformName } from '../../shared/domain/platforms';
import type { PublishMessage } from '../../shared/app/publish/publish-message';

/**
 * The post and its networks as one item: claims and settles are conditional updates of the network's
 * path in that item, against the embedded DynamoDB with real concurrency.
 */
let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());
beforeEach(() => { w.telegram.reset(); w.discord.reset(); });

function storedPost(platforms: PlatformName[]): { post: PostRecord; networks: NetworkRecord[] } {
  const id = newId('pst', w.clock.now());
  const post: PostRecord = {
    id, account_id: 'acc_01ZZZZZZZZZZZZZZZZZZZZZZZZ', brand_id: 'brd_01ZZZZZZZZZZZZZZZZZZZZZZZZ', brand_name: 'Acme', source: 'api',
    idempotency_key: null, platforms, payload: { text: 'one item', media: [], per_platform: {} }, created_at: new Date(w.clock.now()).toISOString(),
  };
  return { post, networks: platforms.map((platform) => ({ post_id: id, account_id: post.account_id, platform, state: 'queued', deferrals: 0, reserved: true })) };
}

describe('one item per post: claims and settles (embedded DynamoDB)', () => {
  it('20 concurrent claims of one network: exactly one wins, and it gets the post back without a read', async () => {
    const { post, networks } = storedPost(['telegram', 'discord', 'bluesky']);
    await w.deps.posts.create(post, networks);
    const claims = await Promise.all(Array.from({ length: 20 }, () => w.deps.posts.claim(post.id, 'discord', ['queued'], w.clock.now())));
    const winners = claims.filter((c) => c !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.post).toMatchObject({ id: post.id, payload: post.payload, platforms: post.platforms });
    expect(winners[0]!.networks.map((n) => [n.platform, n.state])).toEqual([['telegram', 'queued'], ['discord', 'sending'], ['bluesky', 'queued']]);
  });

  it('concurrent claims of different networks of one post all win; each settle keeps the others', async () => {
    const { post, networks } = storedPost(['telegram', 'discord', 'bluesky']);
    await w.deps.posts.create(post, networks);
    const claims = await Promise.all(post.platforms.map((p) => w.deps.posts.claim(post.id, p, ['queued'], w.clock.now())));
    expect(claims.every((c) => c !== undefined)).toBe(true);
    await Promise.all(post.platforms.map((p, i) => w.deps.posts.settle(post.id, p, 'done', { platform: p, ok: true, status: 'published', id: `n${i}` }, { reserved: true })));
    const after = (await w.deps.posts.get(post.id))!;
    expect(after.networks.map((n) => [n.platform, n.state, n.result?.id])).toEqual([['telegram', 'done', 'n0'], ['discord', 'done', 'n1'], ['bluesky', 'done', 'n2']]);
    expect(await w.deps.posts.findByNetworkId(post.account_id, 'discord', 'n1')).toBe(post.id);
  });

  it('a settle needs the claim: two concurrent settles of one claim, exactly one lands; a settled network is not claimed again', async () => {
    const { post, networks } = storedPost(['telegram']);
    await w.deps.posts.create(post, networks);
    expect(await w.deps.posts.claim(post.id, 'telegram', ['queued'], w.clock.now())).toBeDefined();
    const settles = await Promise.allSettled([
      w.deps.posts.settle(post.id, 'telegram', 'done', { platform: 'telegram', ok: true, status: 'published', id: 'first' }),
      w.deps.posts.settle(post.id, 'telegram', 'done', { platform: 'telegram', ok: false, status: 'failed', code: 'timed_out' }),
    ]);
    expect(settles.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    expect(settles.filter((s) => s.status === 'rejected')).toHaveLength(1);
    expect(await w.deps.posts.claim(post.id, 'telegram', ['queued', 'scheduled', 'processing'], w.clock.now())).toBeUndefined();
  });

  it('a deferred network is claimed only by the message of its current deferral', async () => {
    const { post, networks } = storedPost(['telegram']);
    await w.deps.posts.create(post, networks);
    await w.deps.posts.claim(post.id, 'telegram', ['queued'], w.clock.now());
    await w.deps.posts.settle(post.id, 'telegram', 'scheduled', { platform: 'telegram', ok: true, status: 'scheduled' }, { deferrals: 2 });
    expect(await w.deps.posts.claim(post.id, 'telegram', ['scheduled'], w.clock.now(), { deferrals: 1 })).toBeUndefined();
    expect(await w.deps.posts.claim(post.id, 'telegram', ['scheduled'], w.clock.now(), { deferrals: 2 })).toBeDefined();
  });

  it('the same publish message delivered to 5 workers at once publishes exactly once', async () => {
    const acc = await w.discordAccount();
    const res = await publishPost(w.deps, acc, validatePost({ platform: 'discord', text: 'redelivered' }, networkLimits()), { source: 'api', wait: false });
    const message = w.queue.sent.at(-1)!.message.body as PublishMessage;
    await Promise.all([...Array.from({ length: 5 }, () => sendToNetwork(w.deps, message)), w.queue.drain()]);
    expect(w.discord.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    const stored = await getPost(w.deps, acc.id, res.post_id);
    expect(stored.results).toEqual([expect.objectContaining({ platform: 'discord', ok: true, status: 'published' })]);
    expect(stored.events.map((e) => e.type)).toEqual(['post.published']);
    expect(await postStatus(w.deps, acc.id, 'discord', (stored.results[0] as { id?: string }).id!)).toMatchObject({ post_id: res.post_id, status: 'published' });
  });
});

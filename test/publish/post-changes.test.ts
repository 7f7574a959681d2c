import { networkLimits } from '../../shared/networks/descriptor-limits';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost, type PostRequest } from '../../shared/app/publish/request';
import { deletePost, editPost } from '../../shared/app/post-changes/request-change';
import { applyChange } from '../../shared/app/post-changes/apply-change';
import { createWebhook } from '../../shared/app/webhooks/endpoints';
import { type WebhookMessage } from '../../shared/app/webhooks/delivery-queue';
import { deliverWebhook } from '../../shared/app/webhooks/delivery-try';
import { verifyWebhook } from '../../shared/webhooks/verify';
import { getPost } from '../../shared/app/publish/queries';
import { activityPage } from '../../shared/app/dashboard/activity';
import type { PostChangeMessage } from '../../shared/app/post-changes/change-message';
import type { Account } from '../../shared/ports/store';
import { AppError } from '../../shared/domain/errors';
import { WebhookReceiver } from '../webhooks/receiver';

/**
 * Deleting and editing published posts through the use cases, over the embedded DynamoDB, with the worker run from
 * the in-memory queue as the publish worker runs it: results per network, idempotent repeat, the per-post lock under
 * real concurrency, post.deleted / post.edited events and webhooks.
 */
let w: Awaited<ReturnType<typeof publishingWorld>>;
let rx: WebhookReceiver;
beforeAll(async () => { w = await publishingWorld(); rx = await new WebhookReceiver().start(); });
afterAll(async () => { await rx.stop(); await w.stop(); });
beforeEach(async () => { await w.queue.drain(); w.queue.sent.length = 0; w.telegram.reset(); w.discord.reset(); rx.received.length = 0; w.queue.worker = w.deps; });

const publish = (account: Account, req: PostRequest) => publishPost(w.deps, account, validatePost(req, networkLimits()), { source: 'api', wait: true });

async function twoNetworkPost(text = 'hello world') {
  const acc = await w.newAccount('pro');
  await w.connectTelegram(w.deps, acc);
  await w.connectDiscord(w.deps, acc);
  const res = await publish(acc, { platforms: ['telegram', 'discord'], text });
  expect(res.results.map((r) => r.status)).toEqual(['published', 'published']);
  return { acc, postId: res.post_id, results: res.results };
}

const changeMessages = () => w.queue.sent.filter((s) => s.queueUrl === w.deps.settings.publishQueueUrl && 'change' in (s.message.body as object)).map((s) => s.message.body as PostChangeMessage);

describe('guardrails hold on delete and edit, as on publish', () => {
  const guard = (acc: Account, id: string, over: { allowed_brands?: string[] | null; allowed_platforms?: Array<'telegram' | 'discord'> | null }) => w.deps.guardrails.put({
    account_id: acc.id, kind: 'key', id, monthly_post_cap: null, allowed_platforms: null, allowed_brands: null, always_require_approval: false,
    updated_at: new Date().toISOString(), ...over,
  });

  it("a key limited to another brand can neither delete nor edit this brand's post (403 brand_not_allowed), and nothing is sent", async () => {
    const { acc, postId } = await twoNetworkPost(`guarded brand ${Date.now()}`);
    await guard(acc, 'key_otherbrand', { allowed_brands: ['brd_someotherbrand'] });
    w.queue.sent.length = 0;
    for (const attempt of [
      () => deletePost(w.deps, acc.id, postId, {}, { actor: { kind: 'key', id: 'key_otherbrand' } }),
      () => editPost(w.deps, acc.id, postId, { text: 'rewritten' }, { actor: { kind: 'key', id: 'key_otherbrand' } }),
    ]) {
      const err = await attempt().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('brand_not_allowed');
    }
    expect(w.queue.sent).toHaveLength(0);
  });

  it('a key limited to some networks changes only those: the others fail platform_not_allowed without a network call', async () => {
    const { acc, postId } = await twoNetworkPost(`guarded network ${Date.now()}`);
    await guard(acc, 'key_telegramonly', { allowed_platforms: ['telegram'] });
    w.discord.requests.length = 0;
    const out = await deletePost(w.deps, acc.id, postId, {}, { actor: { kind: 'key', id: 'key_telegramonly' } });
    expect(out.results.map((r) => [r.platform, r.status, r.code])).toEqual([['telegram', 'deleted', undefined], ['discord', 'failed', 'platform_not_allowed']]);
    expect(w.discord.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });
});

describe('DELETE /api/posts/{id}: deletePost', () => {
  it('deletes on every network, one message per network through the queue, and records post.deleted on the post', async () => {
    const { acc, postId, results } = await twoNetworkPost();
    w.queue.sent.length = 0;
    const out = await deletePost(w.deps, acc.id, postId);
    expect(out).toMatchObject({ post_id: postId, change_id: expect.stringMatching(/^chg_/) });
    expect(out.results).toEqual([
      { platform: 'telegram', ok: true, status: 'deleted', url: results[0].url },
      { platform: 'discord', ok: true, status: 'deleted', url: results[1].url },
    ]);
    expect(changeMessages()).toEqual([
      { v: 1, change: 'delete', post_id: postId, change_id: out.change_id, platform: 'telegram' },
      { v: 1, change: 'delete', post_id: postId, change_id: out.change_id, platform: 'discord' },
    ]);
    expect(w.telegram.methods.filter((m) => m === 'deleteMessage')).toHaveLength(1);
    expect(w.discord.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    const view = await getPost(w.deps, acc.id, postId);
    expect(view.events.filter((e) => e.type === 'post.deleted').map((e) => e.data.platform).sort()).toEqual(['discord', 'telegram']);
    // the activity log (dashboard Posts page, CSV) shows both networks as deleted, and the filter finds them
    const log = await activityPage(w.deps, acc.id, { status: 'deleted' });
    expect(log.posts.find((p) => p.id === postId)?.networks.map((n) => [n.platform, n.status])).toEqual([['telegram', 'deleted'], ['discord', 'deleted']]);
  });

  it('is idempotent: deleting again answers deleted without calling the network or recording another event', async () => {
    const { acc, postId } = await twoNetworkPost();
    await deletePost(w.deps, acc.id, postId);
    w.telegram.requests.length = 0; w.discord.requests.length = 0; w.queue.sent.length = 0;
    const again = await deletePost(w.deps, acc.id, postId);
    expect(again.change_id).toBeNull();
    expect(again.results.map((r) => [r.platform, r.ok, r.status])).toEqual([['telegram', true, 'deleted'], ['discord', true, 'deleted']]);
    expect(w.telegram.requests).toHaveLength(0);
    expect(w.discord.requests).toHaveLength(0);
    expect(w.queue.sent).toHaveLength(0);
    const view = await getPost(w.deps, acc.id, postId);
    expect(view.events.filter((e) => e.type === 'post.deleted')).toHaveLength(2);
  });

  it('?platforms= deletes only those; a network the post was not sent to is 400; another account\'s post is 404', async () => {
    const { acc, postId } = await twoNetworkPost();
    const out = await deletePost(w.deps, acc.id, postId, { platforms: ['discord'] });
    expect(out.results.map((r) => [r.platform, r.status])).toEqual([['discord', 'deleted']]);
    expect(w.telegram.methods).not.toContain('deleteMessage');
    await expect(deletePost(w.deps, acc.id, postId, { platforms: ['mastodon'] })).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
    const other = await w.newAccount('pro');
    await expect(deletePost(w.deps, other.id, postId)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('a network whose publish failed answers not_published; a network without a delete API answers not_supported, without a call', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    w.discord.failNext({ status: 400, body: { message: 'Cannot send an empty message', code: 50006 } });
    const res = await publish(acc, { platforms: ['telegram', 'discord'], text: 'one fails' });
    w.telegram.requests.length = 0; w.discord.requests.length = 0;
    const out = await deletePost(w.deps, acc.id, res.post_id);
    expect(out.results[0]).toMatchObject({ platform: 'telegram', status: 'deleted' });
    expect(out.results[1]).toMatchObject({ platform: 'discord', ok: false, status: 'failed', code: 'not_published', what: expect.any(String), fix: expect.any(String) });
    expect(w.discord.requests).toHaveLength(0);

    // Slack has no delete in this service: the result says so, with what and fix
    const stored = (await w.deps.posts.get(res.post_id))!;
    await w.deps.posts.create({ ...stored.post, id: 'pst_01HZZZZZZZZZZZZZZZZZZZZZZZ', platforms: ['slack'] }, [{
      post_id: 'pst_01HZZZZZZZZZZZZZZZZZZZZZZZ', account_id: acc.id, platform: 'slack', state: 'done', deferrals: 0, reserved: true,
      result: { platform: 'slack', ok: true, status: 'published', id: 'slack-1', url: 'https://slack.example/1' },
    }]);
    const slack = await deletePost(w.deps, acc.id, 'pst_01HZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(slack.results).toEqual([expect.objectContaining({ platform: 'slack', ok: false, code: 'not_supported', what: expect.stringContaining('cannot delete'), fix: expect.any(String) })]);
    expect(slack.change_id).toBeNull();
  });

  it('a network that fails the delete gives its code, and the change lock is released for the next try', async () => {
    const { acc, postId } = await twoNetworkPost();
    // a refusal the worker does not retry (Telegram's 400 for a message older than 48 hours)
    const telegramDelete = w.deps.networks.telegram!;
    const real = telegramDelete.delete!;
    telegramDelete.delete = async () => ({ ok: false, kind: 'rejected', code: 'rejected', error: "Telegram deleteMessage: Bad Request: message can't be deleted" });
    try {
      const out = await deletePost(w.deps, acc.id, postId, { platforms: ['telegram'] });
      expect(out.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: false, status: 'failed', code: 'rejected', error: expect.stringContaining("can't be deleted") })]);
    } finally {
      telegramDelete.delete = real;
    }
    const retry = await deletePost(w.deps, acc.id, postId, { platforms: ['telegram'] });
    expect(retry.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: true, status: 'deleted' })]);
  });
});

describe('PATCH /api/posts/{id}: editPost', () => {
  it('edits on each network with its own request, and records post.edited with the new text', async () => {
    const { acc, postId } = await twoNetworkPost('helo');
    const out = await editPost(w.deps, acc.id, postId, { text: 'hello', per_platform: { discord: { text: 'hello discord' } } });
    expect(out.results.map((r) => [r.platform, r.ok, r.status])).toEqual([['telegram', true, 'edited'], ['discord', true, 'edited']]);
    expect(w.telegram.requests.filter((r) => r.path.endsWith('/editMessageText')).map((r) => r.json)).toEqual([{ chat_id: '-1001234567890', message_id: 41, text: 'hello', parse_mode: 'HTML' }]);
    expect(w.discord.requests.filter((r) => r.method === 'PATCH').map((r) => r.json)).toEqual([{ content: 'hello discord', allowed_mentions: { parse: [] } }]);
    const events = (await getPost(w.deps, acc.id, postId)).events.filter((e) => e.type === 'post.edited');
    expect(events.map((e) => [e.data.platform, e.data.text]).sort()).toEqual([['discord', 'hello discord'], ['telegram', 'hello']]);
  });

  it('content checks run first, per network: a text too long for one network is refused there and sent to the other', async () => {
    const { acc, postId } = await twoNetworkPost();
    w.telegram.requests.length = 0; w.discord.requests.length = 0;
    const out = await editPost(w.deps, acc.id, postId, { text: 'x'.repeat(2500) });
    expect(out.results[0]).toMatchObject({ platform: 'telegram', ok: true, status: 'edited' });
    expect(out.results[1]).toMatchObject({ platform: 'discord', ok: false, code: 'text_too_long' });
    expect(w.discord.requests).toHaveLength(0);
  });

  it('a deleted network answers post_deleted; an empty edit is 400 empty_text', async () => {
    const { acc, postId } = await twoNetworkPost();
    await deletePost(w.deps, acc.id, postId, { platforms: ['discord'] });
    const out = await editPost(w.deps, acc.id, postId, { text: 'new' });
    expect(out.results.map((r) => [r.platform, r.status, r.code])).toEqual([['telegram', 'edited', undefined], ['discord', 'failed', 'post_deleted']]);
    await expect(editPost(w.deps, acc.id, postId, {})).rejects.toMatchObject({ status: 400, code: 'empty_text' });
  });
});

describe('the per-post change lock', () => {
  it('a delete and an edit at the same moment: exactly one runs, the other is 409 post_busy and changes nothing', async () => {
    const { acc, postId } = await twoNetworkPost();
    // the worker is held back so both requests meet while the first change is still running
    w.queue.worker = undefined;
    const deps = { ...w.deps, settings: { ...w.deps.settings, publishWaitMs: 50 } };
    const settled = await Promise.allSettled([deletePost(deps, acc.id, postId), editPost(deps, acc.id, postId, { text: 'changed' })]);
    const won = settled.filter((s) => s.status === 'fulfilled');
    const lost = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(AppError);
    expect(lost[0].reason).toMatchObject({ status: 409, code: 'post_busy' });
    const messages = changeMessages();
    expect(new Set(messages.map((m) => m.change_id)).size).toBe(1);
    // while the first change runs, any further change is refused too
    await expect(deletePost(deps, acc.id, postId)).rejects.toMatchObject({ status: 409, code: 'post_busy' });
    // the worker runs the queued change; its last network releases the lock
    w.queue.worker = w.deps;
    for (const m of messages) await applyChange(w.deps, m);
    const next = await deletePost(w.deps, acc.id, postId);
    expect(next.results.every((r) => r.status === 'deleted')).toBe(true);
  });

  it('a message delivered twice calls the network once (the claim is a conditional write)', async () => {
    const { acc, postId } = await twoNetworkPost();
    w.queue.worker = undefined;
    const deps = { ...w.deps, settings: { ...w.deps.settings, publishWaitMs: 0 } };
    await deletePost(deps, acc.id, postId, { platforms: ['discord'] });
    const [message] = changeMessages();
    w.discord.requests.length = 0;
    await Promise.all([applyChange(w.deps, message), applyChange(w.deps, message), applyChange(w.deps, message)]);
    expect(w.discord.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });
});

describe('webhooks', () => {
  it('post.deleted and post.edited reach a subscribed endpoint, signed', async () => {
    const { acc, postId } = await twoNetworkPost();
    const { secret } = await createWebhook(w.deps, acc, { url: rx.url(), events: ['post.deleted', 'post.edited'] });
    await editPost(w.deps, acc.id, postId, { text: 'edited', platforms: ['telegram'] });
    await deletePost(w.deps, acc.id, postId, { platforms: ['discord'] });
    await w.queue.drain();
    const messages = w.queue.sent.filter((s) => s.queueUrl === w.deps.settings.webhookQueueUrl).map((s) => s.message.body as WebhookMessage);
    for (const m of messages) await deliverWebhook(w.deps, m);
    const bodies = rx.received.map((r) => verifyWebhook(r.raw, r.headers['service-signature'] as string, secret, { now: w.clock.now() }));
    expect(bodies.map((b) => `${b.type}:${b.data.platform}`).sort()).toEqual(['post.deleted:discord', 'post.edited:telegram']);
    expect(bodies.find((b) => b.type === 'post.edited')!.data).toMatchObject({ post_id: postId, status: 'edited', text: 'edited', brand_id: expect.any(String) });
  });
});

import { networkLimits } from '../../shared/networks/descriptor-limits';
import { connectionContext } from '../../shared/app/security/contexts';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost, type PostRequest } from '../../shared/app/publish/request';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { createWebhook } from '../../shared/app/webhooks/endpoints';
import { type WebhookMessage } from '../../shared/app/webhooks/delivery-queue';
import { deliverWebhook } from '../../shared/app/webhooks/delivery-try';
import { verifyWebhook } from '../../shared/webhooks/verify';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { Account } from '../../shared/ports/store';
import { WebhookReceiver } from './receiver';

/** The events of the publishing core reach webhook endpoints (spec §6 rules 1–3, connection.reauth_required). */
let w: Awaited<ReturnType<typeof publishingWorld>>;
let rx: WebhookReceiver;
beforeAll(async () => { w = await publishingWorld(); rx = await new WebhookReceiver().start(); });
afterAll(async () => { await rx.stop(); await w.stop(); });
beforeEach(async () => { await w.queue.drain(); w.queue.sent.length = 0; w.telegram.reset(); w.discord.reset(); rx.received.length = 0; });

const post = (account: Account, req: PostRequest) => publishPost(w.deps, account, validatePost(req, networkLimits()), { source: 'api', wait: true });

/** Runs every webhook try queued so far (as the webhook worker would) and answers the verified bodies. */
async function deliverAll(secret: string) {
  await w.queue.drain();
  const messages = w.queue.sent.filter((s) => s.queueUrl === w.deps.settings.webhookQueueUrl).map((s) => s.message.body as WebhookMessage);
  w.queue.sent.length = 0;
  for (const m of messages) await deliverWebhook(w.deps, m);
  return rx.received.map((r) => verifyWebhook(r.raw, r.headers['service-signature'] as string, secret, { now: w.clock.now() }));
}

describe('publishing events delivered to webhooks', () => {
  it('two networks, one fails: exactly one post.published and one post.failed, both verified', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    const { secret } = await createWebhook(w.deps, acc, { url: rx.url() });
    w.discord.failNext({ status: 400, body: { message: 'Cannot send an empty message', code: 50006 } });
    const res = await post(acc, { platforms: ['telegram', 'discord'], text: 'hello' });
    expect(res.results.map((r) => r.ok)).toEqual([true, false]);
    const bodies = await deliverAll(secret);
    expect(bodies.map((b) => `${b.type}:${b.data.platform}`).sort()).toEqual(['post.failed:discord', 'post.published:telegram']);
    const failedBody = bodies.find((b) => b.type === 'post.failed')!;
    expect(failedBody.data).toMatchObject({ post_id: res.post_id, status: 'failed', code: res.results[1].code, error: expect.any(String), url: null, source: 'api' });
    const published = bodies.find((b) => b.type === 'post.published')!;
    expect(published.data).toMatchObject({ post_id: res.post_id, status: 'published', url: 'https://t.me/acmenews/41', error: null, code: null });
    expect(new Set(rx.received.map((r) => r.headers['service-delivery'])).size).toBe(2);
  });

  it('Free plan: held networks emit nothing', async () => {
    const acc = await w.newAccount('free');
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    const { secret } = await createWebhook(w.deps, acc, { url: rx.url() });
    const brandId = (await w.deps.brands.list(acc.id))[0].id;
    // a Slack connection with the Discord webhook's credentials, encrypted for the Slack item (values are bound to their item)
    const discordConn = (await w.deps.connections.get(acc.id, brandId, 'discord'))!;
    const plain = await w.deps.cipher.decrypt(discordConn.credentials_enc, connectionContext(discordConn, 'credentials'));
    await w.deps.connections.put({ ...discordConn, platform: 'slack', id: 'con_01ZZZZZZZZZZZZZZZZZZZZZZZY', credentials_enc: await w.deps.cipher.encrypt(plain, connectionContext({ ...discordConn, platform: 'slack' }, 'credentials')) });
    const res = await post(acc, { platforms: ['telegram', 'discord', 'slack'], text: 'three' });
    expect(res.results[2]).toMatchObject({ held: true, code: 'networks_per_post' });
    const bodies = await deliverAll(secret);
    expect(bodies.map((b) => `${b.type}:${b.data.platform}`).sort()).toEqual(['post.published:discord', 'post.published:telegram']);
  });

  it('a deferred post emits nothing until it is finally sent, then post.published', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const { secret } = await createWebhook(w.deps, acc, { url: rx.url() });
    w.telegram.failNext(TelegramFake.error(429, 'Too Many Requests: retry after 120', { retry_after: 120 }));
    const res = await post(acc, { platform: 'telegram', text: 'later' });
    expect(res.results[0]).toMatchObject({ deferred: true, code: 'rate_limited_deferred' });
    expect(await deliverAll(secret)).toHaveLength(0);
    const timer = [...w.scheduler.scheduled.values()].find((s) => s.name === `d-${res.post_id}-telegram-1`)!;
    await dispatch(w.deps, DispatchInput.parse(timer.input));
    const bodies = await deliverAll(secret);
    expect(bodies.map((b) => [b.type, b.data.post_id, b.data.status])).toEqual([['post.published', res.post_id, 'published']]);
  });

  it('an expired sign-in sends connection.reauth_required with reconnect_url (and post.failed)', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const { secret } = await createWebhook(w.deps, acc, { url: rx.url() });
    w.telegram.failNext(TelegramFake.error(401, 'Unauthorized'));
    await post(acc, { platform: 'telegram', text: 'revoked' });
    const bodies = await deliverAll(secret);
    expect(bodies.map((b) => b.type).sort()).toEqual(['connection.reauth_required', 'post.failed']);
    const reauth = bodies.find((b) => b.type === 'connection.reauth_required')!;
    expect(reauth.data).toMatchObject({ platform: 'telegram', reconnect_url: expect.stringMatching(/^https:\/\/api\.test\//), account: { platform: 'telegram' } });
    expect(rx.received.find((r) => r.headers['service-event'] === 'connection.reauth_required')).toBeDefined();
  });

  it('only subscribed event types are sent', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const { secret } = await createWebhook(w.deps, acc, { url: rx.url(), events: ['post.failed'] });
    await post(acc, { platform: 'telegram', text: 'fine' });
    expect(await deliverAll(secret)).toHaveLength(0);
  });
});

import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';
import { verifyWebhook } from '../../shared/webhooks/verify';
import { independentVerify } from '../webhooks/independent';
import { WebhookReceiver } from '../webhooks/receiver';

let rt: LocalRuntime;
const telegram = new TelegramFake();
const discord = new DiscordFake();
const rx = new WebhookReceiver();

beforeAll(async () => {
  await Promise.all([telegram.start(), discord.start(), rx.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), discord.stop(), rx.stop()]);
});

describe('signed webhooks through the local runtime (API → event → SQS → webhook worker → receiver)', () => {
  it('register, post to two fake networks (one fails): exactly one post.published and one post.failed, both verified', async () => {
    const key = await signupThroughApi(rt.url, 'hooks@example.com');
    const api = client(rt.url, key);
    expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
    expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);

    const registered = await api('POST', '/api/webhooks', { url: rx.url('/events') });
    expect(registered.status).toBe(201);
    const webhook = registered.body.webhook as { id: string; url: string; events: string[] };
    const secret = registered.body.secret as string;
    expect(webhook).toMatchObject({ id: expect.stringMatching(/^wh_/), url: rx.url('/events'), events: ['post.published', 'post.failed', 'connection.reauth_required'] });
    const listed = await api('GET', '/api/webhooks');
    expect(listed.body.webhooks).toEqual([expect.objectContaining({ id: webhook.id })]);
    expect(listed.text).not.toContain(secret);

    discord.failNext({ status: 400, body: { message: 'Cannot send an empty message', code: 50006 } });
    const res = await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'Webhooks day' });
    expect(res.status).toBe(200);
    expect((res.body.results as Array<{ ok: boolean }>).map((r) => r.ok)).toEqual([true, false]);

    await rx.waitFor(2);
    await rt.drained(); // every queue empty and no worker busy: nothing more is on its way
    expect(rx.received).toHaveLength(2);
    const bodies = await Promise.all(rx.received.map(async (r) => {
      const sig = r.headers['service-signature'] as string;
      expect(await independentVerify(r.raw.toString(), sig, secret, Math.floor(Date.now() / 1000))).toBe(true);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['service-event']).toBe(JSON.parse(r.raw.toString()).type);
      return verifyWebhook(r.raw, sig, secret, { toleranceSeconds: 300 });
    }));
    expect(bodies.map((b) => `${b.type}:${b.data.platform}`).sort()).toEqual(['post.failed:discord', 'post.published:telegram']);
    expect(bodies.every((b) => b.data.post_id === res.body.post_id)).toBe(true);

    const log = await api('GET', `/api/webhooks/${webhook.id}/deliveries`);
    expect(log.status).toBe(200);
    const entries = log.body.deliveries as Array<{ delivery_id: string; ok: boolean; attempt: number; status_code: number }>;
    expect(entries.map((e) => [e.ok, e.attempt, e.status_code])).toEqual([[true, 1, 200], [true, 1, 200]]);
    expect(new Set(entries.map((e) => e.delivery_id))).toEqual(new Set(rx.received.map((r) => r.headers['service-delivery'])));

    // re-send one: same Service-Delivery id, same body
    const first = rx.received[0];
    const again = await api('POST', `/api/webhooks/${webhook.id}/deliveries/${first.headers['service-delivery']}/redeliver`);
    expect(again.status).toBe(202);
    await rx.waitFor(3);
    expect(rx.received[2].headers['service-delivery']).toBe(first.headers['service-delivery']);
    expect(rx.received[2].raw.equals(first.raw)).toBe(true);
  });

  it('test event, rotation, unknown events, plan limit, delete', async () => {
    const key = await signupThroughApi(rt.url, 'hooks2@example.com');
    const api = client(rt.url, key);
    const bad = await api('POST', '/api/webhooks', { url: rx.url('/x'), events: ['post.published', 'post.exploded'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'unknown_event', events: ['post.exploded'] });
    const notUrl = await api('POST', '/api/webhooks', { url: 'ftp://example.com/x' });
    expect(notUrl.body).toMatchObject({ code: 'invalid_webhook_url' });

    const created = await api('POST', '/api/webhooks', { url: rx.url('/test'), events: ['post.failed'] });
    const id = (created.body.webhook as { id: string }).id;
    const before = rx.received.length;
    const tested = await api('POST', `/api/webhooks/${id}/test`);
    expect(tested.status).toBe(202);
    await rx.waitFor(before + 1);
    const got = rx.received[before];
    expect(got.headers['service-event']).toBe('webhook.test');
    expect(got.headers['service-delivery']).toBe(tested.body.delivery_id);
    expect(verifyWebhook(got.raw, got.headers['service-signature'] as string, created.body.secret as string)).toMatchObject({ type: 'webhook.test' });

    const rotated = await api('POST', `/api/webhooks/${id}/rotate`);
    expect(rotated.status).toBe(200);
    await api('POST', `/api/webhooks/${id}/test`);
    await rx.waitFor(before + 2);
    const signed = rx.received[before + 1];
    for (const secret of [created.body.secret as string, rotated.body.secret as string]) {
      expect(verifyWebhook(signed.raw, signed.headers['service-signature'] as string, secret)).toMatchObject({ type: 'webhook.test' });
    }

    expect((await api('POST', '/api/webhooks', { url: rx.url('/second') })).status).toBe(201);
    const third = await api('POST', '/api/webhooks', { url: rx.url('/third') });
    expect(third.status).toBe(400);
    expect(third.body).toMatchObject({ code: 'webhook_limit_reached', limit: 2, upgrade_url: expect.stringContaining('plan=starter') });
    const usage = await api('GET', '/api/usage');
    expect(usage.body.webhooks).toMatchObject({ limit: 2, used: 2, remaining: 0 });

    expect((await api('DELETE', `/api/webhooks/${id}`)).status).toBe(200);
    expect((await api('DELETE', `/api/webhooks/${id}`)).status).toBe(404);
    expect((await api('GET', `/api/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await api('GET', '/api/usage')).body.webhooks).toMatchObject({ used: 1 });
  });
});

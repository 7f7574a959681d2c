import { networkLimits } from '../../shared/networks/descriptor-limits';
import { connectionContext } from '../../shared/app/security/contexts';
import { publishingWorld } from '../support/publishing';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost, type PostRequest } from '../../shared/app/publish/request';
import { sendToNetwork, STALE_CLAIM_MS } from '../../shared/app/publish/send-to-network';
import { dispatch, DispatchInput } from '../../shared/app/timers/route-timer';
import { getPost, postStatus } from '../../shared/app/publish/queries';
import { AppError } from '../../shared/domain/errors';
import { usageKeys } from '../../shared/domain/usage';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { Account } from '../../shared/ports/store';
import { captureOutput } from '../support/log-capture';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());
beforeEach(() => { w.telegram.reset(); w.discord.reset(); });

/** Publishes and waits for the background worker too (it records events after settling each network). */
const post = async (account: Account, req: PostRequest) => {
  const res = await publishPost(w.deps, account, validatePost(req, networkLimits()), { source: 'api', wait: true });
  await w.queue.drain();
  return res;
};

describe('POST /api/post use case', () => {
  it('publishes to two networks in parallel and answers one result per network in request order', async () => {
    const acc = await w.newAccount();
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    const res = await post(acc, { platforms: ['discord', 'telegram'], text: 'Hello <world> & all' });
    expect(res.results.map((r) => [r.platform, r.ok, r.status])).toEqual([['discord', true, 'published'], ['telegram', true, 'published']]);
    expect(res.results[1].url).toBe('https://t.me/acmenews/41');
    const send = w.telegram.requests.find((r) => r.path.endsWith('/sendMessage'))!;
    expect(send.json).toMatchObject({ chat_id: '-1001234567890', text: 'Hello &lt;world&gt; &amp; all', parse_mode: 'HTML' });
    const stored = await getPost(w.deps, acc.id, res.post_id);
    expect(stored.events.map((e) => [e.type, e.data.platform]).sort()).toEqual([['post.published', 'discord'], ['post.published', 'telegram']]);
    expect(stored.events[0].data).toMatchObject({ post_id: res.post_id, source: 'api', idempotency_key: null, brand_id: res.brand_id, account: { brand: { id: res.brand_id, name: 'Default' } }, brand: { id: res.brand_id, name: 'Default' }, label: expect.stringContaining('Default · ') });
    expect(await w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()))).toBe(2);
    expect(await postStatus(w.deps, acc.id, 'telegram', res.post_id)).toMatchObject({ status: 'published' });
    expect(await postStatus(w.deps, acc.id, 'telegram', '41')).toMatchObject({ post_id: res.post_id, status: 'published' });
  });

  it('100 concurrent identical requests publish exactly once; 99 answer 409 duplicate_post', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => post(acc, { platform: 'telegram', text: 'once only' })));
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as AppError);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(99);
    expect(refused.every((e) => e.status === 409 && e.code === 'duplicate_post' && /nothing was published again/.test(e.message))).toBe(true);
    await w.queue.drain();
    expect(w.telegramSends()).toBe(1);
  });

  it('the same idempotency_key is refused for 24 hours; then accepted', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const first = await post(acc, { platform: 'telegram', text: 'one', idempotency_key: 'order-42' });
    expect(first.results[0].ok).toBe(true);
    await expect(post(acc, { platform: 'telegram', text: 'different text', idempotency_key: 'order-42' })).rejects.toMatchObject({ status: 409, code: 'duplicate_post', details: { post_id: first.post_id } });
    w.clock.advance(24 * 3600 * 1000 + 1000);
    expect((await post(acc, { platform: 'telegram', text: 'again', idempotency_key: 'order-42' })).results[0].ok).toBe(true);
    expect(w.telegramSends()).toBe(2);
  });

  it('an identical request without a key is refused for 2 minutes', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    await post(acc, { platform: 'telegram', text: 'dup' });
    await expect(post(acc, { platform: 'telegram', text: 'dup' })).rejects.toMatchObject({ code: 'duplicate_post' });
    expect((await post(acc, { platform: 'telegram', text: 'dup!' })).results[0].ok).toBe(true);
    w.clock.advance(121_000);
    expect((await post(acc, { platform: 'telegram', text: 'dup' })).results[0].ok).toBe(true);
  });

  it('when every network failed the lock is released at once, so a retry goes through', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.telegram.failNext(TelegramFake.error(400, "Bad Request: can't parse entities"));
    const first = await post(acc, { platform: 'telegram', text: 'retry me', idempotency_key: 'k-retry' });
    expect(first.results[0]).toMatchObject({ ok: false, status: 'failed', code: 'rejected', what: expect.any(String), fix: expect.any(String) });
    expect(await w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()))).toBe(0);
    const second = await post(acc, { platform: 'telegram', text: 'retry me', idempotency_key: 'k-retry' });
    expect(second.results[0].ok).toBe(true);
  });

  it('an SQS redelivery of the same message publishes once', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.queue.worker = undefined;
    try {
      const res = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'redelivered' }, networkLimits()), { source: 'api', wait: false });
      const msg = w.queue.sent.at(-1)!.message.body as Parameters<typeof sendToNetwork>[1];
      await Promise.all([sendToNetwork(w.deps, msg), sendToNetwork(w.deps, msg), sendToNetwork(w.deps, msg)]);
      await sendToNetwork(w.deps, msg);
      expect(w.telegramSends()).toBe(1);
      expect((await getPost(w.deps, acc.id, res.post_id)).events).toHaveLength(1);
    } finally {
      w.queue.worker = w.deps;
    }
  });

  it('a worker that died after claiming, on a network that cannot be read back, is closed as unknown, never resent', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.queue.worker = undefined;
    try {
      const res = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'crash' }, networkLimits()), { source: 'api', wait: false });
      expect(await w.deps.posts.claim(res.post_id, 'telegram', ['queued'], w.clock.now())).toBeTruthy(); // the dead worker
      const msg = w.queue.sent.at(-1)!.message.body as Parameters<typeof sendToNetwork>[1];
      await sendToNetwork(w.deps, msg);
      // a fresh claim is left to its worker: still sending (shown as processing), nothing sent by this delivery
      expect((await w.deps.posts.get(res.post_id))!.networks.map((n) => n.state)).toEqual(['sending']);
      expect((await getPost(w.deps, acc.id, res.post_id)).results[0]).toMatchObject({ platform: 'telegram', status: 'processing' });
      expect(w.telegramSends()).toBe(0);
      w.clock.advance(STALE_CLAIM_MS + 1);
      await sendToNetwork(w.deps, msg);
      const after = await getPost(w.deps, acc.id, res.post_id);
      expect(after.results[0]).toMatchObject({ ok: false, status: 'unknown', code: 'outcome_unknown', error: expect.stringMatching(/cannot be read back/), what: expect.any(String), fix: expect.any(String) });
      expect(after.events.map((e) => [e.type, e.data.status]).sort()).toEqual([['post.failed', 'unknown'], ['post.reconciled', 'unknown']]);
      expect(after.events.find((e) => e.type === 'post.reconciled')!.data).toMatchObject({ platform: 'telegram', decided_by_read_back: false, read_back: 'unsupported', action: 'left_unknown' });
      expect(w.telegramSends()).toBe(0);
    } finally {
      w.queue.worker = w.deps;
    }
  });

  it('a long network wait is deferred through the scheduler and sent once when it fires', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.telegram.failNext(TelegramFake.error(429, 'Too Many Requests: retry after 120', { retry_after: 120 }));
    const res = await post(acc, { platform: 'telegram', text: 'later' });
    const r = res.results[0];
    expect(r).toMatchObject({ ok: true, status: 'scheduled', code: 'rate_limited_deferred', deferred: true, schedule_id: expect.stringMatching(/^sch_/), retry_after: 120 });
    expect(Date.parse(r.run_at!) - w.clock.now()).toBeGreaterThan(118_000);
    expect(Date.parse(r.run_at!) - w.clock.now()).toBeLessThanOrEqual(120_000);
    expect((await getPost(w.deps, acc.id, res.post_id)).events).toHaveLength(0);
    const timer = [...w.scheduler.scheduled.values()].at(-1)!;
    expect(timer.name).toBe(`d-${res.post_id}-telegram-1`);
    await dispatch(w.deps, DispatchInput.parse(timer.input));
    await dispatch(w.deps, DispatchInput.parse(timer.input)); // a double fire
    await w.queue.drain();
    expect(w.telegramSends()).toBe(2);
    const after = await getPost(w.deps, acc.id, res.post_id);
    expect(after.results[0]).toMatchObject({ ok: true, status: 'published' });
    expect(after.events.map((e) => e.type)).toEqual(['post.published']);
  });

  it('a short network wait is served inside the request', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.telegram.failNext(TelegramFake.error(429, 'Too Many Requests: retry after 1', { retry_after: 1 }));
    const slept = w.clock.sleeps.length;
    const res = await post(acc, { platform: 'telegram', text: 'soon' });
    expect(res.results[0]).toMatchObject({ ok: true, status: 'published' });
    // sent again after exactly the wait Telegram asked for, slept on the injected clock
    expect(w.clock.sleeps.slice(slept)).toContain(1000);
    expect(w.telegram.requests.filter((r) => r.path.endsWith('/sendMessage'))).toHaveLength(2);
  });

  it('Free plan: the first two networks in request order get the places, whatever their own checks say; the rest are held', async () => {
    const acc = await w.newAccount('free');
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    // a Slack connection with the Discord webhook's credentials, encrypted for the Slack item (values are bound to their item)
    const discordConn = (await w.deps.connections.get(acc.id, (await w.deps.brands.list(acc.id))[0].id, 'discord'))!;
    const plain = await w.deps.cipher.decrypt(discordConn.credentials_enc, connectionContext(discordConn, 'credentials'));
    await w.deps.connections.put({ ...discordConn, platform: 'slack', id: 'con_01ZZZZZZZZZZZZZZZZZZZZZZZZ', credentials_enc: await w.deps.cipher.encrypt(plain, connectionContext({ ...discordConn, platform: 'slack' }, 'credentials')) });
    const res = await post(acc, { platforms: ['telegram', 'bluesky', 'discord', 'slack'], text: 'free plan' });
    expect(res.results.map((r) => [r.platform, r.code ?? r.status])).toEqual([['telegram', 'published'], ['bluesky', 'not_connected'], ['discord', 'networks_per_post'], ['slack', 'networks_per_post']]);
    expect(res.results[3]).toMatchObject({ ok: false, status: 'failed', held: true, upgrade_url: 'https://api.test/dashboard/plan?plan=starter' });
    const events = (await getPost(w.deps, acc.id, res.post_id)).events.map((e) => `${e.type}:${e.data.platform}`).sort();
    expect(events).toEqual(['post.failed:bluesky', 'post.published:telegram']);
    expect(await w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()))).toBe(1);
    expect(w.discord.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('Free plan: an unconnected network keeps its place; GET /api/post/status says failed with held: true', async () => {
    const acc = await w.newAccount('free');
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    const first = await post(acc, { platforms: ['bluesky', 'telegram', 'discord'], text: 'first not connected' });
    expect(first.results.map((r) => [r.platform, r.code ?? r.status])).toEqual([['bluesky', 'not_connected'], ['telegram', 'published'], ['discord', 'networks_per_post']]);
    expect(w.discord.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    const third = await post(acc, { platforms: ['telegram', 'discord', 'bluesky'], text: 'third not connected' });
    expect(third.results.map((r) => [r.platform, r.code ?? r.status])).toEqual([['telegram', 'published'], ['discord', 'published'], ['bluesky', 'networks_per_post']]);
    expect(third.results[2]).toMatchObject({ held: true, status: 'failed' });
    // GET /api/post/status answers only the decided statuses: a held network is failed, held: true
    const status = await postStatus(w.deps, acc.id, 'bluesky', third.post_id);
    expect(status).toMatchObject({ status: 'failed', held: true, code: 'networks_per_post' });
    expect(['published', 'processing', 'scheduled', 'pending_approval', 'failed', 'unknown']).toContain(status.status);
  });

  it("limit_reached when the month's posts are used up", async () => {
    const acc = await w.newAccount('free');
    await w.connectTelegram(w.deps, acc);
    await w.deps.counters.increment(usageKeys.posts(acc.id, w.clock.now()), 20, 20, 9_999_999_999);
    const res = await post(acc, { platform: 'telegram', text: 'over' });
    expect(res.results[0]).toMatchObject({ ok: false, code: 'limit_reached', upgrade_url: expect.stringContaining('plan=starter') });
    expect(w.telegramSends()).toBe(0);
  });

  it('brand rules: one brand may be omitted; several connected brands are 409 ambiguous_brand; brand_id picks', async () => {
    const acc = await w.newAccount('starter');
    const second = await w.createBrand(w.deps, acc, 'Client B');
    await w.connectTelegram(w.deps, acc, (await w.deps.brands.list(acc.id)).find((b) => b.name === 'Default')!.id);
    await w.connectTelegram(w.deps, { ...acc, brand_count: 2 }, second.id);
    await expect(post(acc, { platform: 'telegram', text: 'which?' })).rejects.toMatchObject({ status: 409, code: 'ambiguous_brand', details: { platforms: ['telegram'] } });
    expect(w.telegramSends()).toBe(0);
    const res = await post(acc, { platform: 'telegram', text: 'this one', brand_id: second.id });
    expect(res).toMatchObject({ brand_id: second.id, results: [{ ok: true }] });
    await expect(post(acc, { platform: 'telegram', text: 'x', brand_id: 'brd_nope' })).rejects.toMatchObject({ status: 404, code: 'brand_not_found' });
  });

  it('media is checked once before anything is sent: a web page is media_unreachable', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    await w.connectDiscord(w.deps, acc);
    const page = `${w.discord.server.url}/not-media.html`;
    const res = await post(acc, { platforms: ['telegram', 'discord'], text: 'pic', photo_url: page });
    expect(res.results.map((r) => r.code)).toEqual(['media_unreachable', 'media_unreachable']);
    expect(res.results[0].error).toMatch(/not-media\.html/);
    expect(w.telegramSends()).toBe(0);
  });

  it('validation: platform xor platforms, unknown and repeated networks, caption_is_json, empty_text, per-network media rules', () => {
    const bad = (req: PostRequest) => { try { validatePost(req, networkLimits()); return undefined; } catch (e) { return (e as AppError).toBody(); } };
    expect(bad({ platform: 'x', platforms: ['x'], text: 'a' })).toMatchObject({ code: 'invalid_request' });
    expect(bad({ text: 'a' })).toMatchObject({ code: 'invalid_request' });
    expect(bad({ platforms: ['telegram', 'myspace'], text: 'a' })).toMatchObject({ code: 'invalid_request', platforms: ['myspace'] });
    expect(bad({ platforms: ['telegram', 'telegram'], text: 'a' })).toMatchObject({ code: 'invalid_request', platforms: ['telegram'] });
    expect(bad({ platform: 'telegram', text: { a: 1 } })).toMatchObject({ code: 'caption_is_json' });
    expect(bad({ platform: 'telegram', text: ' {"caption": "hi"} ' })).toMatchObject({ code: 'caption_is_json' });
    expect(bad({ platform: 'telegram', text: '   ' })).toMatchObject({ code: 'empty_text' });
    expect(bad({ platform: 'telegram', text: 'a', per_platform: { telegram: { thread: ['b'] } } })).toMatchObject({ code: 'invalid_request' });
    expect(bad({ platform: 'telegram', text: '{not json} but braces' })).toBeUndefined();
  });

  it('per-network refusals before sending: unavailable, media_required, bad_media, text_too_long', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const res = await post(acc, { platforms: ['reddit', 'youtube', 'telegram'], text: 'x'.repeat(5000), subreddit: 'test' });
    expect(res.results.map((r) => r.code)).toEqual(['platform_unavailable', 'not_connected', 'text_too_long']);
    const two = await post(acc, { platform: 'telegram', text: 'two pics', media: [{ url: 'https://a.example/1.png' }, { url: 'https://a.example/2.png' }] });
    expect(two.results[0]).toMatchObject({ code: 'bad_media', error: expect.stringMatching(/at most 1 media item/) });
    expect(w.telegramSends()).toBe(0);
  });

  it('an expired credential marks the connection reauth_required and records connection.reauth_required', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.telegram.failNext(TelegramFake.error(401, 'Unauthorized'));
    const res = await post(acc, { platform: 'telegram', text: 'expired' });
    expect(res.results[0]).toMatchObject({ ok: false, code: 'reauth_required' });
    const brand = (await w.deps.brands.list(acc.id))[0];
    expect((await w.deps.connections.get(acc.id, brand.id, 'telegram'))!.status).toBe('reauth_required');
    const types = (await getPost(w.deps, acc.id, res.post_id)).events.map((e) => e.type).sort();
    expect(types).toEqual(['connection.reauth_required', 'post.failed']);
    const next = await post(acc, { platform: 'telegram', text: 'after expiry' });
    expect(next.results[0]).toMatchObject({ code: 'reauth_required' });
  });

  it('a network that does not answer in time is unknown / timed_out; the worker still finishes it', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.telegram.failNext({ delayMs: 1500, status: 200, body: { ok: true, result: { message_id: 99, chat: { id: -1001234567890, type: 'channel', username: 'acmenews' } } } });
    const saved = w.deps.settings;
    w.deps = w.rebuild({ settings: { ...saved, publishWaitMs: 300 } });
    try {
      const res = await post(acc, { platform: 'telegram', text: 'slow' });
      expect(res.results[0]).toMatchObject({ ok: false, status: 'unknown', code: 'timed_out' });
      await w.queue.drain();
      expect((await getPost(w.deps, acc.id, res.post_id)).results[0]).toMatchObject({ ok: true, status: 'published', id: '99' });
    } finally {
      w.deps = w.rebuild({ settings: saved });
    }
  });

  it('the queue refusing the fan-out fails those networks cleanly and gives back the reservation', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    w.queue.failWith = new Error('SQS down');
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'error';
    const output = captureOutput();
    try {
      const res = await post(acc, { platform: 'telegram', text: 'queue down' });
      expect(res.results[0]).toMatchObject({ ok: false, code: 'internal_error' });
      expect(await w.deps.counters.get(usageKeys.posts(acc.id, w.clock.now()))).toBe(0);
      // the queue's error is logged with the post, never swallowed
      expect(output.json().filter((l) => l.level === 'ERROR' || l.level === 'error')).toEqual([
        expect.objectContaining({ message: expect.stringContaining('could not be queued'), post_id: res.post_id, error_message: 'SQS down' }),
      ]);
      expect((await getPost(w.deps, acc.id, res.post_id)).events.map((e) => [e.type, e.data.code])).toEqual([['post.failed', 'internal_error']]);
    } finally {
      output.restore();
      process.env.LOG_LEVEL = level;
      w.queue.failWith = undefined;
    }
    expect((await post(acc, { platform: 'telegram', text: 'queue down' })).results[0].ok).toBe(true);
  });
});

describe('Telegram spacing across concurrent senders', () => {
  it('reserves slots at least 1 s apart for one chat, under concurrency', async () => {
    const now = w.clock.now();
    const slots = await Promise.all(Array.from({ length: 20 }, () => w.deps.pace.reserve('telegram:-100777', 1000, now)));
    const sorted = [...slots].sort((a, b) => a - b);
    expect(new Set(slots).size).toBe(20);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBe(1000);
    expect(sorted[0]).toBe(now);
  });
});

import { createTelegramAdapter } from '../../shared/networks/telegram';
import type { PublishContent } from '../../shared/ports/networks';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { expireOnHang, testContext } from './context';

const fake = new TelegramFake();
let adapter: ReturnType<typeof createTelegramAdapter>;

const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Hello', media: [], thread: [], send_key: 'pst_1:telegram', ...over });
const channel = () => ({ bot_token: fake.token, chat_id: '-1001234567890', chat_type: 'channel', chat_username: 'acmenews' });

beforeAll(async () => {
  adapter = createTelegramAdapter({ apiBase: await fake.start() });
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

describe('telegram verify', () => {
  it('calls getMe then getChat and normalises the chat id and type', async () => {
    const { ctx } = testContext({ bot_token: ` ${fake.token} `, chat_id: '@acmenews' });
    const out = await adapter.verify(ctx);
    expect(out).toEqual({
      ok: true,
      handle: '@acmenews',
      credentials: { bot_token: fake.token, chat_id: '-1001234567890', chat_type: 'channel', chat_username: 'acmenews' },
    });
    expect(fake.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', `/bot${fake.token}/getMe`],
      ['POST', `/bot${fake.token}/getChat`],
    ]);
    expect(fake.requests[1].json).toEqual({ chat_id: '@acmenews' });
    expect(fake.requests[1].headers['content-type']).toBe('application/json');
  });

  it('uses the chat title as handle when the chat has no username', async () => {
    const { ctx } = testContext({ bot_token: fake.token, chat_id: '-4001' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: true, handle: 'Acme Team', credentials: { chat_id: '-4001', chat_type: 'group' } });
  });

  it('a token Telegram refuses is reauth and the token is not echoed', async () => {
    const bad = '999:wrong-secret-token';
    const { ctx } = testContext({ bot_token: bad, chat_id: '@acmenews' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(JSON.stringify(out)).not.toContain('wrong-secret-token');
    expect(fake.methods).toEqual(['getMe']);
  });

  it('a malformed token is rejected without any request', async () => {
    const { ctx } = testContext({ bot_token: 'not a token/../x', chat_id: '@acmenews' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(out.ok === false && out.error).toMatch(/bot_token/);
    expect(fake.requests).toHaveLength(0);
  });

  it('an unknown chat is reauth naming the chat', async () => {
    const { ctx } = testContext({ bot_token: fake.token, chat_id: '@nochat' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(out.ok === false && out.error).toMatch(/chat not found/);
  });
});

describe('telegram publish', () => {
  it('sends an HTML-escaped text message, paced per chat, and links to the public channel', async () => {
    const { ctx, paced } = testContext(channel());
    const out = await adapter.publish(content({ text: 'a < b & c > d <b>x</b>' }), ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '41', url: 'https://t.me/acmenews/41' });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/bot${fake.token}/sendMessage`);
    expect(req.json).toEqual({ chat_id: '-1001234567890', text: 'a &lt; b &amp; c &gt; d &lt;b&gt;x&lt;/b&gt;', parse_mode: 'HTML' });
    expect(paced).toEqual([{ key: 'telegram:-1001234567890', spacingMs: 1000 }]);
  });

  it('private supergroups get a t.me/c link and 3 s spacing; the pace wait is slept', async () => {
    const { ctx, paced, clock } = testContext({ bot_token: fake.token, chat_id: '-1009876543210', chat_type: 'supergroup' }, { paceWaitMs: 120 });
    const out = await adapter.publish(content(), ctx);
    expect(clock.sleeps).toEqual([120]);
    expect(out).toMatchObject({ ok: true, url: 'https://t.me/c/9876543210/41' });
    expect(paced).toEqual([{ key: 'telegram:-1009876543210', spacingMs: 3000 }]);
  });

  it('a basic group (negative id, no -100) is spaced 3 s even without chat_type', async () => {
    const { ctx, paced } = testContext({ bot_token: fake.token, chat_id: '-4001' });
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: true, id: '41', url: '' });
    expect(paced[0].spacingMs).toBe(3000);
  });

  it('a photo goes through sendPhoto with the URL and the text as caption', async () => {
    const { ctx } = testContext(channel());
    const out = await adapter.publish(content({ text: 'Look & see', media: [{ url: 'https://cdn.example.com/a.png', kind: 'image' }] }), ctx);
    expect(out).toMatchObject({ ok: true, id: '41', url: 'https://t.me/acmenews/41' });
    expect(fake.requests[0].path).toBe(`/bot${fake.token}/sendPhoto`);
    expect(fake.requests[0].json).toEqual({ chat_id: '-1001234567890', photo: 'https://cdn.example.com/a.png', caption: 'Look &amp; see', parse_mode: 'HTML' });
  });

  it('a video goes through sendVideo', async () => {
    const { ctx } = testContext(channel());
    const out = await adapter.publish(content({ text: '', media: [{ url: 'https://cdn.example.com/v.mp4', kind: 'video' }] }), ctx);
    expect(out).toMatchObject({ ok: true });
    expect(fake.requests[0].path).toBe(`/bot${fake.token}/sendVideo`);
    expect(fake.requests[0].json).toEqual({ chat_id: '-1001234567890', video: 'https://cdn.example.com/v.mp4', supports_streaming: true });
  });

  it('a media URL Telegram cannot fetch is media_unreachable', async () => {
    fake.failNext(TelegramFake.error(400, 'Bad Request: wrong file identifier/HTTP URL specified'));
    const { ctx } = testContext(channel());
    const out = await adapter.publish(content({ media: [{ url: 'https://cdn.example.com/gone.png', kind: 'image' }] }), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable' });
  });

  it('another 400 is rejected with Telegram’s description', async () => {
    fake.failNext(TelegramFake.error(400, "Bad Request: can't parse entities: unsupported start tag"));
    const { ctx } = testContext(channel());
    const out = await adapter.publish(content(), ctx);
    expect(out).toEqual({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining("can't parse entities") });
  });

  it('429 is rate_limited with parameters.retry_after', async () => {
    fake.failNext(TelegramFake.error(429, 'Too Many Requests: retry after 17', { retry_after: 17 }));
    const { ctx } = testContext(channel());
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 17 });
  });

  it('a revoked token (401) and a kicked bot (403) are reauth', async () => {
    const { ctx } = testContext({ ...channel(), bot_token: '123456789:revoked' });
    const revoked = await adapter.publish(content(), ctx);
    expect(revoked).toMatchObject({ ok: false, kind: 'reauth' });
    expect(JSON.stringify(revoked)).not.toContain('123456789:revoked');

    fake.failNext(TelegramFake.error(403, 'Forbidden: bot is not a member of the channel chat'));
    const kicked = await adapter.publish(content(), testContext(channel()).ctx);
    expect(kicked).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('not a member') });
  });

  it('a group migrated to a supergroup is retried once on the new chat id', async () => {
    fake.failNext(TelegramFake.error(400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: -1009876543210 }));
    const { ctx, paced } = testContext({ bot_token: fake.token, chat_id: '-4001', chat_type: 'group' });
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: true, url: 'https://t.me/c/9876543210/41' });
    expect(fake.requests.map((r) => (r.json as { chat_id: string }).chat_id)).toEqual(['-4001', '-1009876543210']);
    expect(paced.map((p) => p.key)).toEqual(['telegram:-4001', 'telegram:-1009876543210']);
  });

  it('5xx is transient', async () => {
    fake.failNext({ status: 502, body: '<html>Bad Gateway</html>' });
    const out = await adapter.publish(content(), testContext(channel()).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('a hang ends as timeout before the deadline', async () => {
    fake.failNext({ hang: true });
    const { ctx, expire } = testContext(channel());
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });

  it('a pace slot past the deadline comes back as rate_limited', async () => {
    const { ctx } = testContext(channel());
    ctx.pace = async () => { throw { ok: false, kind: 'rate_limited', retry_after: 4, error: 'paced' }; };
    const out = await adapter.publish(content(), ctx);
    expect(out).toEqual({ ok: false, kind: 'rate_limited', retry_after: 4, error: 'paced' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('telegram check', () => {
  it('text over 4096 is text_too_long with limit and length, and publish sends nothing', async () => {
    const long = content({ text: 'x'.repeat(4097) });
    expect(adapter.check(long, channel())).toEqual({ ok: false, kind: 'rejected', code: 'text_too_long', error: expect.stringMatching(/4096.*4097/) });
    expect(adapter.check(content({ text: 'x'.repeat(4096) }), channel())).toBeUndefined();
    const out = await adapter.publish(long, testContext(channel()).ctx);
    expect(out).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('a caption over 1024 is text_too_long; more than one media item is bad_media', () => {
    const img = { url: 'https://cdn.example.com/a.png', kind: 'image' as const };
    expect(adapter.check(content({ text: 'x'.repeat(1025), media: [img] }), channel())).toMatchObject({ code: 'text_too_long', error: expect.stringMatching(/1024.*1025/) });
    expect(adapter.check(content({ text: 'x'.repeat(1024), media: [img] }), channel())).toBeUndefined();
    expect(adapter.check(content({ media: [img, img] }), channel())).toMatchObject({ code: 'bad_media' });
  });
});

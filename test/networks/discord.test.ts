import { createDiscordAdapter } from '../../shared/networks/discord';
import type { PublishContent } from '../../shared/ports/networks';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { expireOnHang, testContext } from './context';

const fake = new DiscordFake();
const adapter = createDiscordAdapter();

const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Hello <@everyone>', media: [], thread: [], send_key: 'pst_1:discord', ...over });
const creds = () => ({ webhook_url: fake.webhookUrl, guild_id: fake.guildId, channel_id: fake.channelId });

beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

describe('discord verify', () => {
  it('GETs the webhook and keeps guild and channel ids in the normalised credentials', async () => {
    const { ctx } = testContext({ webhook_url: `  ${fake.webhookUrl}/?foo=1 ` });
    const out = await adapter.verify(ctx);
    expect(out).toEqual({
      ok: true,
      handle: 'Acme Announcements',
      credentials: { webhook_url: fake.webhookUrl, guild_id: fake.guildId, channel_id: fake.channelId },
    });
    expect(fake.requests.map((r) => [r.method, r.path, r.url.search])).toEqual([['GET', fake.webhookPath, '']]);
  });

  it('accepts the /api/v10/ form', async () => {
    const url = `${fake.server.url}/api/v10/webhooks/${fake.webhookId}/${fake.webhookToken}`;
    const out = await adapter.verify(testContext({ webhook_url: url }).ctx);
    expect(out).toMatchObject({ ok: true, credentials: { webhook_url: url } });
  });

  it('a wrong token is reauth and the token is not echoed', async () => {
    const url = `${fake.server.url}/api/webhooks/${fake.webhookId}/wrongSecretToken`;
    const out = await adapter.verify(testContext({ webhook_url: url }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(JSON.stringify(out)).not.toContain('wrongSecretToken');
  });

  it('a URL that is not a webhook is rejected without any request', async () => {
    const out = await adapter.verify(testContext({ webhook_url: `${fake.server.url}/channels/1/2` }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('webhook_url') });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('discord publish', () => {
  it('POSTs the text with wait=true and no mass mentions, and links to the message', async () => {
    const out = await adapter.publish(content(), testContext(creds()).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '333333333333333000', url: `https://discord.com/channels/${fake.guildId}/${fake.channelId}/333333333333333000` });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe(fake.webhookPath);
    expect(req.url.searchParams.get('wait')).toBe('true');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.json).toEqual({ content: 'Hello <@everyone>', allowed_mentions: { parse: [] } });
  });

  it('without a guild id the link uses @me', async () => {
    const out = await adapter.publish(content(), testContext({ webhook_url: fake.webhookUrl }).ctx);
    expect(out).toMatchObject({ ok: true, url: `https://discord.com/channels/@me/${fake.channelId}/333333333333333000` });
  });

  it('an image becomes an image embed', async () => {
    const out = await adapter.publish(content({ text: 'Pic', media: [{ url: 'https://cdn.example.com/a.png', kind: 'image' }] }), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: true });
    expect(fake.requests[0].json).toEqual({ content: 'Pic', allowed_mentions: { parse: [] }, embeds: [{ image: { url: 'https://cdn.example.com/a.png' } }] });
  });

  it('a video URL goes into the content', async () => {
    const out = await adapter.publish(content({ text: 'Clip', media: [{ url: 'https://cdn.example.com/v.mp4', kind: 'video' }] }), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: true });
    expect(fake.requests[0].json).toEqual({ content: 'Clip\nhttps://cdn.example.com/v.mp4', allowed_mentions: { parse: [] } });
  });

  it('an invalid form body is rejected with Discord’s message', async () => {
    fake.failNext({ status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } } });
    const out = await adapter.publish(content(), testContext(creds()).ctx);
    expect(out).toEqual({ ok: false, kind: 'rejected', code: 'rejected', error: expect.stringContaining('Invalid Form Body') });
  });

  it('429 is rate_limited with the body retry_after rounded up', async () => {
    fake.failNext({ status: 429, headers: { 'retry-after': '3' }, body: { message: 'You are being rate limited.', retry_after: 2.1, global: false } });
    const out = await adapter.publish(content(), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 3 });
  });

  it('429 without a body uses the Retry-After header', async () => {
    fake.failNext({ status: 429, headers: { 'retry-after': '7' }, body: '' });
    const out = await adapter.publish(content(), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 7 });
  });

  it('a deleted webhook (404 Unknown Webhook) is reauth', async () => {
    const url = `${fake.server.url}/api/webhooks/999/${fake.webhookToken}`;
    const out = await adapter.publish(content(), testContext({ webhook_url: url }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('Unknown Webhook') });
    expect(JSON.stringify(out)).not.toContain(fake.webhookToken);
  });

  it('5xx is transient', async () => {
    fake.failNext({ status: 503, body: 'upstream connect error' });
    const out = await adapter.publish(content(), testContext(creds()).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('a hang ends as timeout before the deadline', async () => {
    fake.failNext({ hang: true });
    const { ctx, expire } = testContext(creds());
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

describe('discord check', () => {
  it('content over 2000 is text_too_long and publish sends nothing', async () => {
    const long = content({ text: 'x'.repeat(2001) });
    expect(adapter.check(long, creds())).toEqual({ ok: false, kind: 'rejected', code: 'text_too_long', error: expect.stringMatching(/2000.*2001/) });
    expect(adapter.check(content({ text: '😀'.repeat(2000) }), creds())).toBeUndefined();
    expect(await adapter.publish(long, testContext(creds()).ctx)).toMatchObject({ ok: false, code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('counts the added video link; more than one media item is bad_media', () => {
    const video = { url: 'https://cdn.example.com/v.mp4', kind: 'video' as const };
    expect(adapter.check(content({ text: 'x'.repeat(1980), media: [video] }), creds())).toMatchObject({ code: 'text_too_long' });
    expect(adapter.check(content({ media: [video, video] }), creds())).toMatchObject({ code: 'bad_media' });
  });
});

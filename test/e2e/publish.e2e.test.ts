import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { SlackFake } from '../../shared/networks/slack/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

let rt: LocalRuntime;
const telegram = new TelegramFake();
const discord = new DiscordFake();
const slack = new SlackFake();

beforeAll(async () => {
  await Promise.all([telegram.start(), discord.start(), slack.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), discord.stop(), slack.stop()]);
});

const tg = { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } };

describe('publishing through the local runtime (API → SQS → worker → fake networks)', () => {
  it('connects fakes in two brands, posts to both networks of one brand, and refuses the ambiguous brand', async () => {
    const key = await signupThroughApi(rt.url, 'publisher@example.com', 'starter');
    const api = client(rt.url, key);
    const brands = (await api('GET', '/api/brands')).body.brands as Array<{ id: string; name: string }>;
    const a = brands[0].id;
    const b = ((await api('POST', '/api/brands', { name: 'Client B' })).body.brand as { id: string }).id;

    const connected = await api('POST', '/api/connect', { ...tg, brand_id: a });
    expect(connected.status).toBe(200);
    expect(connected.body.connection).toMatchObject({ platform: 'telegram', brand_id: a, handle: '@acmenews', status: 'active' });
    expect(connected.text).not.toContain(telegram.token);
    expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl }, brand_id: a })).status).toBe(200);
    expect((await api('POST', '/api/connect', { ...tg, brand_id: b })).status).toBe(200);

    const listed = await api('GET', '/api/connections');
    expect((listed.body.connections as unknown[]).length).toBe(3);
    expect(listed.text).not.toContain(telegram.token);
    expect(listed.text).not.toContain(discord.webhookToken);

    const ambiguous = await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'which brand?' });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body).toMatchObject({ code: 'ambiguous_brand', platforms: ['telegram'] });

    const res = await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'Launch day', brand_id: a });
    expect(res.status).toBe(200);
    const results = res.body.results as Array<{ platform: string; ok: boolean; status: string; url: string; id: string }>;
    expect(results.map((r) => [r.platform, r.ok, r.status])).toEqual([['telegram', true, 'published'], ['discord', true, 'published']]);
    expect(results[0].url).toMatch(/^https:\/\/t\.me\/acmenews\/\d+$/);
    expect(results[1].url).toMatch(/^https:\/\/discord\.com\/channels\//);
    expect(telegram.requests.filter((r) => r.path.endsWith('/sendMessage')).map((r) => (r.json as { text: string }).text)).toEqual(['Launch day']);

    const postId = res.body.post_id as string;
    // the worker records each event right after settling its network: once it is done, both are there
    await rt.drained();
    const stored = await api('GET', `/api/posts/${postId}`);
    expect((stored.body.events as Array<{ type: string }>).map((e) => e.type)).toEqual(['post.published', 'post.published']);
    const status = await api('GET', `/api/post/status?platform=discord&id=${results[1].id}`);
    expect(status.body).toMatchObject({ post_id: postId, status: 'published' });
    const again = await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'Launch day', brand_id: a });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'duplicate_post', post_id: postId });
  });

  it('Free plan: the third network is held, the first two are sent', async () => {
    const key = await signupThroughApi(rt.url, 'free-user@example.com');
    const api = client(rt.url, key);
    expect((await api('POST', '/api/connect', tg)).status).toBe(200);
    expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);
    expect((await api('POST', '/api/connect', { platform: 'slack', credentials: { webhook_url: slack.webhookUrl } })).status).toBe(200);
    const res = await api('POST', '/api/post', { platforms: ['slack', 'telegram', 'discord'], text: 'three networks' });
    expect((res.body.results as Array<Record<string, unknown>>).map((r) => [r.platform, r.ok, r.code ?? r.status])).toEqual([
      ['slack', true, 'published'], ['telegram', true, 'published'], ['discord', false, 'networks_per_post'],
    ]);
    expect((res.body.results as Array<Record<string, unknown>>)[2]).toMatchObject({ held: true, upgrade_url: expect.stringContaining('plan=starter') });
    const me = await api('GET', '/api/me');
    expect(me.body).toMatchObject({ usage: { posts_per_month: { used: 2, limit: 20 } }, connections: { total: 3 } });
  });

  it('bad credentials are a 400 with what/fix and nothing is saved; OAuth networks point at their sign-in link', async () => {
    const key = await signupThroughApi(rt.url, 'badcreds@example.com');
    const api = client(rt.url, key);
    const bad = await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: '999:wrong', chat_id: '@acmenews' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_credentials', platform: 'telegram', what: expect.any(String), fix: expect.any(String) });
    expect(bad.text).not.toContain('999:wrong');
    const missing = await api('POST', '/api/connect', { platform: 'bluesky', credentials: { handle: 'a.bsky.social', extra: 'x' } });
    expect(missing.body).toMatchObject({ code: 'invalid_credentials', missing: ['app_password'], unknown: ['extra'] });
    const oauth = await api('POST', '/api/connect', { platform: 'linkedin', credentials: {} });
    expect(oauth.body).toMatchObject({ code: 'oauth_platform', oauth_url: '/api/oauth/linkedin/url' });
    expect(((await api('GET', '/api/connections')).body.connections as unknown[]).length).toBe(0);
    const notConnected = await api('POST', '/api/post', { platform: 'telegram', text: 'nothing connected' });
    expect(notConnected.body.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: false, code: 'not_connected' })]);
  });
});

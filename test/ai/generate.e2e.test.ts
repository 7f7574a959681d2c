import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';
import { measure, textProblems } from '../../shared/domain/text-length';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { SlackFake } from '../../shared/networks/slack/simulator';
import { networkLimits } from '../../shared/networks/descriptor-limits';

/** Each network's text rule, from the registry (its folder's limits.ts). */
const rule = networkLimits().textRule;

let rt: LocalRuntime;
const telegram = new TelegramFake();
const bluesky = new BlueskyFake();
const mastodon = new MastodonFake();
const discord = new DiscordFake();
const slack = new SlackFake();
beforeAll(async () => {
  await Promise.all([telegram.start(), bluesky.start(), mastodon.start(), discord.start(), slack.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url, BLUESKY_API_BASE: `${bluesky.url}/`, MASTODON_POLL_MS: '50' });
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), bluesky.stop(), mastodon.stop(), discord.stop(), slack.stop()]);
});

const PROMPT = 'We are launching Acme Rockets 2.0 today. The new engine is 30% lighter and twice as reliable. '
  + 'Pre-orders open now for customers in Europe and the US, with delivery in March. Our team spent two years testing '
  + 'the design in the desert, and we cannot wait to see it fly. 🚀👩‍🚀 Read the full story and tell us what you think!';

describe('POST /api/generate through the local runtime (local drafter)', () => {
  let proKey: string;
  it('answers one fitting draft per network, provider local, and counts one AI draft in GET /api/usage', async () => {
    proKey = await signupThroughApi(rt.url, 'drafts@example.com', 'pro');
    const api = client(rt.url, proKey);
    const res = await api('POST', '/api/generate', { prompt: `${PROMPT} ${PROMPT}`, platforms: [...PLATFORM_NAMES], link: 'https://acme.example/launch', tone: 'friendly' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: 'local', model: 'local-drafter-1' });
    const drafts = res.body.drafts as Record<string, { text: string; title?: string; thread?: string[]; chars: number; limit: number }>;
    expect(Object.keys(drafts).sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const p of PLATFORM_NAMES) {
      const d = drafts[p];
      expect({ p, problems: textProblems(p, rule(p), d) }).toEqual({ p, problems: [] });
      expect(d.chars).toBe(measure(rule(p).unit, d.text));
      expect(d.chars).toBeLessThanOrEqual(d.limit);
    }
    // X (280 weighted) and Bluesky (300 graphemes) cannot hold the text: they get a thread; Telegram keeps it whole
    expect(drafts.x.thread!.length).toBeGreaterThan(0);
    expect(drafts.bluesky.thread!.length).toBeGreaterThan(0);
    expect(drafts.telegram.thread).toBeUndefined();
    expect(drafts.devto.title).toBe('We are launching Acme Rockets 2.0 today');
    expect(drafts.x.text).toMatch(/^We are launching Acme Rockets 2\.0 today\./);
    expect(res.body.usage).toMatchObject({ input_tokens: 0, output_tokens: 0, ai_drafts_per_day: { limit: 100, used: 1, remaining: 99 } });

    const usage = await api('GET', '/api/usage');
    expect(usage.body.ai_drafts_per_day).toMatchObject({ limit: 100, used: 1, remaining: 99, resets_at: expect.stringMatching(/T00:00:00\.000Z$/) });
  });

  it('uses the caption limit when the post carries media (Telegram 1024)', async () => {
    const api = client(rt.url, proKey);
    const long = Array.from({ length: 40 }, (_, i) => `Sentence number ${i + 1} tells a little more about the launch.`).join(' ');
    const plain = await api('POST', '/api/generate', { prompt: long, platforms: ['telegram'] });
    const captioned = await api('POST', '/api/generate', { prompt: long, platforms: ['telegram'], media: [{ url: 'https://cdn.example/p.jpg', type: 'image' }] });
    expect((plain.body.drafts as Record<string, { limit: number; chars: number }>).telegram).toMatchObject({ limit: 4096, chars: long.length });
    const t = (captioned.body.drafts as Record<string, { text: string; limit: number; chars: number }>).telegram;
    expect(t.limit).toBe(1024);
    expect(t.chars).toBeLessThanOrEqual(1024);
    expect(t.text).toMatch(/launch\.$/); // whole sentences
  });

  it('refuses bad input with a clear 400 and spends nothing', async () => {
    const api = client(rt.url, await signupThroughApi(rt.url, 'bad-input@example.com'));
    const unknown = await api('POST', '/api/generate', { prompt: 'hi', platforms: ['x', 'myspace'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'invalid_request', platforms: ['myspace'] });
    const repeated = await api('POST', '/api/generate', { prompt: 'hi', platforms: ['x', 'x'] });
    expect(repeated.body).toMatchObject({ code: 'invalid_request', platforms: ['x'] });
    const extra = await api('POST', '/api/generate', { prompt: 'hi', platforms: ['x'], temperature: 2 });
    expect(extra.status).toBe(400);
    const empty = await api('POST', '/api/generate', { prompt: '   ', platforms: ['x'] });
    expect(empty.status).toBe(400);
    const badLink = await api('POST', '/api/generate', { prompt: 'hi', platforms: ['x'], link: 'javascript:alert(1)' });
    expect(badLink.status).toBe(400);
    const brand = await api('POST', '/api/generate', { prompt: 'hi', platforms: ['x'], brand_id: 'brd_nope' });
    expect(brand.status).toBe(404);
    expect(brand.body.code).toBe('brand_not_found');
    expect(((await api('GET', '/api/usage')).body.ai_drafts_per_day as { used: number }).used).toBe(0);
  });

  it('Free plan: 5 AI drafts a day, then 429 ai_drafts_limit_reached with upgrade_url and Retry-After', async () => {
    const api = client(rt.url, await signupThroughApi(rt.url, 'free-drafts@example.com'));
    for (let i = 0; i < 5; i++) expect((await api('POST', '/api/generate', { prompt: `post ${i}`, platforms: ['bluesky'] })).status).toBe(200);
    const sixth = await api('POST', '/api/generate', { prompt: 'one more', platforms: ['bluesky'] });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ code: 'ai_drafts_limit_reached', limit: 5, upgrade_url: expect.stringContaining('plan=starter') });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api('GET', '/api/usage')).body.ai_drafts_per_day).toMatchObject({ limit: 5, used: 5, remaining: 0 });
  });

  it('generate → POST /api/post with the drafts verbatim as per_platform → every network publishes', async () => {
    const api = client(rt.url, await signupThroughApi(rt.url, 'publish-drafts@example.com', 'starter'));
    const connect = async (platform: string, credentials: Record<string, string>) => expect((await api('POST', '/api/connect', { platform, credentials })).status).toBe(200);
    await connect('telegram', { bot_token: telegram.token, chat_id: '@acmenews' });
    await connect('bluesky', { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' });
    await connect('mastodon', { instance_url: mastodon.url, access_token: 'good-token' });
    await connect('discord', { webhook_url: discord.webhookUrl });
    await connect('slack', { webhook_url: slack.webhookUrl });
    const platforms = ['telegram', 'bluesky', 'mastodon', 'discord', 'slack'];
    const gen = await api('POST', '/api/generate', { prompt: `${PROMPT} ${PROMPT}`, platforms, link: 'https://acme.example/launch' });
    expect(gen.status).toBe(200);
    const drafts = gen.body.drafts as Record<string, { text: string; thread?: string[] }>;
    expect(drafts.bluesky.thread?.length).toBeGreaterThan(0);

    const res = await api('POST', '/api/post', { platforms, per_platform: drafts });
    expect(res.status).toBe(200);
    expect((res.body.results as Array<Record<string, unknown>>).map((r) => [r.platform, r.ok, r.status])).toEqual(platforms.map((p) => [p, true, 'published']));
    expect(telegram.requests.filter((r) => r.path.endsWith('/sendMessage')).map((r) => (r.json as { text: string }).text)).toEqual([drafts.telegram.text]);
  });

  it('POST /api/week answers seven days on the brand slots; unknown fields and bad starts are 400', async () => {
    const api = client(rt.url, proKey); // signups are 5 an hour per IP: this file makes 4
    const before = ((await api('GET', '/api/usage')).body.ai_drafts_per_day as { used: number }).used;
    const res = await api('POST', '/api/week', { prompt: PROMPT, platforms: ['x', 'linkedin'] });
    expect({ status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ status: 200, body: undefined });
    const days = res.body.days as Array<{ day: number; run_at: string; drafts: Record<string, { text: string }> }>;
    expect(days.map((d) => d.day)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(res.body).toMatchObject({ timezone: 'UTC', provider: 'local', usage: { ai_drafts_per_day: { used: before + 1 } } });
    for (const d of days) expect(['09:00', '13:00', '17:00']).toContain(d.run_at.slice(11, 16));
    expect((await api('POST', '/api/week', { prompt: 'p', platforms: ['x'], days: 3 })).status).toBe(400);
    expect((await api('POST', '/api/week', { prompt: 'p', platforms: ['x'], start: 'soon' })).body).toMatchObject({ code: 'invalid_start' });
  });
});


import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import type { LocalRuntime } from '../../infra/local/runtime';
import type { InboxEntry } from '../../shared/networks/sandbox-kit/sandbox-simulator';
import { watchContract } from '../contracts/watch';
import { atprotoViolations } from '../contracts/atproto';
import { xApiViolations } from '../contracts/x-openapi';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';
import { XFake } from '../../shared/networks/x/simulator';
import { MetaKindsFake } from '../../shared/networks/facebook/simulator';

/**
 * The sandbox of `npm start`, through the runtime's own wiring (startLocalRuntime with its defaults: no network
 * base URL, no ALLOW_PRIVATE_TARGETS): every one of the 16 simulators is used through the API, and what they
 * received shows in GET /dev/sandbox and the inbox page.
 */
let rt: LocalRuntime;
let key: string;
type Api = ReturnType<typeof client>;
let api: Api;
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

/** What the Bluesky and X simulators received that breaks the networks' published contracts (each test ends with none). */
let contracts: Array<{ take(): string[] }> = [];

beforeAll(async () => {
  rt = await startRuntime();
  contracts = [watchContract(rt.sandbox!.fake('bluesky', BlueskyFake).server, atprotoViolations), watchContract(rt.sandbox!.fake('x', XFake).server, xApiViolations)];
  key = await signupThroughApi(rt.url, 'sandbox@example.com', 'pro');
  api = client(rt.url, key);
}, 120_000);
afterEach(() => expect(contracts.flatMap((c) => c.take())).toEqual([]));
afterAll(async () => { await rt?.stop(); });

const sandbox = async () => (await client(rt.url)('GET', '/dev/sandbox')).body as {
  mode: string; credentials: Record<string, Record<string, string>>; inbox: InboxEntry[]; receiver_url: string;
};

/** Follows an OAuth sign-in as a browser would: the simulator's authorize page consents and sends us back. */
async function signIn(platform: string): Promise<string> {
  const start = await api('POST', `/api/oauth/${platform}/url`, {});
  expect([platform, start.status]).toEqual([platform, 200]);
  let next = start.body.url as string;
  // the sign-in link binds the sign-in to this "browser" with a cookie, then leads to the simulator
  expect(next.startsWith(`${rt.url}/api/oauth/${platform}/callback?start=`)).toBe(true);
  const jar = new Map<string, string>();
  let res!: Response;
  for (let i = 0; i < 8 && next; i++) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    res = await fetch(next, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA, ...(cookie ? { cookie } : {}) } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const loc = res.headers.get('location');
    next = loc ? new URL(loc, next).toString() : '';
  }
  let page = await res.text();
  const pick = /<form method="post" action="([^"]+)"><input type="hidden" name="pick" value="([^"]+)">.*?name="account" value="([^"]+)"/s.exec(page);
  if (pick) {
    const body = new URLSearchParams({ pick: pick[2].replace(/&amp;/g, '&'), account: pick[3] }).toString();
    const chosen = await fetch(new URL(pick[1].replace(/&amp;/g, '&'), rt.url), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    page = await chosen.text();
  }
  return page;
}

describe('npm start runs every network as a simulator (sandbox mode, the default)', () => {
  it('answers GET /dev/sandbox with the mode and credentials that work; GET /api/platforms offers every OAuth network', async () => {
    expect(rt.networks).toBe('sandbox');
    const sb = await sandbox();
    expect(sb.mode).toBe('sandbox');
    expect(Object.keys(sb.credentials).sort()).toEqual(['bluesky', 'devto', 'discord', 'hashnode', 'mastodon', 'nostr', 'slack', 'telegram', 'wordpress']);
    const platforms = (await client(rt.url)('GET', '/api/platforms')).body.platforms as Array<{ name: string; available: boolean }>;
    expect(platforms.filter((p) => !p.available).map((p) => p.name)).toEqual(['reddit']);
  });

  it('the nine credential networks connect with the sandbox credentials and publish; bad credentials are refused', async () => {
    const sb = await sandbox();
    for (const [platform, credentials] of Object.entries(sb.credentials)) {
      const res = await api('POST', '/api/connect', { platform, credentials });
      expect([platform, res.status, res.body.code]).toEqual([platform, 200, undefined]);
    }
    expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { ...sb.credentials.telegram, bot_token: 'bad-token' } })).body).toMatchObject({ code: 'invalid_credentials' });
    expect((await api('POST', '/api/connect', { platform: 'bluesky', credentials: { ...sb.credentials.bluesky, app_password: 'bad-pass-word-xxxx' } })).body).toMatchObject({ code: 'invalid_credentials' });
    expect((await api('POST', '/api/connect', { platform: 'devto', credentials: { api_key: 'bad-key' } })).body).toMatchObject({ code: 'invalid_credentials' });

    const res = await api('POST', '/api/post', { platforms: Object.keys(sb.credentials), text: 'Hello from the sandbox', title: 'Sandbox hello' });
    expect(res.status).toBe(200);
    const results = res.body.results as Array<{ platform: string; ok: boolean; status: string; id?: string }>;
    expect(results.map((r) => [r.platform, r.ok, r.status])).toEqual(Object.keys(sb.credentials).map((p) => [p, true, 'published']));
    expect(results.every((r) => typeof r.id === 'string' && r.id !== '')).toBe(true);
    // each post's link is its network's newest entry in the sandbox inbox (the real network never saw it)
    expect(results.map((r) => (r as { url?: string }).url)).toEqual(Object.keys(sb.credentials).map((p) => `${rt.url}/dev/sandbox/inbox#${p}`));

    const inbox = (await sandbox()).inbox.filter((e) => e.text?.includes('Hello from the sandbox'));
    expect(inbox.map((e) => e.network).sort()).toEqual(Object.keys(sb.credentials).sort());
  });

  it('the OAuth networks sign in on their simulated pages with sandbox client ids, and publish (video, photo and text)', async () => {
    for (const platform of ['linkedin', 'x', 'tiktok', 'youtube', 'facebook', 'instagram']) {
      const page = await signIn(platform);
      expect([platform, page]).toEqual([platform, expect.stringMatching(/connected/i)]);
    }
    // reddit: its simulator signs in, but the network is not offered, so a post answers platform_unavailable
    await signIn('reddit');
    const origin = rt.url;
    const text = await api('POST', '/api/post', { platforms: ['linkedin', 'x', 'facebook'], text: 'OAuth hello' });
    expect((text.body.results as Array<Record<string, unknown>>).map((r) => [r.platform, r.ok, r.status])).toEqual([['linkedin', true, 'published'], ['x', true, 'published'], ['facebook', true, 'published']]);
    const video = await api('POST', '/api/post', { platforms: ['tiktok', 'youtube'], text: 'A clip', title: 'Clip', video_url: `${origin}/sandbox/media/sample.mp4` });
    expect((video.body.results as Array<Record<string, unknown>>).map((r) => [r.platform, r.ok])).toEqual([['tiktok', true], ['youtube', true]]);
    const photo = await api('POST', '/api/post', { platform: 'instagram', text: 'A photo', photo_url: `${origin}/sandbox/media/sample.jpg` });
    expect((photo.body.results as Array<Record<string, unknown>>)[0]).toMatchObject({ platform: 'instagram', ok: true });
    // the simulator's container was IN_PROGRESS on the first status read, then FINISHED, then published
    const statusReads = rt.sandbox!.fake('facebook', MetaKindsFake).requests.filter((r) => r.method === 'GET' && r.url.searchParams.get('fields')?.includes('status_code'));
    expect(statusReads.length).toBeGreaterThanOrEqual(2);
    await rt.drained();
    const stored = await api('GET', `/api/posts/${photo.body.post_id as string}`);
    expect((stored.body.results as Array<{ status: string }>)[0].status).toBe('published');
    const reddit = await api('POST', '/api/post', { platform: 'reddit', text: 'r', subreddit: 'test' });
    expect((reddit.body.results as Array<Record<string, unknown>>)[0]).toMatchObject({ ok: false, code: 'platform_unavailable' });

    const networks = new Set((await sandbox()).inbox.map((e) => e.network));
    for (const n of ['linkedin', 'x', 'facebook', 'tiktok', 'youtube', 'instagram']) expect([n, networks.has(n as InboxEntry['network'])]).toEqual([n, true]);
  });

  it('a post whose text holds sandbox:429 meets a rate limit with a wait, then goes through', async () => {
    const before = rt.sandbox!.rateLimited.length;
    const res = await api('POST', '/api/post', { platform: 'telegram', text: 'Busy network sandbox:429' });
    expect((res.body.results as Array<Record<string, unknown>>)[0]).toMatchObject({ ok: true, status: 'published' });
    expect(rt.sandbox!.rateLimited.slice(before)).toEqual(['telegram']);
    expect(rt.sandbox!.fake('telegram', TelegramFake).requests.filter((r) => (r.json as { text?: string } | undefined)?.text === 'Busy network sandbox:429')).toHaveLength(1);
  });

  it('the simulators refuse what the networks refuse: a text over the limit, a bad token (called directly, as a client would)', async () => {
    const tg = (await sandbox()).credentials.telegram;
    const send = (token: string, text: string) => fetch(`${rt.url}/sandbox/telegram/bot${token}/sendMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: tg.chat_id, text }) });
    const long = await send(tg.bot_token, 'x'.repeat(4097));
    expect([long.status, await long.json()]).toEqual([400, { ok: false, error_code: 400, description: 'Bad Request: message is too long' }]);
    const bad = await send('bad-token', 'hi');
    expect(bad.status).toBe(401);
    const fine = await send(tg.bot_token, 'x'.repeat(4096));
    expect(fine.status).toBe(200);
    // through the API the adapter refuses first, so nothing is sent
    const viaApi = await api('POST', '/api/post', { platform: 'telegram', text: 'y'.repeat(5000) });
    expect((viaApi.body.results as Array<Record<string, unknown>>)[0]).toMatchObject({ ok: false, code: 'text_too_long' });
  });

  it('the inbox page shows the posts newest first, as an accessible page that needs no script', async () => {
    const res = await fetch(`${rt.url}/dev/sandbox/inbox`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<h1>Sandbox inbox</h1>');
    expect(html).not.toContain('<script');
    expect(html.indexOf('Busy network sandbox:429')).toBeLessThan(html.indexOf('Hello from the sandbox'));
    expect(html).toMatch(/<li id="telegram"><p><b>telegram<\/b>[^]*?Busy network sandbox:429/);
    for (const n of ['bluesky', 'mastodon', 'linkedin', 'x']) expect(html).toContain(`<li id="${n}">`);
    const times = (await sandbox()).inbox.map((e) => e.received_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('webhooks reach the sandbox receiver; any other private address stays refused (no global ALLOW_PRIVATE_TARGETS)', async () => {
    const seen: string[] = [];
    const listener = http.createServer((req, res) => { seen.push(req.url ?? ''); res.end(); });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (listener.address() as AddressInfo).port;
      for (const url of [`http://127.0.0.1:${port}/hook`, `http://localhost:${port}/hook`, `${rt.url}/api/platforms`]) {
        const refused = await api('POST', '/api/webhooks', { url });
        expect([url, refused.status]).toEqual([url, 400]);
      }
      expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: (await sandbox()).credentials.telegram })).status).toBe(200);
      const media = await api('POST', '/api/post', { platform: 'telegram', text: 'private media', photo_url: `http://127.0.0.1:${port}/a.png` });
      expect((media.body.results as Array<Record<string, unknown>>)[0]).toMatchObject({ ok: false, code: 'media_unreachable' });
      expect(seen).toEqual([]);

      const sb = await sandbox();
      const hook = await api('POST', '/api/webhooks', { url: sb.receiver_url });
      expect(hook.status).toBe(201);
      const test = await api('POST', `/api/webhooks/${(hook.body.webhook as { id: string }).id}/test`);
      expect(test.status).toBe(202);
      await rt.drained();
      const delivered: InboxEntry[] = (await sandbox()).inbox.filter((e) => e.network === 'webhook');
      expect(delivered.length).toBe(1);
    } finally {
      await new Promise<void>((r) => listener.close(() => r()));
    }
  });
});

describe('NETWORKS=live and explicit network settings', () => {
  it('NETWORKS=live runs no simulator; an explicit <NAME>_API_BASE wins over the sandbox', async () => {
    await rt.stop();
    const live = await startRuntime({ NETWORKS: 'live' });
    try {
      expect(live.networks).toBe('live');
      expect((await client(live.url)('GET', '/dev/sandbox')).status).toBe(404);
      const platforms = (await client(live.url)('GET', '/api/platforms')).body.platforms as Array<{ name: string; available: boolean }>;
      expect(platforms.find((p) => p.name === 'linkedin')).toMatchObject({ name: 'linkedin', available: false });
      expect(process.env.TELEGRAM_API_BASE).toBeUndefined();
    } finally {
      await live.stop();
    }
    rt = await startRuntime({ NETWORKS: 'sandbox', TELEGRAM_API_BASE: 'http://127.0.0.1:9/telegram' });
    expect(rt.explicitNetworks).toEqual(['telegram']);
    expect(process.env.TELEGRAM_API_BASE).toBe('http://127.0.0.1:9/telegram');
    expect(process.env.BLUESKY_API_BASE).toBe(`${rt.url}/sandbox/bluesky`);
  });
});

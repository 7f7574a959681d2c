import fs from 'node:fs';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

/** Contract defects found by black-box runs against `npm start`, checked through the local runtime. */
let rt: LocalRuntime;
const telegram = new TelegramFake();
const discord = new DiscordFake();
let key: string;

beforeAll(async () => {
  await Promise.all([telegram.start(), discord.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  key = await signupThroughApi(rt.url, 'contract@example.com', 'starter');
  const api = client(rt.url, key);
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
  expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), discord.stop()]);
});

const sends = () => telegram.requests.filter((r) => r.path.endsWith('/sendMessage')).length;

describe('request objects are strict: unknown fields are 400 unknown_field, naming them and the nearest known name', () => {
  it('a typo in idempotency_key publishes nothing', async () => {
    const api = client(rt.url, key);
    const before = sends();
    const res = await api('POST', '/api/post', { platform: 'telegram', text: 'typo', idempotencykey: 'k' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_field', fields: ['idempotencykey'], suggestions: { idempotencykey: 'idempotency_key' } });
    expect(res.body.error).toContain('did you mean idempotency_key?');
    expect(sends()).toBe(before);
  });

  it('nested objects too: a draft field and a media item field', async () => {
    const api = client(rt.url, key);
    const draft = await api('POST', '/api/post', { platform: 'telegram', text: 'x', per_platform: { telegram: { txt: 'y' } } });
    expect(draft.body).toMatchObject({ code: 'unknown_field', fields: ['per_platform.telegram.txt'], suggestions: { 'per_platform.telegram.txt': 'text' } });
    const media = await api('POST', '/api/post', { platform: 'telegram', text: 'x', media: [{ url: 'https://example.com/a.png', kind: 'image' }] });
    expect(media.body).toMatchObject({ code: 'unknown_field', fields: ['media.0.kind'] });
  });

  it('per_platform keys must be networks of the request', async () => {
    const api = client(rt.url, key);
    const res = await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'x', per_platform: { discrod: { text: 'y' } } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unknown_field', fields: ['per_platform.discrod'], suggestions: { 'per_platform.discrod': 'discord' } });
    const other = await api('POST', '/api/post', { platform: 'telegram', text: 'x', per_platform: { bluesky: { text: 'y' } } });
    expect(other.body).toMatchObject({ code: 'unknown_field', fields: ['per_platform.bluesky'] });
  });

  it('every route: schedule, webhooks, keys, signup and query strings', async () => {
    const api = client(rt.url, key);
    const runAt = new Date(Date.now() + 3_600_000).toISOString();
    expect((await api('POST', '/api/schedule', { platform: 'telegram', text: 'x', run_at: runAt, runat: runAt })).body)
      .toMatchObject({ code: 'unknown_field', fields: ['runat'], suggestions: { runat: 'run_at' } });
    expect((await api('POST', '/api/keys', { name: 'k', expires_days: 3 })).body).toMatchObject({ code: 'unknown_field', fields: ['expires_days'] });
    expect((await client(rt.url)('POST', '/api/signup', { email: 'x@example.com', emial: 'y' })).body).toMatchObject({ code: 'unknown_field', fields: ['emial'] });
    const bulk = await api('POST', '/api/bulk', { posts: [{ platform: 'telegram', text: 'a', run_at: runAt, titel: 't' }] });
    expect((bulk.body.errors as Array<Record<string, unknown>>)[0]).toMatchObject({ row: 1, code: 'unknown_field' });
    const query = await api('GET', '/api/posts?limit=5&befor=pst_x');
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ code: 'unknown_field', fields: ['befor'], suggestions: { befor: 'before' } });
    expect((await api('GET', '/api/schedule?stauts=scheduled')).body).toMatchObject({ code: 'unknown_field', suggestions: { stauts: 'status' } });
    // routes that take no query or no body refuse them too
    expect((await api('GET', '/api/me?verbose=1')).body).toMatchObject({ code: 'unknown_field', fields: ['verbose'] });
    expect((await api('GET', '/api/me')).status).toBe(200);
    expect((await api('POST', '/api/webhooks', { url: `${rt.url}/sandbox/receiver` })).status).toBe(201);
    const hooks = (await api('GET', '/api/webhooks')).body.webhooks as Array<{ id: string }>;
    expect((await api('POST', `/api/webhooks/${hooks[0].id}/rotate`, { grace: 5 })).body).toMatchObject({ code: 'unknown_field', fields: ['grace'] });
    expect((await api('POST', `/api/webhooks/${hooks[0].id}/rotate`, {})).status).toBe(200);
  });
});

describe('HTTP semantics', () => {
  it('405 carries Allow; 401 carries WWW-Authenticate: Bearer', async () => {
    const res = await fetch(`${rt.url}/api/platforms`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    const keys = await fetch(`${rt.url}/api/keys`, { method: 'PUT' });
    expect(keys.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    const anon = await fetch(`${rt.url}/api/me`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Bearer');
    const bad = await fetch(`${rt.url}/api/me`, { headers: { authorization: 'Bearer svc_live_nope' } });
    expect([bad.status, bad.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
  });
});

describe('GET /api/usage', () => {
  it('every limit has limit, used, remaining and resets_at; the requests a minute count this key', async () => {
    const api = client(rt.url, key);
    const res = await api('GET', '/api/usage');
    expect(res.status).toBe(200);
    const { plan, ...limits } = res.body;
    expect(plan).toBe('starter');
    for (const [name, l] of Object.entries(limits)) {
      expect([name, Object.keys(l as object).filter((k) => k !== 'fair_use').sort()]).toEqual([name, ['limit', 'remaining', 'resets_at', 'used']]);
    }
    const rpm = limits.api_requests_per_minute_per_key as { limit: number; used: number; remaining: number; resets_at: string };
    expect(rpm.limit).toBe(120);
    expect(rpm.used).toBeGreaterThanOrEqual(1);
    expect(rpm.remaining).toBe(120 - rpm.used);
    expect(Date.parse(rpm.resets_at) - Date.now()).toBeLessThanOrEqual(60_000);
    const again = (await api('GET', '/api/usage')).body.api_requests_per_minute_per_key as { used: number; resets_at: string };
    if (again.resets_at === rpm.resets_at) expect(again.used).toBe(rpm.used + 1);
    expect(limits.networks_per_post).toEqual({ limit: null, used: null, remaining: null, resets_at: null });
    expect(limits.brands).toMatchObject({ used: 1, resets_at: null });
  });
});

describe('local stand-ins listen on 127.0.0.1 only', () => {
  /** Listening TCP sockets of this process' machine: port → local addresses (Linux /proc/net). */
  function listeners(): Map<number, string[]> {
    const out = new Map<number, string[]>();
    for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!fs.existsSync(file)) continue;
      for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        if (cols.length < 4 || cols[3] !== '0A') continue; // LISTEN
        const [addr, port] = cols[1].split(':');
        const p = parseInt(port, 16);
        out.set(p, [...(out.get(p) ?? []), addr]);
      }
    }
    return out;
  }

  it('DynamoDB, S3, SQS and the HTTP server are bound to loopback', () => {
    const ports = [process.env.DYNAMODB_ENDPOINT, process.env.S3_ENDPOINT, process.env.SQS_ENDPOINT, rt.url].map((u) => Number(new URL(u!).port));
    const bound = listeners();
    for (const port of ports) {
      const addrs = bound.get(port);
      expect([port, addrs?.length]).toEqual([port, 1]);
      expect([port, addrs![0]]).toEqual([port, '0100007F']); // 127.0.0.1, little-endian hex; never 00000000 (all interfaces)
    }
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import type { FakeHandler, RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';
import { WebhookReceiver } from '../webhooks/receiver';
import { client, signupThroughApi } from '../support/runtime';

/**
 * Nothing lost across a crash (docs/architecture.md "A post"): `npm start`'s own entry point (bin/local.ts, its SQS
 * in memory) runs as its own process and is killed with SIGKILL mid-work, then started again on the same DATA_DIR.
 * The networks (slow loopback fakes: Telegram, which cannot be read back, and Mastodon, which can) and the webhook
 * receiver live in this process, so they count across the kill.
 * Each time: no network is sent twice, every network settles (the start-up sweep re-drives what the dead process
 * had queued or claimed), and every published network has exactly one post.published delivery id at the receiver.
 * The three kills run on one data dir in order: mid-fan-out, mid-webhook-delivery, mid-scheduled-fire.
 */
const ROOT = path.join(__dirname, '..', '..');
const telegram = new TelegramFake();
const mastodon = new MastodonFake();
const rx = new WebhookReceiver();
let work = '';
let server: ChildProcess | undefined;
let base = '';
let stderr = '';
let key = '';
/** The API of the process running now (each start listens on a new port). */
const api: ReturnType<typeof client> = (...args) => client(base, key)(...args);
/** How long each send to a network takes (ms): long enough to kill the process while sends are in flight. */
let networkDelay = 0;
let receiverDelay = 0;

/** The text a network received in a send request (Telegram sendMessage, a Mastodon status). */
function sentText(req: RecordedRequest): string | undefined {
  const body = req.json as { text?: string; status?: string } | undefined;
  if (req.path.endsWith('/sendMessage')) return body?.text;
  if (req.method === 'POST' && req.path === '/api/v1/statuses') return body?.status;
  return undefined;
}

function slowSends(server: { handler: FakeHandler }) {
  const answer = server.handler;
  server.handler = async (req) => {
    const reply = await answer(req);
    return sentText(req) !== undefined && networkDelay ? { ...reply, delayMs: networkDelay } : reply;
  };
}

const sends = () => [...telegram.requests, ...mastodon.requests].map(sentText).filter((t): t is string => t !== undefined);
const mastodonSends = () => mastodon.requests.map(sentText).filter((t): t is string => t !== undefined);

async function start(): Promise<void> {
  stderr = '';
  // tsx as a loader of this very process (its CLI would run the service in a child that a SIGKILL would not reach)
  server = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '', HOME: work, PORT: '0', DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'error',
      ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url, PUBLISH_WAIT_MS: '300',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  let banner = '';
  base = await new Promise<string>((resolve, reject) => {
    server!.stdout!.on('data', (c: Buffer) => {
      banner += c.toString();
      const m = /listening on (http:\/\/localhost:\d+)/.exec(banner);
      if (m && banner.includes('Ctrl-C')) resolve(m[1]);
    });
    server!.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${banner}${stderr}`)));
  });
}

/** SIGKILL: no shutdown handler runs, the in-memory queue and every worker in flight die with the process. */
async function kill(): Promise<void> {
  const exited = new Promise((r) => server!.once('exit', r));
  server!.kill('SIGKILL');
  await exited;
  server = undefined;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Result = { platform: string; ok: boolean; status: string; code?: string; error?: string };
type PostView = { id: string; text: string; source: string; schedule_id?: string; results: Result[] };

/** Every post of the account once no network of any is still queued, sending or scheduled. */
async function settledPosts(count: number): Promise<PostView[]> {
  return until(`${count} posts settled`, async () => {
    const res = await api('GET', '/api/posts?limit=50');
    const posts = (res.body.posts ?? []) as PostView[];
    const open = posts.some((p) => p.results.some((r) => !['published', 'failed', 'unknown'].includes(r.status)));
    return posts.length >= count && !open ? posts : undefined;
  });
}

type Hook = { type: string; delivery_id: string; data: { post_id: string; platform: string; decided_by_read_back?: boolean } };
const hooks = () => rx.received.map((r) => JSON.parse(r.raw.toString()) as Hook);

/**
 * The promises of a crash: each post's text reached each network at most once; a published network was sent once;
 * every network has exactly one outcome delivery id at the receiver (post.published or post.failed, redeliveries of
 * the same id allowed), and one decided by reconciliation also its post.reconciled.
 */
async function expectNothingLost(posts: PostView[]) {
  const sent = sends();
  for (const p of posts) {
    const times = sent.filter((t) => t === p.text).length;
    expect({ post: p.text, times: times <= p.results.length }).toEqual({ post: p.text, times: true });
    for (const r of p.results) if (r.status === 'published') expect(times).toBeGreaterThanOrEqual(1);
    // Mastodon can be read back: a status it received is published, never left unknown (Telegram cannot: unknown)
    const onMastodon = mastodonSends().filter((t) => t === p.text).length;
    expect({ post: p.text, mastodon: onMastodon }).toEqual({ post: p.text, mastodon: onMastodon > 1 ? 1 : onMastodon });
    const m = p.results.find((r) => r.platform === 'mastodon');
    if (onMastodon) expect({ post: p.text, mastodon: m?.status, error: m?.error }).toEqual({ post: p.text, mastodon: 'published', error: undefined });
  }
  const expected = posts.flatMap((p) => p.results.map((r) => ({ post_id: p.id, platform: r.platform, type: r.ok ? 'post.published' : 'post.failed', reconciled: r.code === 'outcome_unknown' })));
  await until('every outcome delivered', () => (expected.every((e) => hooks().some((h) => h.type === e.type && h.data.post_id === e.post_id && h.data.platform === e.platform)) ? true : undefined));
  for (const e of expected) {
    const ids = new Set(hooks().filter((h) => h.type.startsWith('post.') && h.type !== 'post.reconciled' && h.data.post_id === e.post_id && h.data.platform === e.platform).map((h) => h.delivery_id));
    expect({ ...e, outcome_delivery_ids: ids.size }).toEqual({ ...e, outcome_delivery_ids: 1 });
    if (e.reconciled) expect(hooks().some((h) => h.type === 'post.reconciled' && h.data.post_id === e.post_id && h.data.platform === e.platform)).toBe(true);
  }
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-crash-'));
  await Promise.all([telegram.start(), mastodon.start(), rx.start()]);
  slowSends(telegram.server);
  slowSends(mastodon.server);
  rx.reply = () => ({ status: 200, body: '{"ok":true}', delayMs: receiverDelay });
  await start();
  key = await signupThroughApi(base, 'crash@example.com', 'pro');
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
  expect((await api('POST', '/api/connect', { platform: 'mastodon', credentials: { instance_url: mastodon.url, access_token: mastodon.token } })).status).toBe(200);
  expect((await api('POST', '/api/webhooks', { url: rx.url('/events'), events: ['post.published', 'post.failed', 'post.reconciled'] })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  if (server) await kill();
  await Promise.all([telegram.stop(), mastodon.stop(), rx.stop()]);
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('SIGKILL of npm start, then a restart on the same data: nothing lost, nothing sent twice', () => {
  it('killed mid-fan-out (sends to slow networks in flight)', async () => {
    networkDelay = 1_500;
    const texts = Array.from({ length: 6 }, (_, i) => `fan out ${i}`);
    const accepted = texts.map((text) => api('POST', '/api/post', { platforms: ['telegram', 'mastodon'], text }).catch(() => undefined));
    await until('sends in flight', () => (sends().filter((t) => t.startsWith('fan out')).length >= 3 ? true : undefined));
    await kill();
    await Promise.all(accepted);
    const before = sends().length;
    networkDelay = 200;
    await start();
    const posts = (await settledPosts(1)).filter((p) => p.text.startsWith('fan out'));
    expect(posts.length).toBeGreaterThan(0);
    await expectNothingLost(posts);
    // the restart re-drove the networks the dead process had queued, and sent none it had already sent
    expect(sends().length).toBeGreaterThanOrEqual(before);
  }, 90_000);

  it('killed mid-webhook-delivery (the receiver slow, tries in flight)', async () => {
    networkDelay = 0;
    receiverDelay = 3_000;
    const seen = rx.received.length;
    const posted = await Promise.all(['hook 0', 'hook 1', 'hook 2'].map((text) => api('POST', '/api/post', { platforms: ['telegram', 'mastodon'], text })));
    expect(posted.every((r) => r.status === 200)).toBe(true);
    await until('a delivery in flight', () => (rx.received.length > seen ? true : undefined));
    await kill();
    receiverDelay = 0;
    await start();
    const posts = (await settledPosts(1)).filter((p) => p.text.startsWith('hook '));
    expect(posts).toHaveLength(3);
    await expectNothingLost(posts);
  }, 90_000);

  it('killed mid-scheduled-fire (the alarm fired, the post is being sent)', async () => {
    networkDelay = 1_500;
    const runAt = new Date(Date.now() + 5_000).toISOString();
    const scheduled = await Promise.all(['at five 0', 'at five 1', 'at five 2'].map((text) => api('POST', '/api/schedule', { platforms: ['telegram', 'mastodon'], text, run_at: runAt })));
    expect(scheduled.map((r) => r.status)).toEqual([200, 200, 200]);
    await until('a scheduled send in flight', () => (sends().some((t) => t.startsWith('at five')) ? true : undefined), 30_000);
    await kill();
    networkDelay = 200;
    await start();
    const posts = await until('every schedule published as one post', async () => {
      const all = (await settledPosts(1)).filter((p) => p.text.startsWith('at five'));
      return all.length >= 3 ? all : undefined;
    });
    // one post per schedule, never two
    expect(new Set(posts.map((p) => p.schedule_id)).size).toBe(3);
    expect(posts).toHaveLength(3);
    await expectNothingLost(posts);
  }, 90_000);
});

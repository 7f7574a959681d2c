import { networkLimits } from '../../shared/networks/descriptor-limits';
import diagnostics from 'node:diagnostics_channel';
import { createServer, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { publishingWorld } from '../support/publishing';
import { validatePublish, type ValidateAnswer } from '../../shared/app/validate/validate';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import { createSchedule } from '../../shared/app/schedule/create';
import { AppError } from '../../shared/domain/errors';
import { usageKeys } from '../../shared/domain/usage';
import { PLATFORM_NAMES, type PlatformName } from '../../shared/domain/platforms';
import { connectionContext } from '../../shared/app/security/contexts';
import { actorCapKey } from '../../shared/app/guardrails/enforce';
import { buildMp4 } from '../support/mp4';
import type { Account } from '../../shared/ports/store';
import type { ValidateRequest } from '../../shared/app/validate/validate-request';
import type { NetworkResult } from '../../shared/domain/post';

/**
 * POST /api/validate's use case against the embedded DynamoDB and the network fakes: each kind of check gives the
 * verdict the real send gives, and a dry run sends nothing, writes nothing and spends nothing (every HTTP request
 * leaving the process is counted through node:diagnostics_channel: DynamoDB writes by operation, network fakes by host).
 */
let w: Awaited<ReturnType<typeof publishingWorld>>;
let media: Server;
let mediaBase: string;
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 1)]);
const MP4 = buildMp4({ seconds: 20, width: 1080, height: 1920 });

beforeAll(async () => {
  w = await publishingWorld();
  media = createServer((req, res) => {
    const body = req.url?.endsWith('.jpg') ? JPEG : req.url?.endsWith('.mp4') ? MP4 : undefined;
    if (!body) { res.writeHead(404).end(); return; }
    res.writeHead(206, { 'content-type': req.url!.endsWith('.jpg') ? 'image/jpeg' : 'video/mp4', 'content-range': `bytes 0-${body.length - 1}/${body.length}`, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  mediaBase = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((r) => media?.close(r));
  await w?.stop();
});

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** Runs `fn` and counts what left the process meanwhile: DynamoDB writes, and requests to each other host. */
async function counted<T>(fn: () => Promise<T>): Promise<{ value?: T; error?: unknown; writes: string[]; hosts: string[] }> {
  const dynamoHost = new URL(w.table.endpoint).host;
  const writes: string[] = [];
  const hosts: string[] = [];
  const onRequest = (msg: unknown) => {
    const req = (msg as { request: ClientRequest }).request;
    const host = String(req.getHeader('host') ?? '');
    if (host === dynamoHost) {
      const op = String(req.getHeader('x-amz-target') ?? '').split('.').pop() ?? '?';
      if (WRITES.has(op)) writes.push(op);
    } else hosts.push(host);
  };
  const mailsBefore = w.mailer.sent.length;
  const queuedBefore = w.queue.sent.length;
  const timersBefore = w.scheduler.scheduled.size;
  diagnostics.subscribe('http.client.request.start', onRequest);
  try {
    const value = await fn();
    return { value, writes, hosts };
  } catch (error) {
    return { error, writes, hosts };
  } finally {
    diagnostics.unsubscribe('http.client.request.start', onRequest);
    expect(w.mailer.sent.length).toBe(mailsBefore);
    expect(w.queue.sent.length).toBe(queuedBefore);
    expect(w.scheduler.scheduled.size).toBe(timersBefore);
  }
}

const networkHosts = () => [new URL(w.telegram.url).host, new URL(w.discord.webhookUrl).host];

/** The counters a publish spends, read directly. */
async function spent(account: Account) {
  const now = w.deps.clock.now();
  return Promise.all([usageKeys.posts(account.id, now), usageKeys.xCredits(account.id, now), usageKeys.scheduled(account.id)].map((k) => w.deps.counters.get(k)));
}

/** Validates (counting), then sends for real; answers both verdicts per network (code, or 'ok' / 'published'). */
async function dryThenReal(account: Account, body: ValidateRequest, opts: { actor?: { kind: 'key'; id: string } } = {}) {
  const before = await spent(account);
  const dry = await counted(() => validatePublish(w.deps, account, body, opts));
  expect(dry.writes).toEqual([]);
  expect(dry.hosts.filter((h) => networkHosts().includes(h))).toEqual([]);
  expect(await spent(account)).toEqual(before);
  const { check_media: _c, run_at: _r, ...post } = body;
  let real: Awaited<ReturnType<typeof publishPost>> | undefined;
  let realError: unknown;
  try {
    real = await publishPost(w.deps, account, validatePost(post, networkLimits()), { source: 'api', wait: true, actor: opts.actor });
  } catch (err) {
    realError = err;
  }
  await w.queue.drain();
  return { dry: dry.value, dryError: dry.error, real, realError, hosts: dry.hosts };
}

const verdicts = (results: Array<{ platform: string; ok: boolean; code?: string }>) =>
  Object.fromEntries(results.map((r) => [r.platform, r.ok ? 'ok' : r.code]));

/** Both answered per network: validate's ok is the real send's published, and every failure code is the same. */
function expectSameVerdicts(dry: ValidateAnswer | undefined, real: { results: NetworkResult[] } | undefined) {
  expect(dry).toBeDefined();
  expect(real).toBeDefined();
  expect(verdicts(dry!.results)).toEqual(verdicts(real!.results));
}

/** Both refused the whole request with the same status and code. */
function expectSameRefusal(out: { dryError: unknown; realError: unknown }, status: number, code: string) {
  for (const e of [out.dryError, out.realError]) {
    expect(e).toBeInstanceOf(AppError);
    expect({ status: (e as AppError).status, code: (e as AppError).code }).toEqual({ status, code });
  }
}

let seq = 0;
const text = () => `Validate me ${++seq} ${Date.now()}`;

describe('POST /api/validate: the same verdict as the real send, and nothing spent', () => {
  it('ok: a post that fits validates ok, then publishes; nothing was sent or spent by the dry run', async () => {
    const account = await w.discordAccount('pro');
    await w.connectTelegram(w.deps, account);
    const out = await dryThenReal(account, { platforms: ['telegram', 'discord'], text: text() });
    expect(out.dry!.ok).toBe(true);
    expect(out.dry!.results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expectSameVerdicts(out.dry, out.real);
    expect(out.real!.results.map((r) => r.status)).toEqual(['published', 'published']);
  });

  it('body schema: caption_is_json, an unknown per_platform option, an option the network does not take and a bad Threads topic tag refuse the request as the real send does', async () => {
    const account = await w.discordAccount('pro');
    expectSameRefusal(await dryThenReal(account, { platform: 'discord', text: '{"caption":"x"}' }), 400, 'caption_is_json');
    expectSameRefusal(await dryThenReal(account, { platform: 'discord', text: 'x', per_platform: { discord: { thread: ['a'] } } }), 400, 'invalid_request');
    expectSameRefusal(await dryThenReal(account, { platform: 'discord', text: 'x', per_platform: { discord: { topic_tag: 'Baking' } } }), 400, 'invalid_request');
    expectSameRefusal(await dryThenReal(account, { platform: 'threads', text: 'x', per_platform: { threads: { topic_tag: 'Salt & Pepper' } } }), 400, 'invalid_request');
  });

  it('brand resolution: brand_not_found, and ambiguous_brand across two brands', async () => {
    const account = await w.discordAccount('pro');
    expectSameRefusal(await dryThenReal(account, { platform: 'discord', text: text(), brand_id: 'brd_nope' }), 404, 'brand_not_found');
    const second = await w.createBrand(w.deps, account, `Second ${seq}`);
    await w.connectDiscord(w.deps, account, second.id);
    expectSameRefusal(await dryThenReal(account, { platform: 'discord', text: text() }), 409, 'ambiguous_brand');
  });

  it('connection present and healthy: not_connected, reauth_required', async () => {
    const account = await w.discordAccount('pro');
    await w.connectTelegram(w.deps, account);
    const [tg] = (await w.deps.connections.listByAccount(account.id)).filter((c) => c.platform === 'telegram');
    await w.deps.connections.setStatus(account.id, tg.brand_id, 'telegram', 'reauth_required');
    const out = await dryThenReal(account, { platforms: ['discord', 'telegram', 'mastodon'], text: text() });
    expect(verdicts(out.dry!.results)).toEqual({ discord: 'ok', telegram: 'reauth_required', mastodon: 'not_connected' });
    expectSameVerdicts(out.dry, out.real);
  });

  it('plan limits: networks_per_post on Free, X as a paid add-on, the month\'s posts used up', async () => {
    const free = await w.discordAccount('free');
    await w.connectTelegram(w.deps, free);
    const out = await dryThenReal(free, { platforms: ['x', 'discord', 'telegram', 'mastodon'], text: text() });
    expect(verdicts(out.dry!.results)).toEqual({ x: 'plan_feature', discord: 'ok', telegram: 'ok', mastodon: 'networks_per_post' });
    expectSameVerdicts(out.dry, out.real);

    const full = await w.discordAccount('free');
    await w.connectTelegram(w.deps, full);
    const now = w.deps.clock.now();
    await w.deps.counters.increment(usageKeys.posts(full.id, now), 19, 20, Math.floor(now / 1000) + 86_400 * 60);
    const last = await dryThenReal(full, { platforms: ['discord', 'telegram'], text: text() });
    expect(verdicts(last.dry!.results)).toEqual({ discord: 'ok', telegram: 'limit_reached' });
    expectSameVerdicts(last.dry, last.real);
  });

  it('guardrail limits: platform_not_allowed per network, key_monthly_cap_reached for the request', async () => {
    const account = await w.discordAccount('pro');
    await w.connectTelegram(w.deps, account);
    const actor = { kind: 'key' as const, id: `key_guard${++seq}` };
    await w.deps.guardrails.put({ account_id: account.id, kind: 'key', id: actor.id, monthly_post_cap: 1, allowed_platforms: ['discord'], allowed_brands: null, always_require_approval: false, updated_at: new Date().toISOString() });
    const out = await dryThenReal(account, { platforms: ['telegram', 'discord'], text: text() }, { actor });
    expect(verdicts(out.dry!.results)).toEqual({ telegram: 'platform_not_allowed', discord: 'ok' });
    expectSameVerdicts(out.dry, out.real);
    expect(await w.deps.counters.get(actorCapKey(account.id, actor, w.deps.clock.now()))).toBe(1);
    expectSameRefusal(await dryThenReal(account, { platforms: ['discord'], text: text() }, { actor }), 403, 'key_monthly_cap_reached');
  });

  it('content limits in each network\'s own units: Telegram counts UTF-16 units, Discord characters', async () => {
    const account = await w.discordAccount('pro');
    await w.connectTelegram(w.deps, account);
    // 2,100 emoji: 4,200 UTF-16 units (over Telegram's 4,096), 2,100 code points (over Discord's 2,000)
    const out = await dryThenReal(account, { platforms: ['telegram', 'discord'], text: '😀'.repeat(2100) });
    expect(out.dry!.results.every((r) => !r.ok)).toBe(true);
    expectSameVerdicts(out.dry, out.real);
    const fits = await dryThenReal(account, { platforms: ['telegram', 'discord'], text: `${'😀'.repeat(1000)} ${seq}` });
    expect(fits.dry!.ok).toBe(true);
    expectSameVerdicts(fits.dry, fits.real);
  });

  it('media: check_media fetches through the address guard (media_unreachable, the real type) and only then', async () => {
    const account = await w.discordAccount('pro');
    await w.connectTelegram(w.deps, account);
    const gone = `${mediaBase}/gone.png`;
    const quick = await counted(() => validatePublish(w.deps, account, { platforms: ['telegram'], text: text(), photo_url: gone }));
    expect(quick.hosts).toEqual([]);
    expect(quick.value!.media_checked).toBe(false);
    const out = await dryThenReal(account, { platforms: ['telegram'], text: text(), photo_url: gone, check_media: true });
    expect(out.hosts).toEqual([new URL(mediaBase).host]);
    expect(verdicts(out.dry!.results)).toEqual({ telegram: 'media_unreachable' });
    expectSameVerdicts(out.dry, out.real);
    // links that answer: the probe learns their type and size, and they fit
    const fit = await dryThenReal(account, { platforms: ['telegram'], text: text(), photo_url: `${mediaBase}/a.jpg`, check_media: true });
    expect(fit.dry!.ok).toBe(true);
    expectSameVerdicts(fit.dry, fit.real);
  });

  it('media fitness without a download: too many items, a network that needs a video', async () => {
    const account = await w.discordAccount('pro');
    await w.connectTelegram(w.deps, account);
    const many = Array.from({ length: 11 }, (_, i) => ({ url: `${mediaBase}/p${i}.jpg` }));
    const out = await dryThenReal(account, { platforms: ['telegram', 'discord'], text: text(), media: many });
    expect(out.hosts).toEqual([]);
    expect(out.dry!.results.find((r) => r.platform === 'telegram')!.code).toBe('bad_media');
    expectSameVerdicts(out.dry, out.real);
  });

  it('the duplicate lock is read, not taken: a repeat validates 409 duplicate_post, as a repeat send answers', async () => {
    const account = await w.discordAccount('pro');
    const body = { platform: 'discord', text: text(), idempotency_key: `k-${seq}` };
    const first = await dryThenReal(account, body);
    expectSameVerdicts(first.dry, first.real);
    expectSameRefusal(await dryThenReal(account, body), 409, 'duplicate_post');
  });

  it('an approval rule: pending_approval, as the real send holds it (202), with nothing held by the dry run', async () => {
    const account = await w.discordAccount('pro');
    await w.deps.approvals.putRule({ account_id: account.id, scope: 'account', always: true, networks: [], updated_at: new Date().toISOString() });
    const before = (await w.deps.approvals.list(account.id, { limit: 10 })).length;
    const dry = await counted(() => validatePublish(w.deps, account, { platform: 'discord', text: text() }));
    expect(dry.writes).toEqual([]);
    expect(dry.value!.pending_approval).toBe(true);
    expect(dry.value!.ok).toBe(true);
    expect((await w.deps.approvals.list(account.id, { limit: 10 })).length).toBe(before);
    const real = await publishPost(w.deps, account, validatePost({ platform: 'discord', text: `held ${seq}` }, networkLimits()), { source: 'api', wait: true });
    expect('status' in real && real.status).toBe('pending_approval');
  });

  it('with run_at: the schedule\'s checks (invalid_run_at, the connection), and nothing scheduled', async () => {
    const account = await w.discordAccount('pro');
    const past = { platform: 'discord', text: text(), run_at: '2001-01-01T00:00:00Z' };
    const dry = await counted(() => validatePublish(w.deps, account, past));
    const real = await createSchedule(w.deps, account, past).catch((e: unknown) => e);
    for (const e of [dry.error, real]) expect((e as AppError).code).toBe('invalid_run_at');
    const future = new Date(w.deps.clock.now() + 3_600_000).toISOString();
    const ok = await counted(() => validatePublish(w.deps, account, { platforms: ['discord'], text: text(), run_at: future }));
    expect(ok.writes).toEqual([]);
    expect(ok.value).toMatchObject({ ok: true, run_at: new Date(Math.ceil(Date.parse(future) / 1000) * 1000).toISOString() });
    const notConnected = await counted(() => validatePublish(w.deps, account, { platforms: ['telegram'], text: text(), run_at: future }));
    expect(verdicts(notConnected.value!.results)).toEqual({ telegram: 'not_connected' });
    expect(((await createSchedule(w.deps, account, { platforms: ['telegram'], text: text(), run_at: future }).catch((e: unknown) => e)) as AppError).code).toBe('not_connected');
  });
});

/**
 * The pin: for every network and a grid of posts (text short and far too long, a title, no media, a photo, a video,
 * too many photos), a post that validates ok is queued by the real publish path (it fails no check validate could
 * have run), and one that validates with a failure is refused by the real path with that code. The queue does not
 * deliver here: what a network answers once called is not a check validate can run.
 */
describe('validates ok ⇒ the real send fails no check validate could have run (every network)', () => {
  const CREDENTIALS: Record<PlatformName, Record<string, string>> = {
    telegram: { bot_token: '123:abc', chat_id: '@x' }, bluesky: { handle: 'a.bsky.social', app_password: 'p', did: 'did:plc:x', service: 'https://bsky.social' },
    mastodon: { instance_url: 'https://mastodon.example', access_token: 't' }, discord: { webhook_url: 'https://discord.com/api/webhooks/1/x' },
    wordpress: { site_url: 'https://wp.example', username: 'u', app_password: 'p' }, devto: { api_key: 'k' }, hashnode: { token: 't', publication_id: 'p' },
    slack: { webhook_url: 'https://hooks.slack.com/services/T/B/x' }, nostr: { nsec: 'nsec1', relays: 'wss://relay.example' },
    tiktok: { access_token: 't' }, youtube: { access_token: 't' }, reddit: { access_token: 't' }, linkedin: { access_token: 't', author: 'urn:li:person:x' },
    facebook: { access_token: 't', page_id: '1' }, instagram: { access_token: 't', ig_user_id: '1' }, x: { access_token: 't' },
    threads: { access_token: 't', threads_user_id: '1', username: 'u' }, pinterest: { access_token: 't', username: 'u', board_id: '1' },
    google_business: { access_token: 't', account_id: '1', location_id: '2', location_title: 'Shop' },
  };
  const bodies = (): Array<Omit<ValidateRequest, 'platform' | 'platforms'>> => [
    { text: `Short post ${++seq}` },
    { text: `${'long '.repeat(19_000)}${++seq}` },
    { text: `Titled ${++seq}`, title: 'A title', subreddit: 'test' },
    { text: `Photo ${++seq}`, photo_url: `${mediaBase}/one.jpg`, subreddit: 'test', title: 'Photo' },
    { text: `Video ${++seq}`, video_url: `${mediaBase}/clip.mp4`, subreddit: 'test', title: 'Video' },
    { text: `Photos ${++seq}`, media: Array.from({ length: 12 }, (_, i) => ({ url: `${mediaBase}/p${i}.jpg` })), subreddit: 'test', title: 'Photos' },
    { text: `Mislabelled ${++seq}`, media: [{ url: `${mediaBase}/clip.mp4`, type: 'image' as const }], subreddit: 'test', title: 'Video' },
  ];

  it('for every network and post of the grid', async () => {
    const account = await w.newAccount('scale');
    const [brand] = await w.deps.brands.list(account.id);
    for (const platform of PLATFORM_NAMES) {
      await w.deps.connections.put({
        id: `con_${platform}${seq}`, account_id: account.id, brand_id: brand.id, platform, handle: platform, label: platform, status: 'active', connected_at: new Date().toISOString(),
        credentials_enc: await w.deps.cipher.encrypt(JSON.stringify(CREDENTIALS[platform]), connectionContext({ account_id: account.id, brand_id: brand.id, platform }, 'credentials')),
      });
    }
    const worker = w.queue.worker;
    w.queue.worker = undefined;
    const seen = new Set<string>();
    try {
      for (const platform of PLATFORM_NAMES) {
        for (const body of bodies()) {
          const dry = await counted(() => validatePublish(w.deps, account, { ...body, platform, check_media: true }));
          if (dry.error) {
            // refused as a whole request: the real path refuses it the same way
            const real = await publishPost(w.deps, account, validatePost({ ...body, platform }, networkLimits()), { source: 'api', wait: false }).catch((e: unknown) => e);
            expect([platform, (real as AppError).code]).toEqual([platform, (dry.error as AppError).code]);
            continue;
          }
          expect(dry.writes).toEqual([]);
          const queued = w.queue.sent.length;
          const real = await publishPost(w.deps, account, validatePost({ ...body, platform }, networkLimits()), { source: 'api', wait: false });
          const sent = w.queue.sent.slice(queued).map((m) => (m.message.body as { platform: string }).platform);
          const dryResult = dry.value!.results[0];
          seen.add(dryResult.ok ? 'ok' : dryResult.code!);
          if (dryResult.ok) expect([platform, sent]).toEqual([platform, [platform]]);
          else expect([platform, sent, real.results[0].code]).toEqual([platform, [], dryResult.code]);
        }
      }
    } finally {
      w.queue.worker = worker;
    }
    // the grid reaches both sides of the property, and more than one kind of failure
    expect(seen.has('ok')).toBe(true);
    expect([...seen].filter((c) => c !== 'ok').length).toBeGreaterThan(2);
  }, 120_000);
});

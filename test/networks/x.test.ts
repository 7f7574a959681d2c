import { createHash } from 'node:crypto';
import { createXAdapter, createXProvider, weightedLength } from '../../shared/networks/x';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import { XFake } from '../../shared/networks/x/simulator';
import { watchContract } from '../contracts/watch';
import { xApiViolations } from '../contracts/x-openapi';
import { ctxWithSleeps, expireOnHang, testContext } from './context';
import { ManualClock } from '../support/clock';
import { oauthApp, signInThrough } from './oauth-support';

const KIB = 1024;
const fake = new XFake();
// every request the adapter sends to X is checked against X's published OpenAPI document
const contract = watchContract(fake.server, xApiViolations);
let provider: ReturnType<typeof createXProvider>;
let adapter: ReturnType<typeof createXAdapter>;
let app: OAuthApp;
let creds: Record<string, string>;
const verifier = 'x-verifier-'.padEnd(64, 'q');
const challenge = createHash('sha256').update(verifier).digest('base64url');
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'shipping today', media: [], thread: [], send_key: 'post-1:x', ...over });
const tweetUrl = (id: string) => `https://x.com/acmehq/status/${id}`;

beforeAll(async () => {
  await fake.start();
  provider = createXProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createXAdapter({ apiBase: fake.url, chunkSize: 64 * KIB, reserveMs: 50 });
  app = oauthApp(fake, 'x');
  creds = { access_token: fake.token, user_id: fake.user.id, username: fake.user.username };
});
afterAll(() => fake.stop());
afterEach(() => expect(contract.take()).toEqual([]));
beforeEach(() => fake.reset());

const signIn = (): Promise<TokenSet> => signInThrough(provider, app, { state: 'st-x', pkce: { challenge, verifier } });

describe('provider', () => {
  it('authorize URL on authBase with the scopes, state and the S256 challenge; PKCE is required', async () => {
    expect(provider.pkce).toBe(true);
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-x', codeChallenge: challenge }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/i/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code', client_id: 'x-client-id', redirect_uri: app.redirectUri, scope: 'tweet.read tweet.write users.read offline.access media.write',
      state: 'st-x', code_challenge: challenge, code_challenge_method: 'S256',
    });
    await expect(provider.authorizeUrl({ app, state: 's' })).rejects.toThrow(/PKCE/);
    expect(await createXProvider().authorizeUrl({ app, state: 's', codeChallenge: challenge })).toMatch(/^https:\/\/x\.com\/i\/oauth2\/authorize\?/);
  });

  it('code exchange: Basic client auth and the exact form with the verifier, on apiBase', async () => {
    const before = Date.now();
    const tokens = await signIn();
    const [req] = fake.find('POST', '/2/oauth2/token');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('x-client-id:x-client-secret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(req.text))).toEqual({
      grant_type: 'authorization_code', code: 'x-code-1', redirect_uri: app.redirectUri, code_verifier: verifier, client_id: 'x-client-id',
    });
    expect(tokens).toMatchObject({ access_token: 'x-at-2', refresh_token: 'x-rt-2', scope: 'tweet.read tweet.write users.read offline.access media.write' });
    expect(Math.round((tokens.expires_at! - before) / 1000)).toBeGreaterThanOrEqual(7199);
    expect(await provider.exchangeCode({ app, code: 'x-code-9' }, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('verifier') });
    expect(fake.find('POST', '/2/oauth2/token')).toHaveLength(1);
  });

  it('refresh rotates: the new refresh token replaces the old, which no longer works (→ reauth); revoked → reauth', async () => {
    const tokens = await signIn();
    const renewed = await provider.refresh!(tokens, app, testContext({}).ctx);
    expect(Object.fromEntries(new URLSearchParams(fake.find('POST', '/2/oauth2/token')[1].text))).toEqual({
      grant_type: 'refresh_token', refresh_token: 'x-rt-2', client_id: 'x-client-id',
    });
    expect(renewed).toMatchObject({ access_token: 'x-at-3', refresh_token: 'x-rt-3' });
    expect(await provider.refresh!(tokens, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('token was invalid') });
    if ('ok' in renewed) throw new Error('refresh failed');
    fake.revoke();
    expect(await provider.refresh!(renewed, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('accounts(): the user from /2/users/me with user_id and username', async () => {
    const tokens = await signIn();
    expect(await provider.accounts(tokens, testContext({}).ctx)).toEqual([
      { id: fake.user.id, handle: '@acmehq', credentials: { user_id: fake.user.id, username: 'acmehq' } },
    ]);
    expect(fake.find('GET', '/2/users/me')[0].headers.authorization).toBe(`Bearer ${tokens.access_token}`);
  });
});

describe('adapter: check', () => {
  it('counts 280 weighted characters: links 23, CJK and emoji 2, accents 1', () => {
    expect(weightedLength('a'.repeat(280))).toBe(280);
    expect(weightedLength('你好')).toBe(4);
    expect(weightedLength('👍🏽 👨‍👩‍👧 🇫🇷')).toBe(8);
    expect(weightedLength('cafe\u0301')).toBe(4);
    expect(weightedLength(`read https://example.com/${'p'.repeat(300)}.`)).toBe(5 + 23 + 1);
    expect(weightedLength('see acme.io and bob@example.com')).toBe(4 + 23 + 5 + 15);
    expect(adapter.check(content({ text: 'a'.repeat(280) }), creds)).toBeUndefined();
    expect(adapter.check(content({ text: '字'.repeat(140) }), creds)).toBeUndefined();
    expect(adapter.check(content({ text: '字'.repeat(141) }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringContaining('282') });
    expect(adapter.check(content({ text: `${'a'.repeat(256)} https://example.com/${'x'.repeat(100)}` }), creds)).toBeUndefined();
    expect(adapter.check(content({ thread: ['ok', 'b'.repeat(281)] }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringContaining('thread post 2') });
    expect(adapter.check(content({ first_comment: '🙂'.repeat(141) }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringContaining('first comment') });
  });

  it('up to 4 photos, or one video or GIF alone', () => {
    const img = { url: 'https://m/a.png', kind: 'image' as const };
    const gif = { url: 'https://m/a.gif', kind: 'image' as const };
    const vid = { url: 'https://m/v.mp4', kind: 'video' as const };
    expect(adapter.check(content({ media: [img, img, img, img] }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [img, img, img, img, img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [vid] }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [gif, img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [vid, vid] }), creds)).toMatchObject({ code: 'bad_media' });
  });
});

describe('adapter: publish', () => {
  it('verify: @username; a bad token → reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: '@acmehq', credentials: creds });
    expect(await adapter.verify(testContext({ ...creds, access_token: 'old' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('a text post: POST /2/tweets {text} → the status URL', async () => {
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '1870000000000000001', url: tweetUrl('1870000000000000001') });
    const [req] = fake.find('POST', '/2/tweets');
    expect(req.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ text: 'shipping today' });
  });

  it('a thread chains replies; the first comment replies to the first post', async () => {
    const out = await adapter.publish(content({ text: '1/3', thread: ['2/3', '3/3'], first_comment: 'links below' }), testContext(creds).ctx);
    expect(out).toEqual({
      ok: true, status: 'published', id: '1870000000000000001', url: tweetUrl('1870000000000000001'),
      thread_ids: ['1870000000000000002', '1870000000000000003'], comment_id: '1870000000000000004',
    });
    expect(fake.find('POST', '/2/tweets').map((r) => r.json)).toEqual([
      { text: '1/3' },
      { text: '2/3', reply: { in_reply_to_tweet_id: '1870000000000000001' } },
      { text: '3/3', reply: { in_reply_to_tweet_id: '1870000000000000002' } },
      { text: 'links below', reply: { in_reply_to_tweet_id: '1870000000000000001' } },
    ]);
  });

  it('photos: chunked upload (initialize, appends in order, finalize) each, then the post with the media ids', async () => {
    const a = Buffer.alloc(150 * KIB, 7);
    const b = Buffer.from('small-png');
    fake.files.set('a.png', { type: 'image/png', bytes: a });
    fake.files.set('b.jpg', { type: 'image/jpeg', bytes: b });
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('a.png'), kind: 'image' }, { url: fake.mediaUrl('b.jpg'), kind: 'image' }] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const [m1, m2] = ['1860000000000000001', '1860000000000000002'];
    expect(fake.calls).toEqual([
      'POST /2/media/upload/initialize', `POST /2/media/upload/${m1}/append`, `POST /2/media/upload/${m1}/append`, `POST /2/media/upload/${m1}/append`, `POST /2/media/upload/${m1}/finalize`,
      'POST /2/media/upload/initialize', `POST /2/media/upload/${m2}/append`, `POST /2/media/upload/${m2}/finalize`,
      'POST /2/tweets',
    ]);
    expect(fake.find('POST', '/2/media/upload/initialize').map((r) => r.json)).toEqual([
      { media_type: 'image/png', total_bytes: a.length, media_category: 'tweet_image' },
      { media_type: 'image/jpeg', total_bytes: b.length, media_category: 'tweet_image' },
    ]);
    expect([...fake.media.get(m1)!.segments.keys()]).toEqual([0, 1, 2]);
    expect(fake.bytesOf(fake.media.get(m1)!).equals(a)).toBe(true);
    expect(fake.find('POST', '/2/tweets')[0].json).toEqual({ text: 'shipping today', media: { media_ids: [m1, m2] } });
  });

  it('a video: processing polled with STATUS (waiting check_after_secs) within the deadline, then posted', async () => {
    fake.files.set('v.mp4', { type: 'video/mp4', bytes: Buffer.from('mp4-bytes') });
    fake.processingPolls = 2;
    const { ctx, sleeps } = ctxWithSleeps(creds, 5000);
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }] }), ctx);
    expect(out).toMatchObject({ ok: true, status: 'published', id: '1870000000000000001' });
    const id = '1860000000000000001';
    expect(fake.calls).toEqual([
      'POST /2/media/upload/initialize', `POST /2/media/upload/${id}/append`, `POST /2/media/upload/${id}/finalize`,
      'GET /2/media/upload', 'GET /2/media/upload', 'GET /2/media/upload', 'POST /2/tweets',
    ]);
    expect(sleeps).toEqual([1000, 1000, 1000]);
    expect(Object.fromEntries(fake.find('GET', '/2/media/upload')[0].url.searchParams)).toEqual({ command: 'STATUS', media_id: id });
    expect(fake.find('POST', '/2/media/upload/initialize')[0].json).toMatchObject({ media_type: 'video/mp4', media_category: 'tweet_video' });
  });

  it('a video still processing at the deadline → processing with resume; resume posts once it is ready', async () => {
    fake.files.set('v.mp4', { type: 'video/mp4', bytes: Buffer.from('mp4-bytes') });
    fake.processingPolls = 1;
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }] }), testContext(creds, { timeoutMs: 600 }).ctx);
    expect(out).toMatchObject({
      ok: true, status: 'processing', id: '1860000000000000001', url: 'https://x.com/acmehq',
      resume: { after_seconds: 1, state: { media_ids: '1860000000000000001', pending: '1860000000000000001', attempt: '1' } },
    });
    expect(fake.tweets).toHaveLength(0);
    if (!out.ok || !out.resume) throw new Error('expected resume');
    const mid = await adapter.resume!(content({ media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }] }), out.resume.state, testContext(creds, { timeoutMs: 600 }).ctx);
    expect(mid).toMatchObject({ status: 'processing', resume: { state: { attempt: '2' } } });
    if (!mid.ok || !mid.resume) throw new Error('expected resume');
    const done = await adapter.resume!(content(), mid.resume.state, testContext(creds).ctx);
    expect(done).toEqual({ ok: true, status: 'published', id: '1870000000000000001', url: tweetUrl('1870000000000000001') });
    expect(fake.tweets[0].body).toEqual({ text: 'shipping today', media: { media_ids: ['1860000000000000001'] } });
  });

  it('media processing failed → bad_media, nothing posted; 403 on media upload → reauth (media.write)', async () => {
    fake.files.set('v.mp4', { type: 'video/mp4', bytes: Buffer.from('mp4-bytes') });
    fake.processingFails = true;
    fake.processingPolls = 0;
    expect(await adapter.publish(content({ media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }] }), ctxWithSleeps(creds).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: expect.stringContaining('Unsupported video codec') });
    expect(fake.tweets).toHaveLength(0);
    fake.failNext('POST /2/media/upload/initialize', XFake.problem(403, 'Forbidden', 'You are not permitted to perform this action.'));
    expect(await adapter.publish(content({ media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }] }), testContext(creds).ctx))
      .toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('media.write') });
  });

  it('429 → rate_limited until x-rate-limit-reset, or the 24-hour reset when that window is used up', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
    const now = clock.now() / 1000;
    fake.failNext('POST /2/tweets', { ...XFake.problem(429, 'Too Many Requests', 'Too Many Requests'), headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(now + 300) } });
    const out = await adapter.publish(content(), testContext(creds, { clock }).ctx);
    if (out.ok || out.kind !== 'rate_limited') throw new Error(`expected rate_limited, got ${JSON.stringify(out)}`);
    expect(out.retry_after).toBe(300);
    fake.failNext('POST /2/tweets', {
      ...XFake.problem(429, 'Too Many Requests', 'Too Many Requests'),
      headers: { 'x-rate-limit-reset': String(now + 300), 'x-user-limit-24hour-remaining': '0', 'x-user-limit-24hour-reset': String(now + 20_000) },
    });
    const daily = await adapter.publish(content(), testContext(creds, { clock }).ctx);
    if (daily.ok || daily.kind !== 'rate_limited') throw new Error(`expected rate_limited, got ${JSON.stringify(daily)}`);
    expect(daily.retry_after).toBe(20_000);
  });

  it('duplicate content (403) and the monthly usage cap → rejected with a clear message', async () => {
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: true });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('duplicate content') });
    fake.failNext('POST /2/tweets', XFake.problem(429, 'UsageCapExceeded', 'Usage cap exceeded: Monthly product cap', 'https://api.twitter.com/2/problems/usage-capped'));
    expect(await adapter.publish(content({ text: 'new' }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('monthly post cap') });
  });

  it('an expired token → reauth; a hang on the post → timeout; a hang on a media upload → transient', async () => {
    expect(await adapter.publish(content(), testContext({ ...creds, access_token: 'expired' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    fake.failNext('POST /2/tweets', { hang: true });
    const post = testContext(creds);
    expect(await expireOnHang(fake.server, post.expire, () => adapter.publish(content(), post.ctx))).toMatchObject({ ok: false, kind: 'timeout' });
    fake.files.set('a.png', { type: 'image/png', bytes: Buffer.from('png') });
    fake.failNext('POST /2/media/upload/initialize', { hang: true });
    const upload = testContext(creds);
    expect(await expireOnHang(fake.server, upload.expire, () => adapter.publish(content({ media: [{ url: fake.mediaUrl('a.png'), kind: 'image' }] }), upload.ctx)))
      .toMatchObject({ ok: false, kind: 'transient', error: expect.stringContaining('nothing was posted') });
  });
});

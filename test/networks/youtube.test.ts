import { createHash } from 'node:crypto';
import { createYouTubeAdapter, createYouTubeProvider, secondsUntilPacificMidnight } from '../../shared/networks/youtube';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import { YouTubeFake } from '../../shared/networks/youtube/simulator';
import { expireOnHang, testContext } from './context';
import { ManualClock } from '../support/clock';
import { oauthApp, signInThrough } from './oauth-support';

const KIB = 1024;
const fake = new YouTubeFake();
let provider: ReturnType<typeof createYouTubeProvider>;
let adapter: ReturnType<typeof createYouTubeAdapter>;
let app: OAuthApp;
let creds: Record<string, string>;
const SIZE = 2 * 256 * KIB + 1000;
const clip = Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 7) % 251));
const content = (over: Partial<PublishContent> = {}): PublishContent => ({
  text: 'Behind the scenes of the launch', title: 'Launch day', media: [{ url: fake.mediaUrl('clip.mp4'), kind: 'video' }], thread: [], send_key: 'post-1:youtube', ...over,
});
const verifier = 'v'.repeat(43);
const challenge = createHash('sha256').update(verifier).digest('base64url');

beforeAll(async () => {
  await fake.start();
  // Only authBase: the token endpoint follows it (one origin serves both, as YOUTUBE_AUTH_BASE promises).
  provider = createYouTubeProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createYouTubeAdapter({ apiBase: fake.url, uploadBase: fake.url, chunkSize: 256 * KIB, reserveMs: 100 });
  app = oauthApp(fake, 'youtube');
  creds = { access_token: fake.token, channel_id: 'UCacme000000000000000001', channel_title: 'Acme Channel' };
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  fake.media.set('clip.mp4', { type: 'video/mp4', bytes: clip });
});

const signIn = (): Promise<TokenSet> => signInThrough(provider, app, { state: 'st-9', pkce: { challenge, verifier } });

describe('provider', () => {
  it('authorize URL: client_id, redirect_uri, the scopes (upload, readonly, force-ssl for thumbnails and playlists), offline access, consent prompt, state, S256 challenge', async () => {
    expect(provider.pkce).toBe(true);
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-9', codeChallenge: challenge }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fake.clientId, redirect_uri: app.redirectUri, response_type: 'code',
      scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
      access_type: 'offline', prompt: 'consent', state: 'st-9', code_challenge: challenge, code_challenge_method: 'S256',
    });
    expect(await provider.authorizeUrl({ app, state: 's' })).not.toContain('code_challenge');
    expect(await createYouTubeProvider().authorizeUrl({ app, state: 's' })).toMatch(/^https:\/\/accounts\.google\.com\/o\/oauth2\/v2\/auth\?/);
  });

  it('click-through and code exchange: the exact form with the verifier; a wrong verifier → reauth', async () => {
    const before = Date.now();
    const tokens = await signIn();
    const [req] = fake.find('POST', '/token');
    expect(Object.fromEntries(new URLSearchParams(req.text))).toEqual({
      code: 'yt-code-1', client_id: fake.clientId, client_secret: fake.clientSecret, redirect_uri: app.redirectUri, grant_type: 'authorization_code', code_verifier: verifier,
    });
    expect(tokens).toMatchObject({ access_token: 'yt-at-2', refresh_token: 'yt-rt-2', scope: expect.stringContaining('youtube.upload') });
    expect(Math.round((tokens.expires_at! - before) / 1000)).toBeGreaterThanOrEqual(3598);
    const res = await fetch(await provider.authorizeUrl({ app, state: 's', codeChallenge: challenge }), { redirect: 'manual' });
    const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
    expect(await provider.exchangeCode({ app, code, codeVerifier: 'w'.repeat(43) }, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('code_verifier') });
  });

  it('refresh: the refresh form; Google sends no new refresh token, so the old one is kept; revoked → reauth', async () => {
    const tokens = await signIn();
    const renewed = await provider.refresh!(tokens, app, testContext({}).ctx);
    expect(Object.fromEntries(new URLSearchParams(fake.find('POST', '/token')[1].text))).toEqual({
      client_id: fake.clientId, client_secret: fake.clientSecret, grant_type: 'refresh_token', refresh_token: 'yt-rt-2',
    });
    expect(renewed).toMatchObject({ access_token: 'yt-at-3', refresh_token: 'yt-rt-2' });
    fake.revoke();
    expect(await provider.refresh!(tokens, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('invalid_grant') });
  });

  it('accounts(): one per channel with channel_id and title; no channel → rejected', async () => {
    const tokens = await signIn();
    expect(await provider.accounts(tokens, testContext({}).ctx)).toEqual([
      { id: 'UCacme000000000000000001', handle: '@acmechannel', credentials: { channel_id: 'UCacme000000000000000001', channel_title: 'Acme Channel' } },
    ]);
    const [req] = fake.find('GET', '/youtube/v3/channels');
    expect(Object.fromEntries(req.url.searchParams)).toEqual({ part: 'snippet', mine: 'true' });
    fake.channels = [];
    expect(await provider.accounts(tokens, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('no YouTube channel') });
  });
});

describe('adapter', () => {
  it('verify: the channel → its handle; a bad token → reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: '@acmechannel', credentials: creds });
    expect(await adapter.verify(testContext({ ...creds, access_token: 'expired' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    expect(await adapter.verify(testContext({ ...creds, channel_id: 'UCother' }).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('UCother') });
  });

  it('check: one video, a title of ≤ 100 characters without < >, a description of ≤ 5000 bytes', () => {
    const img = { url: 'https://x/a.png', kind: 'image' as const };
    expect(adapter.check(content(), creds)).toBeUndefined();
    expect(adapter.check(content({ title: undefined }), creds)).toMatchObject({ code: 'rejected', error: expect.stringContaining('title') });
    expect(adapter.check(content({ title: 't'.repeat(100) }), creds)).toBeUndefined();
    expect(adapter.check(content({ title: 't'.repeat(101) }), creds)).toMatchObject({ code: 'text_too_long' });
    expect(adapter.check(content({ title: 'a <b>' }), creds)).toMatchObject({ code: 'rejected' });
    expect(adapter.check(content({ text: 'é'.repeat(2500) }), creds)).toBeUndefined();
    expect(adapter.check(content({ text: 'é'.repeat(2501) }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringContaining('5002') });
    expect(adapter.check(content({ media: [img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [...content().media, ...content().media] }), creds)).toMatchObject({ code: 'bad_media' });
  });

  it('a resumable upload: the session request, then 256 KiB chunks with Content-Range → the watch URL', async () => {
    const out = await adapter.publish(content({ privacy: 'unlisted' }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: 'Yt000000001', url: 'https://www.youtube.com/watch?v=Yt000000001' });
    expect(fake.calls).toEqual(['POST /upload/youtube/v3/videos', 'PUT /upload/youtube/v3/videos', 'PUT /upload/youtube/v3/videos', 'PUT /upload/youtube/v3/videos']);
    const [start, ...puts] = fake.requests.filter((r) => r.path.startsWith('/upload/'));
    expect(Object.fromEntries(start.url.searchParams)).toEqual({ uploadType: 'resumable', part: 'snippet,status' });
    expect(start.headers).toMatchObject({
      authorization: `Bearer ${fake.token}`, 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(SIZE), 'x-upload-content-type': 'video/mp4',
    });
    expect(start.json).toEqual({ snippet: { title: 'Launch day', description: 'Behind the scenes of the launch' }, status: { privacyStatus: 'unlisted' } });
    expect(puts.map((p) => p.headers['content-range'])).toEqual([`bytes 0-262143/${SIZE}`, `bytes 262144-524287/${SIZE}`, `bytes 524288-${SIZE - 1}/${SIZE}`]);
    expect(puts.every((p) => p.url.searchParams.get('upload_id') === 'upl-1')).toBe(true);
    const session = fake.sessions.get('upl-1')!;
    expect(session.ranges).toEqual([[0, 262143], [262144, 524287], [524288, SIZE - 1]]);
    expect(fake.bytesOf(session).equals(clip)).toBe(true);
  });

  it('an interrupted upload (503 after part of a chunk) → processing; resume probes and continues where it stopped', async () => {
    fake.interruptNext(100_000, { status: 503, body: 'backend error' });
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toEqual({
      ok: true, status: 'processing', id: 'upl-1', url: 'https://www.youtube.com/channel/UCacme000000000000000001',
      resume: { after_seconds: 15, state: { session_uri: `${fake.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&upload_id=upl-1`, offset: '0', total: String(SIZE), attempt: '1' } },
    });
    if (!out.ok || !out.resume) throw new Error('expected resume');
    fake.server.requests.length = 0;
    const done = await adapter.resume!(content(), out.resume.state, testContext(creds).ctx);
    expect(done).toEqual({ ok: true, status: 'published', id: 'Yt000000001', url: 'https://www.youtube.com/watch?v=Yt000000001' });
    const puts = fake.find('PUT', '/upload/youtube/v3/videos');
    expect(puts[0].headers['content-range']).toBe(`bytes */${SIZE}`);
    expect(puts[0].body.length).toBe(0);
    expect(puts.slice(1).map((p) => p.headers['content-range'])).toEqual([`bytes 100000-362143/${SIZE}`, `bytes 362144-${SIZE - 1}/${SIZE}`]);
    const session = fake.sessions.get('upl-1')!;
    expect(session.ranges).toEqual([[0, 99_999], [100_000, 362_143], [362_144, SIZE - 1]]);
    expect(fake.bytesOf(session).equals(clip)).toBe(true);
    expect(fake.find('POST', '/upload/youtube/v3/videos')).toHaveLength(0);
  });

  it('the deadline during a chunk → processing by the deadline; resume finishes the same session', async () => {
    fake.interruptNext(1000, { hang: true });
    // A call with 60 s left on its (real) signal, but on its clock only 250 ms before the adapter must stop sending
    // (reserveMs 100): only the chunk's own deadline can end the hanging PUT before the test's timeout.
    const clock = new ManualClock(Date.now());
    const { ctx } = testContext(creds, { timeoutMs: 60_000, clock });
    clock.advance(60_000 - 100 - 250);
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: true, status: 'processing', resume: { after_seconds: 1, state: { offset: '0', attempt: '0' } } });
    if (!out.ok || !out.resume) throw new Error('expected resume');
    expect(await adapter.resume!(content(), out.resume.state, testContext(creds).ctx)).toMatchObject({ ok: true, status: 'published', id: 'Yt000000001' });
    expect(fake.sessions.get('upl-1')!.ranges[0]).toEqual([0, 999]);
    expect(fake.bytesOf(fake.sessions.get('upl-1')!).equals(clip)).toBe(true);
  });

  it('resume: a session that already completed → published without sending again; an expired session → a new upload', async () => {
    const first = await adapter.publish(content(), testContext(creds).ctx);
    expect(first).toMatchObject({ status: 'published' });
    const uri = `${fake.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&upload_id=upl-1`;
    fake.server.requests.length = 0;
    expect(await adapter.resume!(content(), { session_uri: uri, offset: '0', total: String(SIZE), attempt: '0' }, testContext(creds).ctx))
      .toMatchObject({ ok: true, status: 'published', id: 'Yt000000001' });
    expect(fake.find('PUT', '/upload/youtube/v3/videos')).toHaveLength(1);
    fake.sessions.get('upl-1')!.expired = true;
    expect(await adapter.resume!(content(), { session_uri: uri, offset: '0', total: String(SIZE), attempt: '0' }, testContext(creds).ctx))
      .toMatchObject({ ok: true, status: 'published', id: 'Yt000000002' });
    expect(fake.find('POST', '/upload/youtube/v3/videos')).toHaveLength(1);
  });

  it('quotaExceeded / uploadLimitExceeded → rate_limited until midnight Pacific', async () => {
    for (const reason of ['quotaExceeded', 'uploadLimitExceeded']) {
      fake.failNext('POST /upload/youtube/v3/videos', YouTubeFake.error(403, reason, 'The request cannot be completed because you have exceeded your quota.'));
      const { ctx, clock } = testContext(creds);
      const out = await adapter.publish(content(), ctx);
      if (out.ok || out.kind !== 'rate_limited') throw new Error(`expected rate_limited, got ${JSON.stringify(out)}`);
      expect(out.retry_after).toBe(secondsUntilPacificMidnight(clock.now()));
      expect(out.error).toContain(reason);
    }
  });

  it('midnight Pacific: an ordinary day, a minute before, and the 23 h / 25 h days the clocks change', () => {
    expect(secondsUntilPacificMidnight(Date.parse('2026-07-01T07:00:00Z'))).toBe(86_400); // 00:00 PDT
    expect(secondsUntilPacificMidnight(Date.parse('2026-07-01T06:59:00Z'))).toBe(60); // 23:59 PDT
    expect(secondsUntilPacificMidnight(Date.parse('2026-03-08T08:00:00Z'))).toBe(82_800); // 00:00 PST, spring forward
    expect(secondsUntilPacificMidnight(Date.parse('2026-11-01T07:00:00Z'))).toBe(90_000); // 00:00 PDT, fall back
  });

  it('an expired token → reauth before any upload; a hang on the session start → transient (nothing uploaded)', async () => {
    expect(await adapter.publish(content(), testContext({ ...creds, access_token: 'expired' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    expect(fake.sessions.size).toBe(0);
    fake.failNext('POST /upload/youtube/v3/videos', { hang: true });
    const { ctx, expire } = testContext(creds);
    expect(await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx))).toMatchObject({ ok: false, kind: 'transient', error: expect.stringContaining('nothing was uploaded') });
  });

  it('an unreachable video → media_unreachable; an invalid title refused by YouTube → rejected', async () => {
    expect(await adapter.publish(content({ media: [{ url: fake.mediaUrl('gone.mp4'), kind: 'video' }] }), testContext(creds).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable' });
    fake.failNext('POST /upload/youtube/v3/videos', YouTubeFake.error(400, 'invalidTitle', 'The request metadata specifies an invalid video title.'));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('invalidTitle') });
  });
});

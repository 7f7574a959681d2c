import { createTikTokAdapter, createTikTokProvider } from '../../shared/networks/tiktok';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import { TikTokFake } from '../../shared/networks/tiktok/api-simulator';
import { ctxWithSleeps, expireOnHang, testContext } from './context';
import { oauthApp, signInThrough } from './oauth-support';

const fake = new TikTokFake();
let provider: ReturnType<typeof createTikTokProvider>;
let adapter: ReturnType<typeof createTikTokAdapter>;
let app: OAuthApp;
let creds: Record<string, string>;
const video = { url: 'https://media.example.com/clip.mp4', kind: 'video' as const };
const photo = (n: number) => ({ url: `https://media.example.com/p${n}.jpg`, kind: 'image' as const, content_type: 'image/jpeg' });
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'new drop #acme', media: [video], thread: [], send_key: 'post-1:tiktok', ...over });

beforeAll(async () => {
  await fake.start();
  provider = createTikTokProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createTikTokAdapter({ apiBase: fake.url, authBase: fake.url, pollIntervalMs: 50, reserveMs: 20 });
  app = oauthApp(fake, 'tiktok');
  creds = { access_token: fake.token, open_id: fake.openId, username: fake.username };
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

/** Goes through the fake's authorize page (auto-consent) and exchanges the code. */
const signIn = (): Promise<TokenSet> => signInThrough(provider, app, { state: 'st-1' });

describe('provider', () => {
  it('builds the authorize URL on authBase: client_key, comma-separated scopes, code, redirect_uri, state; no PKCE', async () => {
    expect(provider.pkce).toBe(false);
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-1' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/v2/auth/authorize/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_key: 'tt-client-key', scope: 'user.info.basic,video.publish,video.upload,video.list', response_type: 'code',
      redirect_uri: 'https://api.example.com/api/oauth/tiktok/callback', state: 'st-1',
    });
    const real = new URL(await createTikTokProvider().authorizeUrl({ app, state: 's' }));
    expect(`${real.origin}${real.pathname}`).toBe('https://www.tiktok.com/v2/auth/authorize/');
  });

  it('the authorize page redirects back with the code and the state; the code exchange sends the exact form', async () => {
    const res = await fetch(await provider.authorizeUrl({ app, state: 'st-1' }), { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(app.redirectUri);
    expect(back.searchParams.get('state')).toBe('st-1');
    const before = Date.now();
    const tokens = await provider.exchangeCode({ app, code: back.searchParams.get('code') ?? '' }, testContext({}).ctx);
    const [req] = fake.find('POST', '/v2/oauth/token/');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req.text))).toEqual({
      client_key: 'tt-client-key', client_secret: 'tt-client-secret', code: 'tt-code-1', grant_type: 'authorization_code', redirect_uri: app.redirectUri,
    });
    if ('ok' in tokens) throw new Error(JSON.stringify(tokens));
    expect(tokens).toMatchObject({ access_token: 'tt-at-2', refresh_token: 'tt-rt-2', scope: 'user.info.basic,video.publish,video.upload,video.list' });
    expect(tokens.expires_at! - before).toBeGreaterThanOrEqual(86_400_000 - 1000);
    expect(tokens.expires_at! - before).toBeLessThanOrEqual(86_400_000 + 2000);
    expect(Math.round((tokens.refresh_expires_at! - before) / 86_400_000)).toBe(365);
  });

  it('a used code → reauth; a wrong client secret → rejected naming the settings', async () => {
    const first = await signIn();
    expect(first.access_token).toBeTruthy();
    expect(await provider.exchangeCode({ app, code: 'tt-code-1' }, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    expect(await provider.exchangeCode({ app: { ...app, clientSecret: 'wrong' }, code: 'x' }, testContext({}).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('TIKTOK_CLIENT_SECRET') });
  });

  it('refresh sends the refresh form and keeps the refresh token; a revoked grant → reauth', async () => {
    const tokens = await signIn();
    const renewed = await provider.refresh!(tokens, app, testContext({}).ctx);
    const reqs = fake.find('POST', '/v2/oauth/token/');
    expect(Object.fromEntries(new URLSearchParams(reqs[1].text))).toEqual({
      client_key: 'tt-client-key', client_secret: 'tt-client-secret', grant_type: 'refresh_token', refresh_token: tokens.refresh_token,
    });
    expect(renewed).toMatchObject({ access_token: 'tt-at-3', refresh_token: tokens.refresh_token });
    fake.revoke();
    expect(await provider.refresh!(tokens, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('invalid_grant') });
  });

  it('accounts(): the user with open_id, @username from creator info, display name', async () => {
    const tokens = await signIn();
    fake.server.requests.length = 0;
    expect(await provider.accounts(tokens, testContext({}).ctx)).toEqual([{
      id: fake.openId, handle: '@acme.studio', credentials: { open_id: fake.openId, username: 'acme.studio', display_name: 'Acme Studio' },
    }]);
    expect(fake.calls).toEqual(['GET /v2/user/info/', 'POST /v2/post/publish/creator_info/query/']);
    expect(fake.requests[0].url.searchParams.get('fields')).toBe('open_id,union_id,avatar_url,display_name');
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${tokens.access_token}`);
  });
});

describe('adapter', () => {
  it('verify: the token works → @username; a bad token → reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: '@acme.studio', credentials: creds });
    expect(await adapter.verify(testContext({ ...creds, access_token: 'expired' }).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('access_token_invalid') });
  });

  it('check: needs media; one video alone or up to 35 JPEG/WebP photos; caption and description limits', () => {
    expect(adapter.check(content(), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [] }), creds)).toMatchObject({ code: 'bad_media', error: expect.stringContaining('no text-only') });
    expect(adapter.check(content({ media: [video, photo(1)] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: Array.from({ length: 35 }, (_, i) => photo(i)) }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: Array.from({ length: 36 }, (_, i) => photo(i)) }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [{ ...photo(1), content_type: 'image/png' }] }), creds)).toMatchObject({ code: 'bad_media', error: expect.stringContaining('JPEG or WebP') });
    expect(adapter.check(content({ text: 'a'.repeat(2200) }), creds)).toBeUndefined();
    expect(adapter.check(content({ text: 'a'.repeat(2201) }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringMatching(/2200.*2201/) });
    expect(adapter.check(content({ media: [photo(1)], text: 'a'.repeat(4001) }), creds)).toMatchObject({ code: 'text_too_long' });
    expect(adapter.check(content({ media: [photo(1)], title: 't'.repeat(91) }), creds)).toMatchObject({ code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('a video: creator info, Direct Post init pulling the URL, status until PUBLISH_COMPLETE → the public post URL', async () => {
    fake.processingPolls = 2;
    const { ctx, sleeps } = ctxWithSleeps(creds);
    const out = await adapter.publish(content(), ctx);
    const publishId = 'v_pub_url~v2-1.7001';
    const postId = fake.postId({ id: publishId });
    expect(postId).toHaveLength(19);
    expect(String(Number(postId))).not.toBe(postId); // beyond a double: read from the raw JSON
    expect(out).toEqual({ ok: true, status: 'published', id: postId, url: `https://www.tiktok.com/@acme.studio/video/${postId}` });
    expect(fake.calls).toEqual([
      'POST /v2/post/publish/creator_info/query/', 'POST /v2/post/publish/video/init/',
      'POST /v2/post/publish/status/fetch/', 'POST /v2/post/publish/status/fetch/', 'POST /v2/post/publish/status/fetch/',
    ]);
    expect(sleeps).toEqual([50, 50]);
    const [init] = fake.find('POST', '/v2/post/publish/video/init/');
    expect(init.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(init.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(init.json).toEqual({
      post_info: { title: 'new drop #acme', privacy_level: 'PUBLIC_TO_EVERYONE', disable_comment: false, disable_duet: true, disable_stitch: false },
      source_info: { source: 'PULL_FROM_URL', video_url: video.url },
    });
    expect(fake.find('POST', '/v2/post/publish/status/fetch/')[0].json).toEqual({ publish_id: publishId });
  });

  it('photos: content init with PHOTO, DIRECT_POST, the URLs in order, title and description → the photo URL', async () => {
    const out = await adapter.publish(content({ media: [photo(1), photo(2)], title: 'Lookbook', privacy: 'private' }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published', url: expect.stringMatching(/^https:\/\/www\.tiktok\.com\/@acme\.studio\/photo\/\d{19}$/) });
    expect(fake.find('POST', '/v2/post/publish/content/init/')[0].json).toEqual({
      media_type: 'PHOTO', post_mode: 'DIRECT_POST',
      post_info: { title: 'Lookbook', description: 'new drop #acme', privacy_level: 'SELF_ONLY', disable_comment: false, auto_add_music: true },
      source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: [photo(1).url, photo(2).url] },
    });
  });

  it('privacy follows the creator options: unlisted → followers; public on a private-only (unaudited) app → rejected before any init', async () => {
    await adapter.publish(content({ privacy: 'unlisted' }), testContext(creds).ctx);
    expect(fake.find('POST', '/v2/post/publish/video/init/')[0].json).toMatchObject({ post_info: { privacy_level: 'FOLLOWER_OF_CREATOR' } });
    fake.privacyOptions = ['SELF_ONLY'];
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('send privacy "private"') });
    expect(fake.find('POST', '/v2/post/publish/video/init/')).toHaveLength(1);
  });

  it('still processing when the time runs out → processing with resume state; resume finishes it; waits grow', async () => {
    fake.processingPolls = 1000;
    const out = await adapter.publish(content(), ctxWithSleeps(creds, 300).ctx);
    expect(out).toMatchObject({
      ok: true, status: 'processing', id: 'v_pub_url~v2-1.7001', url: 'https://www.tiktok.com/@acme.studio',
      resume: { after_seconds: 30, state: { publish_id: 'v_pub_url~v2-1.7001', kind: 'video', username: 'acme.studio', attempt: '1' } },
    });
    if (!out.ok || !out.resume) throw new Error('expected resume');
    const again = await adapter.resume!(content(), out.resume.state, ctxWithSleeps(creds, 300).ctx);
    expect(again).toMatchObject({ status: 'processing', resume: { after_seconds: 60, state: { attempt: '2' } } });
    fake.publishes.get('v_pub_url~v2-1.7001')!.polls = 0;
    const polls = fake.find('POST', '/v2/post/publish/status/fetch/').length;
    const final = await adapter.resume!(content(), out.resume.state, testContext(creds).ctx);
    expect(final).toMatchObject({ ok: true, status: 'published', url: expect.stringContaining('/@acme.studio/video/') });
    expect(fake.find('POST', '/v2/post/publish/status/fetch/')).toHaveLength(polls + 1);
    expect(fake.find('POST', '/v2/post/publish/video/init/')).toHaveLength(1);
  });

  it('a status check that fails after the init is not a failure: processing, to look again later', async () => {
    fake.failNext('POST /v2/post/publish/status/fetch/', { status: 503, body: 'upstream' });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: true, status: 'processing', id: 'v_pub_url~v2-1.7001' });
  });

  it('processing for longer than maxProcessingMs → timeout on resume', async () => {
    fake.processingPolls = 1000;
    const quick = createTikTokAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 20, maxProcessingMs: 1000 });
    const out = await quick.publish(content(), ctxWithSleeps(creds, 300).ctx);
    if (!out.ok || !out.resume) throw new Error('expected resume');
    const state = { ...out.resume.state, started_at: String(Date.now() - 5000) };
    expect(await quick.resume!(content(), state, testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'timeout', error: expect.stringContaining('still processing') });
  });

  it('complete without a public id (private or in moderation) → published with the publish_id and the profile', async () => {
    fake.publicId = false;
    expect(await adapter.publish(content(), testContext(creds).ctx)).toEqual({ ok: true, status: 'published', id: 'v_pub_url~v2-1.7001', url: 'https://www.tiktok.com/@acme.studio' });
  });

  it('FAILED fail_reason is sorted: pull failures → media_unreachable, format → bad_media, spam → rejected', async () => {
    for (const [reason, code] of [['video_pull_failed', 'media_unreachable'], ['file_format_check_failed', 'bad_media'], ['spam_risk_too_many_posts', 'rejected']]) {
      fake.failReason = reason;
      expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code, error: expect.stringContaining(reason) });
    }
  });

  it('init errors: rate_limit_exceeded → rate_limited; url_ownership_unverified whose file cannot be fetched for FILE_UPLOAD → media_unreachable; 5xx → transient', async () => {
    fake.failNext('POST /v2/post/publish/video/init/', { ...TikTokFake.error(429, 'rate_limit_exceeded', 'Too many requests'), headers: { 'retry-after': '42' } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 42 });
    fake.failNext('POST /v2/post/publish/video/init/', TikTokFake.error(403, 'url_ownership_unverified', 'Please verify the URL ownership'));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable', error: expect.stringContaining('could not be downloaded') });
    fake.failNext('POST /v2/post/publish/video/init/', { status: 502, body: '<html>bad gateway</html>' });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('an expired token → reauth; nothing is initialised', async () => {
    expect(await adapter.publish(content(), testContext({ ...creds, access_token: 'expired' }).ctx))
      .toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('access_token_invalid') });
    expect(fake.find('POST', '/v2/post/publish/video/init/')).toHaveLength(0);
  });

  it('a hang on init → timeout (the post may exist); a hang before it → transient (nothing posted)', async () => {
    fake.failNext('POST /v2/post/publish/video/init/', { hang: true });
    const init = testContext(creds);
    expect(await expireOnHang(fake.server, init.expire, () => adapter.publish(content(), init.ctx))).toMatchObject({ ok: false, kind: 'timeout' });
    fake.failNext('POST /v2/post/publish/creator_info/query/', { hang: true });
    const before = testContext(creds);
    expect(await expireOnHang(fake.server, before.expire, () => adapter.publish(content(), before.ctx))).toMatchObject({ ok: false, kind: 'transient', error: expect.stringContaining('nothing was posted') });
  });
});

import { createLinkedinAdapter, createLinkedinProvider, LINKEDIN_VERSION } from '../../shared/networks/linkedin';
import { escapeLittleText } from '../../shared/networks/linkedin/rules';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';
import { ctxWithSleeps, expireOnHang, testContext } from './context';
import { oauthApp, signInThrough } from './oauth-support';

const fake = new LinkedinFake();
let provider: ReturnType<typeof createLinkedinProvider>;
let adapter: ReturnType<typeof createLinkedinAdapter>;
/** Keeps most of the 2 s test deadline in reserve: on the context's clock it stops polling 100 ms in (two 50 ms polls). */
let patient: ReturnType<typeof createLinkedinAdapter>;
let app: OAuthApp;
let creds: Record<string, string>;
const author = 'urn:li:person:abc123XYZ';
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Hello LinkedIn', media: [], thread: [], send_key: 'post-1:linkedin', ...over });
const image = (name: string) => ({ url: fake.mediaUrl(name), kind: 'image' as const });

beforeAll(async () => {
  await fake.start();
  provider = createLinkedinProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createLinkedinAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 });
  patient = createLinkedinAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 1850 });
  app = oauthApp(fake, 'linkedin');
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  creds = { access_token: fake.token(), author_urn: author };
  fake.server.requests.length = 0;
});

/** Through the fake's authorize page (auto-consent), then the code exchange. */
const signIn = (): Promise<TokenSet> => signInThrough(provider, app, { state: 'st-1' });

describe('provider', () => {
  it('authorize URL: response_type, client_id, redirect_uri, state, space-separated scopes; no PKCE; real host by default', async () => {
    expect(provider.pkce).toBe(false);
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-1' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth/v2/authorization`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code', client_id: app.clientId, redirect_uri: app.redirectUri, state: 'st-1', scope: 'openid profile w_member_social',
    });
    expect(url.search).toContain('scope=openid%20profile%20w_member_social');
    expect(await createLinkedinProvider().authorizeUrl({ app, state: 's' })).toMatch(/^https:\/\/www\.linkedin\.com\/oauth\/v2\/authorization\?/);
  });

  it('the authorize page redirects back with code and state; the exchange posts the exact form; ~60-day token, refresh token', async () => {
    const res = await fetch(await provider.authorizeUrl({ app, state: 'st-1' }), { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(app.redirectUri);
    expect(back.searchParams.get('state')).toBe('st-1');
    const before = Date.now();
    const tokens = await provider.exchangeCode({ app, code: back.searchParams.get('code') ?? '' }, testContext({}).ctx);
    const [req] = fake.find('POST', '/oauth/v2/accessToken');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(req.text))).toEqual({
      grant_type: 'authorization_code', code: back.searchParams.get('code'), redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.clientSecret,
    });
    if ('ok' in tokens) throw new Error(JSON.stringify(tokens));
    expect(tokens.access_token).toMatch(/^li-at-/);
    expect(tokens.refresh_token).toMatch(/^li-rt-/);
    expect(Math.round((tokens.expires_at! - before) / 86_400_000)).toBe(60);
    expect(Math.round((tokens.refresh_expires_at! - before) / 86_400_000)).toBe(365);
  });

  it('an expired code → rejected; a wrong client secret → rejected naming the settings', async () => {
    expect(await provider.exchangeCode({ app, code: 'nope' }, testContext({}).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('invalid_request') });
    expect(await provider.exchangeCode({ app: { ...app, clientSecret: 'wrong' }, code: 'x' }, testContext({}).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('LINKEDIN_CLIENT_SECRET') });
  });

  it('refresh posts the refresh form and keeps the refresh token; a revoked grant → reauth', async () => {
    const tokens = await signIn();
    const renewed = await provider.refresh!(tokens, app, testContext({}).ctx);
    const reqs = fake.find('POST', '/oauth/v2/accessToken');
    expect(Object.fromEntries(new URLSearchParams(reqs[1].text))).toEqual({
      grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.clientId, client_secret: app.clientSecret,
    });
    if ('ok' in renewed) throw new Error(JSON.stringify(renewed));
    expect(renewed.refresh_token).toBe(tokens.refresh_token);
    expect(renewed.access_token).not.toBe(tokens.access_token);
    fake.oauth.revokeAll();
    expect(await provider.refresh!(tokens, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('invalid_grant') });
  });

  it('no refresh token (app without programmatic refresh) or an expired one → reauth without a call', async () => {
    fake.oauth.issueRefresh = false;
    const tokens = await signIn();
    expect(tokens.refresh_token).toBeUndefined();
    const calls = fake.requests.length;
    expect(await provider.refresh!(tokens, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('no refresh token') });
    expect(await provider.refresh!({ ...tokens, refresh_token: 'r', refresh_expires_at: Date.now() - 1 }, app, testContext({}).ctx))
      .toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('expired') });
    expect(fake.requests).toHaveLength(calls);
  });

  it('accounts(): userinfo sub → the member URN and name', async () => {
    const tokens = await signIn();
    fake.server.requests.length = 0;
    expect(await provider.accounts(tokens, testContext({}).ctx)).toEqual([{ id: author, handle: 'Ada Lovelace', credentials: { author_urn: author } }]);
    expect(fake.calls).toEqual(['GET /v2/userinfo']);
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${tokens.access_token}`);
  });
});

describe('adapter', () => {
  it('verify: the token works → name; an expired token → reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: 'Ada Lovelace', credentials: creds });
    fake.oauth.expireAccessTokens();
    expect(await adapter.verify(testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('expired or was revoked') });
  });

  it('check: 3000 characters, 20 images (JPEG/PNG/GIF), one video alone; no calls', () => {
    expect(adapter.check(content({ text: 'a'.repeat(3000) }), creds)).toBeUndefined();
    expect(adapter.check(content({ text: 'a'.repeat(3001) }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringMatching(/3000.*3001/) });
    const img = { url: 'https://x.test/a.jpg', kind: 'image' as const };
    const vid = { url: 'https://x.test/v.mp4', kind: 'video' as const };
    expect(adapter.check(content({ media: Array(20).fill(img) }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: Array(21).fill(img) }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [img, vid] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [vid, vid] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [{ ...img, content_type: 'image/webp' }] }), creds)).toMatchObject({ code: 'bad_media', error: expect.stringContaining('webp') });
    expect(adapter.check(content({ media: [{ url: 'https://x.test/a.webp', kind: 'image' }] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(fake.requests).toHaveLength(0);
  });

  it('escapes little-text reserved characters, keeping URLs and hashtags', () => {
    expect(escapeLittleText('Hi (all) @you [x] {y} <z> *a* _b_ ~c~ | \\ #'))
      .toBe('Hi \\(all\\) \\@you \\[x\\] \\{y\\} \\<z\\> \\*a\\* \\_b\\_ \\~c\\~ \\| \\\\ \\#');
    expect(escapeLittleText('see https://ex.com/a_b?c=(1) and #launch_day (now)')).toBe('see https://ex.com/a_b?c=\\(1\\) and #launch_day \\(now\\)');
  });

  it('a text post: POST /rest/posts with the versioned headers and the exact body → x-restli-id and feed URL', async () => {
    const out = await adapter.publish(content({ text: 'Launch (v2) today #ship' }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: 'urn:li:share:700000000000001', url: 'https://www.linkedin.com/feed/update/urn:li:share:700000000000001' });
    expect(fake.calls).toEqual(['POST /rest/posts']);
    const [req] = fake.requests;
    expect(req.headers).toMatchObject({ authorization: `Bearer ${creds.access_token}`, 'linkedin-version': LINKEDIN_VERSION, 'x-restli-protocol-version': '2.0.0', 'content-type': 'application/json' });
    expect(req.json).toEqual({
      author, commentary: 'Launch \\(v2\\) today #ship', visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED', isReshareDisabledByAuthor: false,
    });
  });

  it('first_comment goes under the post as the author; a refused comment keeps the post', async () => {
    const out = await adapter.publish(content({ first_comment: 'Details: [link]', privacy: 'private' }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, id: 'urn:li:share:700000000000001', comment_id: 'urn:li:comment:(urn:li:share:700000000000001,710000000000002)' });
    expect(fake.find('POST', '/rest/posts')[0].json).toMatchObject({ visibility: 'CONNECTIONS' });
    const [comment] = fake.requests.filter((r) => r.path.includes('/comments'));
    expect(comment.path).toBe(`/rest/socialActions/${encodeURIComponent('urn:li:share:700000000000001')}/comments`);
    expect(comment.json).toEqual({ actor: author, object: 'urn:li:share:700000000000001', message: { text: 'Details: \\[link\\]' } });
    fake.failNext(`POST /rest/socialActions/${encodeURIComponent('urn:li:share:700000000000003')}/comments`, LinkedinFake.error(422, 'comment refused'));
    const second = await adapter.publish(content({ first_comment: 'x' }), testContext(creds).ctx);
    expect(second).toEqual({ ok: true, status: 'published', id: 'urn:li:share:700000000000003', url: expect.any(String) });
  });

  it('one image: initializeUpload for the author, PUT of the bytes with the token, content.media', async () => {
    fake.media.set('a.png', { type: 'image/png', bytes: Buffer.from('PNG-A') });
    const out = await adapter.publish(content({ media: [image('a.png')] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    expect(fake.calls).toEqual(['POST /rest/images?action=initializeUpload', 'PUT /upload/image/1', 'POST /rest/posts']);
    expect(fake.requests.find((r) => r.path === '/rest/images')!.json).toEqual({ initializeUploadRequest: { owner: author } });
    const put = fake.find('PUT', '/upload/image/1')[0];
    expect(put.headers.authorization).toBe(`Bearer ${creds.access_token}`);
    expect(put.body.toString()).toBe('PNG-A');
    expect(fake.find('POST', '/rest/posts')[0].json).toMatchObject({ content: { media: { id: 'urn:li:image:C4D1' } } });
  });

  it('several images: each uploaded, then one multiImage post in order', async () => {
    fake.media.set('a.jpg', { type: 'image/jpeg', bytes: Buffer.from('A') });
    fake.media.set('b.gif', { type: 'image/gif', bytes: Buffer.from('B') });
    await adapter.publish(content({ media: [image('a.jpg'), image('b.gif')] }), testContext(creds).ctx);
    expect(fake.find('POST', '/rest/posts')[0].json).toMatchObject({ content: { multiImage: { images: [{ id: 'urn:li:image:C4D1' }, { id: 'urn:li:image:C4D2' }] } } });
  });

  it('a video: initializeUpload with the size, PUT of each part, finalize with the ETags, poll until AVAILABLE, then the post', async () => {
    fake.media.set('v.mp4', { type: 'video/mp4', bytes: Buffer.from('0123456789') });
    fake.videoPolls = 2;
    const { ctx, sleeps } = ctxWithSleeps(creds);
    const out = await adapter.publish(content({ title: 'Demo', media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }] }), ctx);
    expect(out).toMatchObject({ ok: true, status: 'published', id: 'urn:li:share:700000000000002' });
    expect(fake.calls).toEqual([
      'POST /rest/videos?action=initializeUpload', 'PUT /upload/video/1/1', 'PUT /upload/video/1/2', 'PUT /upload/video/1/3',
      'POST /rest/videos?action=finalizeUpload', ...Array(3).fill(`GET /rest/videos/${encodeURIComponent('urn:li:video:D5F1')}`), 'POST /rest/posts',
    ]);
    expect(sleeps).toEqual([50, 50]);
    const [init, finalize] = fake.find('POST', '/rest/videos');
    expect(init.json).toEqual({ initializeUploadRequest: { owner: author, fileSizeBytes: 10, uploadCaptions: false, uploadThumbnail: false } });
    expect(['/upload/video/1/1', '/upload/video/1/2', '/upload/video/1/3'].map((p) => fake.uploads.get(p)!.toString())).toEqual(['0123', '4567', '89']);
    expect(finalize.json).toEqual({ finalizeUploadRequest: { video: 'urn:li:video:D5F1', uploadToken: 'token-1', uploadedPartIds: ['"etag-1"', '"etag-2"', '"etag-3"'] } });
    expect(fake.find('POST', '/rest/posts')[0].json).toMatchObject({ content: { media: { id: 'urn:li:video:D5F1', title: 'Demo' } } });
  });

  it('a video still processing at the deadline → processing with resume state; resume creates the post once AVAILABLE', async () => {
    fake.media.set('v.mp4', { type: 'video/mp4', bytes: Buffer.from('0123') });
    fake.videoPolls = 1000;
    const out = await patient.publish(content({ media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }], first_comment: 'more' }), ctxWithSleeps(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'processing', id: 'urn:li:video:D5F1', resume: { after_seconds: 30, state: { video: 'urn:li:video:D5F1' } } });
    expect(fake.find('POST', '/rest/posts')).toHaveLength(0);
    if (!out.ok || !out.resume) throw new Error('expected resume');
    expect(await patient.resume!(content(), out.resume.state, ctxWithSleeps(creds).ctx)).toMatchObject({ status: 'processing' });
    fake.finishProcessing('urn:li:video:D5F1');
    const done = await adapter.resume!(content({ first_comment: 'more' }), out.resume.state, testContext(creds).ctx);
    expect(done).toMatchObject({ ok: true, status: 'published', id: expect.stringMatching(/^urn:li:share:/), comment_id: expect.any(String) });
    expect(fake.find('POST', '/rest/posts')).toHaveLength(1);
  });

  it('PROCESSING_FAILED → bad_media; processing far too long → bad_media on resume', async () => {
    fake.media.set('v.mp4', { type: 'video/mp4', bytes: Buffer.from('0123') });
    fake.videoFails = true;
    expect(await adapter.publish(content({ media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }] }), testContext(creds).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: expect.stringContaining('Video is too short') });
    const quick = createLinkedinAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 1850, maxProcessingSeconds: 60 });
    fake.videoFails = false;
    fake.videoPolls = 1000;
    const out = await quick.publish(content({ media: [{ url: fake.mediaUrl('v.mp4'), kind: 'video' }] }), ctxWithSleeps(creds).ctx);
    if (!out.ok || !out.resume) throw new Error('expected resume');
    expect(await quick.resume!(content(), { ...out.resume.state, started_at: String(Date.now() - 120_000) }, ctxWithSleeps(creds).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: expect.stringContaining('still processing') });
  });

  it('429 → rate_limited (Retry-After, else an hour); 5xx → transient; 422 → rejected; unreachable media → media_unreachable', async () => {
    fake.failNext('POST /rest/posts', { status: 429, headers: { 'retry-after': '120' }, body: { status: 429, message: 'Resource level throttle limit' } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 120 });
    fake.failNext('POST /rest/posts', { status: 429, body: { status: 429, message: 'Daily limit' } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 3600 });
    fake.failNext('POST /rest/posts', { status: 503, body: 'unavailable' });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'transient' });
    fake.failNext('POST /rest/posts', LinkedinFake.error(422, 'Content is a duplicate of urn:li:share:1'));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toEqual({
      ok: false, kind: 'rejected', code: 'rejected', error: 'linkedin post failed (HTTP 422): Content is a duplicate of urn:li:share:1',
    });
    expect(await adapter.publish(content({ media: [image('missing.png')] }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable' });
  });

  it('an expired token → reauth; a missing scope (403) → reauth naming w_member_social', async () => {
    fake.oauth.expireAccessTokens();
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    const fresh = { ...creds, access_token: fake.token() };
    fake.failNext('POST /rest/posts', LinkedinFake.error(403, 'Not enough permissions to access: partnerApiPostsExternal.CREATE'));
    expect(await adapter.publish(content(), testContext(fresh).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('w_member_social') });
  });

  it('no answer → timeout by the deadline', async () => {
    fake.failNext('POST /rest/posts', { hang: true });
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

import { createInstagramAdapter, createInstagramProvider } from '../../shared/networks/instagram';
import { GRAPH_VERSION } from '../../shared/networks/facebook/graph';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import { FacebookFake } from '../../shared/networks/facebook/graph-simulator';
import { InstagramFake } from '../../shared/networks/instagram/simulator';
import { ctxWithSleeps, expireOnHang, testContext } from './context';
import { oauthApp } from './oauth-support';

const fake = new InstagramFake();
let provider: ReturnType<typeof createInstagramProvider>;
let adapter: ReturnType<typeof createInstagramAdapter>;
/** Keeps most of the 2 s test deadline in reserve: on the context's clock it stops polling 100 ms in (two 50 ms polls). */
let patient: ReturnType<typeof createInstagramAdapter>;
let app: OAuthApp;
let creds: Record<string, string>;
const ig = '17841400000000001';
const jpg = (n: number) => ({ url: `https://cdn.example.com/p${n}.jpg`, kind: 'image' as const });
const reel = { url: 'https://cdn.example.com/reel.mp4', kind: 'video' as const };
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Morning batch #bread', media: [jpg(1)], thread: [], send_key: 'post-1:instagram', ...over });

beforeAll(async () => {
  await fake.start();
  provider = createInstagramProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createInstagramAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 });
  patient = createInstagramAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 1850 });
  app = oauthApp(fake, 'instagram');
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  const user = fake.userToken();
  creds = { access_token: user, ig_user_id: ig, username: 'acme.bakery', page_id: '101', page_access_token: fake.pageToken(user, '101') };
});

async function signIn(): Promise<TokenSet> {
  const res = await fetch(await provider.authorizeUrl({ app, state: 'st-9' }), { redirect: 'manual' });
  const back = new URL(res.headers.get('location') ?? '');
  expect(back.searchParams.get('state')).toBe('st-9');
  const tokens = await provider.exchangeCode({ app, code: back.searchParams.get('code') ?? '' }, testContext({}).ctx);
  if ('ok' in tokens) throw new Error(`sign-in failed: ${JSON.stringify(tokens)}`);
  return tokens;
}

describe('provider (Facebook Login)', () => {
  it('dialog URL with the Instagram publishing scopes; no PKCE, no refresh', async () => {
    expect(provider.pkce).toBe(false);
    expect(provider.refresh).toBeUndefined();
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-9' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/${GRAPH_VERSION}/dialog/oauth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.clientId, redirect_uri: app.redirectUri, state: 'st-9', response_type: 'code',
      scope: 'instagram_basic,instagram_content_publish,pages_show_list,pages_read_engagement,business_management,instagram_manage_comments,instagram_manage_insights',
    });
  });

  it('sign-in gives a long-lived user token; accounts() lists each linked professional account with its Page token', async () => {
    const tokens = await signIn();
    expect(tokens).toEqual({ access_token: expect.stringMatching(/^fb-at-/) });
    fake.server.requests.length = 0;
    expect(await provider.accounts(tokens, testContext({}).ctx)).toEqual([
      { id: ig, handle: '@acme.bakery', credentials: { ig_user_id: ig, username: 'acme.bakery', page_id: '101', page_access_token: fake.pageToken(tokens.access_token, '101') } },
      { id: '17841400000000003', handle: '@acme.insights', credentials: { ig_user_id: '17841400000000003', username: 'acme.insights', page_id: '103', page_access_token: fake.pageToken(tokens.access_token, '103') } },
    ]);
    expect(fake.requests[0].url.searchParams.get('fields')).toBe('id,name,access_token,instagram_business_account{id,username}');
  });

  it('a revoked sign-in → accounts() reauth', async () => {
    const tokens = await signIn();
    fake.oauth.revokeAll();
    expect(await provider.accounts(tokens, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });
});

describe('adapter', () => {
  it('verify → @username; a dead token → reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: '@acme.bakery', credentials: creds });
    expect(fake.params(fake.requests[0])).toMatchObject({ fields: 'id,username', access_token: creds.page_access_token });
    fake.oauth.expireAccessTokens();
    expect(await adapter.verify(testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('check: media required, ≤ 10, JPEG only (content type, else extension), caption ≤ 2200, ≤ 30 hashtags', () => {
    expect(adapter.check(content(), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [] }), creds)).toMatchObject({ code: 'bad_media', error: expect.stringContaining('photo or a video') });
    expect(adapter.check(content({ media: Array.from({ length: 10 }, (_, i) => jpg(i)) }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: Array.from({ length: 11 }, (_, i) => jpg(i)) }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [{ ...jpg(1), content_type: 'image/png' }] }), creds)).toMatchObject({ code: 'bad_media', error: expect.stringContaining('JPEG') });
    expect(adapter.check(content({ media: [{ url: 'https://x.test/a.png', kind: 'image' }] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [{ url: 'https://x.test/a.png', kind: 'image', content_type: 'image/jpeg' }] }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [{ url: 'https://x.test/render', kind: 'image' }] }), creds)).toBeUndefined();
    expect(adapter.check(content({ text: 'a'.repeat(2200) }), creds)).toBeUndefined();
    expect(adapter.check(content({ text: 'a'.repeat(2201) }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringMatching(/2200.*2201/) });
    expect(adapter.check(content({ text: Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ') }), creds)).toMatchObject({ code: 'rejected', error: expect.stringContaining('30 hashtags') });
    expect(fake.requests).toHaveLength(0);
  });

  it('one photo: container {image_url, caption}, status FINISHED, media_publish, permalink', async () => {
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '18000000000000002', url: 'https://www.instagram.com/p/Cx2AbC/' });
    expect(fake.calls).toEqual([`POST /${ig}/media`, 'GET /17900000000000001', `POST /${ig}/media_publish`, 'GET /18000000000000002']);
    const [create, status, publish, link] = fake.requests;
    expect(fake.params(create)).toEqual({ image_url: jpg(1).url, caption: 'Morning batch #bread', access_token: creds.page_access_token });
    expect(status.url.searchParams.get('fields')).toBe('status_code,status');
    expect(fake.params(publish)).toEqual({ creation_id: '17900000000000001', access_token: creds.page_access_token });
    expect(link.url.searchParams.get('fields')).toBe('permalink');
  });

  it('the user token is used when no Page token is stored', async () => {
    const { page_access_token: _, ...userOnly } = creds;
    await adapter.publish(content(), testContext(userOnly).ctx);
    expect(fake.params(fake.requests[0]).access_token).toBe(creds.access_token);
  });

  it('a video: a REELS container polled until FINISHED within the deadline', async () => {
    fake.containerPolls = 2;
    const { ctx, sleeps } = ctxWithSleeps(creds);
    const out = await adapter.publish(content({ media: [reel] }), ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    expect(fake.params(fake.requests[0])).toEqual({ media_type: 'REELS', video_url: reel.url, caption: 'Morning batch #bread', access_token: creds.page_access_token });
    expect(fake.calls.filter((c) => c === 'GET /17900000000000001')).toHaveLength(3);
    expect(sleeps).toEqual([50, 50]);
  });

  it('IN_PROGRESS past the deadline → processing with {container_id}; resume() publishes once FINISHED', async () => {
    fake.containerPolls = 1000;
    const { ctx, sleeps } = ctxWithSleeps(creds);
    const out = await patient.publish(content({ media: [reel] }), ctx);
    expect(sleeps).toEqual([50, 50]);
    expect(out).toEqual({
      ok: true, status: 'processing', id: '17900000000000001', url: 'https://www.instagram.com/acme.bakery/',
      resume: { after_seconds: 20, state: { step: 'container', container_id: '17900000000000001' } },
    });
    expect(fake.find('POST', `/${ig}/media_publish`)).toHaveLength(0);
    if (!out.ok || !out.resume) throw new Error('expected resume');
    expect(await patient.resume!(content({ media: [reel] }), out.resume.state, ctxWithSleeps(creds).ctx)).toMatchObject({ status: 'processing' });
    fake.finishProcessing('17900000000000001');
    const done = await adapter.resume!(content({ media: [reel] }), out.resume.state, testContext(creds).ctx);
    expect(done).toEqual({ ok: true, status: 'published', id: '18000000000000002', url: 'https://www.instagram.com/p/Cx2AbC/' });
    expect(fake.find('POST', `/${ig}/media`)).toHaveLength(1);
  });

  it('a carousel: item containers, wait for the video item, CAROUSEL container with children, publish', async () => {
    fake.containerPolls = 1;
    const out = await adapter.publish(content({ media: [jpg(1), reel] }), ctxWithSleeps(creds).ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const creates = fake.find('POST', `/${ig}/media`).map((r) => fake.params(r));
    expect(creates).toEqual([
      { is_carousel_item: 'true', image_url: jpg(1).url, access_token: creds.page_access_token },
      { is_carousel_item: 'true', media_type: 'VIDEO', video_url: reel.url, access_token: creds.page_access_token },
      { media_type: 'CAROUSEL', children: '17900000000000001,17900000000000002', caption: 'Morning batch #bread', access_token: creds.page_access_token },
    ]);
    expect(fake.params(fake.find('POST', `/${ig}/media_publish`)[0]).creation_id).toBe('17900000000000003');
  });

  it('carousel items still processing at the deadline → processing {step: children}; resume builds the carousel', async () => {
    fake.containerPolls = 1000;
    const out = await patient.publish(content({ media: [reel, jpg(2)] }), ctxWithSleeps(creds).ctx);
    expect(out).toMatchObject({ status: 'processing', resume: { state: { step: 'children', children: '17900000000000001,17900000000000002' } } });
    if (!out.ok || !out.resume) throw new Error('expected resume');
    fake.finishProcessing('17900000000000001');
    fake.finishProcessing('17900000000000002');
    expect(await adapter.resume!(content({ media: [reel, jpg(2)] }), out.resume.state, testContext(creds).ctx)).toMatchObject({ ok: true, status: 'published' });
    expect(fake.find('POST', `/${ig}/media`)).toHaveLength(3);
  });

  it('container ERROR → bad_media, or media_unreachable for a download failure; EXPIRED → rejected', async () => {
    fake.containerError = 'Error: Unsupported video format (2207026)';
    expect(await adapter.publish(content({ media: [reel] }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: expect.stringContaining('2207026') });
    fake.containerError = 'Error: Media download has failed. The media URI doesn\'t meet our requirements. (2207052)';
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, code: 'media_unreachable' });
    fake.failNext('GET /17900000000000003', { body: { id: '17900000000000003', status_code: 'EXPIRED', status: 'Expired' } });
    fake.containerError = undefined;
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, code: 'rejected', error: expect.stringContaining('expired') });
    expect(fake.find('POST', `/${ig}/media_publish`)).toHaveLength(0);
  });

  it('a container refused at creation: media subcodes sorted; rate codes → rate_limited; not ready (9007 / 2207027) → transient', async () => {
    fake.failNext(`POST /${ig}/media`, FacebookFake.error(36003, 'The aspect ratio is not supported.', 2207009));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, code: 'bad_media' });
    fake.failNext(`POST /${ig}/media`, FacebookFake.error(9004, 'Media download has failed.', 2207003));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, code: 'media_unreachable' });
    fake.failNext(`POST /${ig}/media`, FacebookFake.error(4, 'Application request limit reached'));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 3600 });
    fake.failNext(`POST /${ig}/media_publish`, FacebookFake.error(9007, 'Media ID is not available', 2207027));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'transient' });
    fake.failNext(`POST /${ig}/media_publish`, FacebookFake.error(9007, 'Media ID is not available'));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('an expired token → reauth before any container', async () => {
    fake.oauth.expireAccessTokens();
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('code 190') });
    expect(fake.containers.size).toBe(0);
  });

  it('no answer → timeout by the deadline', async () => {
    fake.failNext(`POST /${ig}/media_publish`, { hang: true });
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

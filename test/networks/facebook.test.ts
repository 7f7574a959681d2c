import { createFacebookAdapter, createFacebookProvider, GRAPH_VERSION } from '../../shared/networks/facebook';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import { FacebookFake } from '../../shared/networks/facebook/graph-simulator';
import { FakeServer } from '../../shared/networks/sandbox-kit/fake-server';
import { expireOnHang, testContext } from './context';
import { oauthApp, signInThrough } from './oauth-support';

const fake = new FacebookFake();
let provider: ReturnType<typeof createFacebookProvider>;
let adapter: ReturnType<typeof createFacebookAdapter>;
let app: OAuthApp;
let user: string;
let creds: Record<string, string>;
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Fresh bread at 7', media: [], thread: [], send_key: 'post-1:facebook', ...over });
const photo = { url: 'https://cdn.example.com/bread.jpg', kind: 'image' as const };
const video = { url: 'https://cdn.example.com/oven.mp4', kind: 'video' as const };

beforeAll(async () => {
  await fake.start();
  provider = createFacebookProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createFacebookAdapter({ apiBase: fake.url });
  app = oauthApp(fake, 'facebook');
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  user = fake.userToken();
  creds = { access_token: user, page_id: '101', page_name: 'Acme Bakery', page_access_token: fake.pageToken(user, '101') };
});

const signIn = (): Promise<TokenSet> => signInThrough(provider, app, { state: 'st-1' });

describe('provider', () => {
  it('dialog URL on authBase under the pinned version: client_id, redirect_uri, state, comma scopes; no PKCE, no refresh', async () => {
    expect(provider.pkce).toBe(false);
    expect(provider.refresh).toBeUndefined();
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-1' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/${GRAPH_VERSION}/dialog/oauth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.clientId, redirect_uri: app.redirectUri, state: 'st-1', response_type: 'code',
      scope: 'pages_show_list,pages_read_engagement,pages_manage_posts,publish_video,pages_manage_engagement,read_insights',
    });
    expect(await createFacebookProvider().authorizeUrl({ app, state: 's' })).toMatch(new RegExp(`^https://www\\.facebook\\.com/${GRAPH_VERSION.replace('.', '\\.')}/dialog/oauth\\?`));
  });

  it('code → short-lived token → long-lived token (exact requests); no expiry kept', async () => {
    fake.server.requests.length = 0;
    const tokens = await signIn();
    const [, short, long] = fake.requests;
    expect(short.path).toBe(`/${GRAPH_VERSION}/oauth/access_token`);
    expect(Object.fromEntries(short.url.searchParams)).toEqual({ client_id: app.clientId, redirect_uri: app.redirectUri, client_secret: app.clientSecret, code: expect.stringMatching(/^fb-code-/) });
    expect(Object.fromEntries(long.url.searchParams)).toEqual({
      grant_type: 'fb_exchange_token', client_id: app.clientId, client_secret: app.clientSecret, fb_exchange_token: expect.stringMatching(/^fb-at-\d+$/),
    });
    expect(tokens).toEqual({ access_token: expect.stringMatching(/^fb-at-\d+$/) });
    expect(tokens.access_token).not.toBe(long.url.searchParams.get('fb_exchange_token'));
    expect(fake.oauth.valid(tokens.access_token)).toBe(true);
  });

  it('a used code → reauth; a wrong app secret → rejected naming the settings', async () => {
    const code = fake.oauth.codeFor(app.redirectUri);
    await provider.exchangeCode({ app, code }, testContext({}).ctx);
    expect(await provider.exchangeCode({ app, code }, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('has been used') });
    expect(await provider.exchangeCode({ app: { ...app, clientSecret: 'nope' }, code: 'x' }, testContext({}).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('FACEBOOK_CLIENT_SECRET') });
  });

  it('accounts(): one account per Page the user can post to, with its Page token; follows paging', async () => {
    const tokens = await signIn();
    fake.pageSize = 2;
    fake.server.requests.length = 0;
    const accounts = await provider.accounts(tokens, testContext({}).ctx);
    expect(accounts).toEqual([
      { id: '101', handle: 'Acme Bakery', credentials: { page_id: '101', page_name: 'Acme Bakery', page_access_token: fake.pageToken(tokens.access_token, '101') } },
      { id: '102', handle: 'Acme Outlet', credentials: { page_id: '102', page_name: 'Acme Outlet', page_access_token: fake.pageToken(tokens.access_token, '102') } },
    ]);
    expect(fake.calls).toEqual(['GET /me/accounts', 'GET /me/accounts']);
    expect(Object.fromEntries(fake.requests[0].url.searchParams)).toEqual({ fields: 'id,name,access_token,tasks', limit: '100', access_token: tokens.access_token });
    expect(fake.requests[1].url.searchParams.get('after')).toBe('2');
  });

  it('a revoked sign-in → accounts() reauth', async () => {
    const tokens = await signIn();
    fake.oauth.revokeAll();
    expect(await provider.accounts(tokens, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('code 190/463') });
  });
});

describe('adapter', () => {
  it('verify reads the Page with its token → the Page name; a dead token → reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: 'Acme Bakery', credentials: creds });
    expect(fake.requests[0].url.searchParams.get('fields')).toBe('id,name');
    expect(await adapter.verify(testContext({ ...creds, page_access_token: 'dead' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    expect(await adapter.verify(testContext({ access_token: user }).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('pick a Page') });
  });

  it('check: one media item at most; the text limit', () => {
    expect(adapter.check(content({ media: [photo] }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [photo, photo] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ text: 'a'.repeat(63207) }), creds)).toMatchObject({ code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('text: POST /{page}/feed {message} with the Page token → post id and its permalink', async () => {
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '101_9001', url: 'https://www.facebook.com/101/posts/pfbid01' });
    expect(fake.calls).toEqual(['POST /101/feed', 'GET /101_9001']);
    const [post, link] = fake.requests;
    expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(fake.params(post)).toEqual({ message: 'Fresh bread at 7', access_token: creds.page_access_token });
    expect(link.url.searchParams.get('fields')).toBe('permalink_url');
  });

  it('photo: POST /{page}/photos {url, caption} → the post id', async () => {
    const out = await adapter.publish(content({ media: [photo] }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '101_9001', url: 'https://www.facebook.com/photo/?fbid=8001' });
    expect(fake.params(fake.find('POST', '/101/photos')[0])).toEqual({ url: photo.url, caption: 'Fresh bread at 7', published: 'true', access_token: creds.page_access_token });
  });

  it('video: POST /{page}/videos {file_url, description, title} on the video base → id; relative permalink made absolute', async () => {
    const out = await adapter.publish(content({ media: [video], title: 'Oven' }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '7001', url: 'https://www.facebook.com/101/videos/7001/' });
    expect(fake.params(fake.find('POST', '/101/videos')[0])).toEqual({
      file_url: video.url, description: 'Fresh bread at 7', title: 'Oven', published: 'true', access_token: creds.page_access_token,
    });
  });

  it('a separate videoBase receives the video upload; the rest stays on apiBase', async () => {
    const videoHost = new FakeServer(() => ({ body: { id: '7777' } }));
    await videoHost.start();
    try {
      const split = createFacebookAdapter({ apiBase: fake.url, videoBase: videoHost.url });
      const out = await split.publish(content({ media: [video] }), testContext(creds).ctx);
      expect(out).toEqual({ ok: true, status: 'published', id: '7777', url: 'https://www.facebook.com/7777' });
      expect(videoHost.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /${GRAPH_VERSION}/101/videos`]);
      expect(fake.calls).toEqual(['GET /7777']);
    } finally {
      await videoHost.stop();
    }
  });

  it('a permalink that cannot be read falls back to facebook.com/<id>', async () => {
    fake.failNext('GET /101_9001', FacebookFake.error(2, 'Service temporarily unavailable', undefined, 500));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: true, url: 'https://www.facebook.com/101_9001' });
  });

  it('rate codes → rate_limited with the X-Business-Use-Case-Usage estimate, else an hour', async () => {
    const usage = JSON.stringify({ 101: [{ type: 'pages', call_count: 100, total_cputime: 20, total_time: 30, estimated_time_to_regain_access: 7 }] });
    fake.failNext('POST /101/feed', { ...FacebookFake.error(32, 'Page request limit reached'), headers: { 'x-business-use-case-usage': usage } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 420 });
    fake.failNext('POST /101/feed', FacebookFake.error(4, 'Application request limit reached'));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 3600 });
    fake.failNext('POST /101/feed', FacebookFake.error(80001, 'There have been too many calls to this Page account'));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited' });
  });

  it('error codes: 190 / 10 / 200 → reauth; 1 / 2 → transient; 368 / 100 / 506 → rejected; bad photo → bad_media', async () => {
    const cases: Array<[number, number | undefined, Record<string, unknown>]> = [
      [190, 460, { kind: 'reauth' }], [10, undefined, { kind: 'reauth' }], [200, undefined, { kind: 'reauth' }],
      [1, undefined, { kind: 'transient' }], [2, undefined, { kind: 'transient' }],
      [368, 1390008, { kind: 'rejected', code: 'rejected', error: expect.stringContaining('policy') }],
      [100, undefined, { kind: 'rejected', code: 'rejected' }], [506, undefined, { kind: 'rejected', error: expect.stringContaining('duplicate') }],
    ];
    for (const [code, subcode, expected] of cases) {
      fake.failNext('POST /101/feed', FacebookFake.error(code, `error ${code}`, subcode));
      expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, ...expected });
    }
    fake.failNext('POST /101/photos', FacebookFake.error(100, 'Invalid photo', 1366046));
    expect(await adapter.publish(content({ media: [photo] }), testContext(creds).ctx)).toMatchObject({ ok: false, code: 'bad_media' });
    fake.failNext('POST /101/photos', FacebookFake.error(100, 'Failed to fetch the image from the url'));
    expect(await adapter.publish(content({ media: [photo] }), testContext(creds).ctx)).toMatchObject({ ok: false, code: 'media_unreachable' });
  });

  it('an expired Page token → reauth; 5xx without an envelope → transient', async () => {
    fake.oauth.expireAccessTokens();
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('Error validating access token') });
    fake.failNext('POST /101/feed', { status: 502, body: '<html>bad gateway</html>' });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('the token never appears in an error text', async () => {
    fake.failNext('POST /101/feed', FacebookFake.error(100, 'Invalid parameter'));
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(JSON.stringify(out)).not.toContain(creds.page_access_token);
  });

  it('no answer → timeout by the deadline', async () => {
    fake.failNext('POST /101/feed', { hang: true });
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

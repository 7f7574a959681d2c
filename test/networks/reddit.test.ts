import { createRedditAdapter, createRedditProvider, REDDIT_DEFAULT_USER_AGENT } from '../../shared/networks/reddit';
import { subredditName, waitFromMessage } from '../../shared/networks/reddit/rules';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import { RedditFake } from '../../shared/networks/reddit/simulator';
import { expireOnHang, testContext } from './context';
import { oauthApp, signInThrough } from './oauth-support';

const fake = new RedditFake();
let provider: ReturnType<typeof createRedditProvider>;
let adapter: ReturnType<typeof createRedditAdapter>;
let app: OAuthApp;
let creds: Record<string, string>;
const content = (over: Partial<PublishContent> = {}): PublishContent => ({
  text: 'We shipped v2\nChangelog: faster uploads.', media: [], thread: [], subreddit: 'test', send_key: 'post-1:reddit', ...over,
});
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

beforeAll(async () => {
  await fake.start();
  provider = createRedditProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createRedditAdapter({ apiBase: fake.url });
  app = oauthApp(fake, 'reddit');
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.reset();
  creds = { access_token: fake.token(), username: 'acme_team', user_id: 'k3x9q' };
});

const signIn = (): Promise<TokenSet> => signInThrough(provider, app, { state: 'st-r', headers: { 'user-agent': 'browser' } });

describe('provider', () => {
  it('authorize URL: client_id, code, state, redirect_uri, duration=permanent, scopes identity submit history edit read; no PKCE', async () => {
    expect(provider.pkce).toBe(false);
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-r' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/api/v1/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.clientId, response_type: 'code', state: 'st-r', redirect_uri: app.redirectUri, duration: 'permanent', scope: 'identity submit history edit read',
    });
    expect(await createRedditProvider().authorizeUrl({ app, state: 's' })).toMatch(/^https:\/\/www\.reddit\.com\/api\/v1\/authorize\?/);
  });

  it('the code exchange uses Basic client auth, the form and the User-Agent; ~1 h token with a permanent refresh token', async () => {
    const res = await fetch(await provider.authorizeUrl({ app, state: 'st-r' }), { redirect: 'manual', headers: { 'user-agent': 'browser' } });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe('st-r');
    const before = Date.now();
    const tokens = await provider.exchangeCode({ app, code: back.searchParams.get('code') ?? '' }, testContext({}).ctx);
    const [req] = fake.find('POST', '/api/v1/access_token');
    expect(req.headers.authorization).toBe(basic(app.clientId, app.clientSecret));
    expect(req.headers['user-agent']).toBe(REDDIT_DEFAULT_USER_AGENT);
    expect(Object.fromEntries(new URLSearchParams(req.text))).toEqual({ grant_type: 'authorization_code', code: back.searchParams.get('code'), redirect_uri: app.redirectUri });
    if ('ok' in tokens) throw new Error(JSON.stringify(tokens));
    expect(tokens).toMatchObject({ access_token: expect.stringMatching(/^rd-at-/), refresh_token: expect.stringMatching(/^rd-rt-/), scope: 'identity submit history edit read' });
    expect(Math.round((tokens.expires_at! - before) / 60_000)).toBe(60);
  });

  it('a used code (HTTP 200 {error: invalid_grant}) → reauth; a wrong secret → rejected naming the settings', async () => {
    expect(await provider.exchangeCode({ app, code: 'used' }, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('invalid_grant') });
    expect(await provider.exchangeCode({ app: { ...app, clientSecret: 'nope' }, code: 'x' }, testContext({}).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('REDDIT_CLIENT_SECRET') });
  });

  it('refresh: Basic auth + refresh form; the refresh token is kept; a revoked grant → reauth', async () => {
    const tokens = await signIn();
    const renewed = await provider.refresh!(tokens, app, testContext({}).ctx);
    const reqs = fake.find('POST', '/api/v1/access_token');
    expect(reqs[1].headers.authorization).toBe(basic(app.clientId, app.clientSecret));
    expect(Object.fromEntries(new URLSearchParams(reqs[1].text))).toEqual({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(renewed).toMatchObject({ access_token: expect.stringMatching(/^rd-at-/), refresh_token: tokens.refresh_token });
    fake.oauth.revokeAll();
    expect(await provider.refresh!(tokens, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('invalid_grant') });
  });

  it('accounts(): /api/v1/me → u/name with username and user_id', async () => {
    const tokens = await signIn();
    fake.server.requests.length = 0;
    expect(await provider.accounts(tokens, testContext({}).ctx)).toEqual([{ id: 'k3x9q', handle: 'u/acme_team', credentials: { username: 'acme_team', user_id: 'k3x9q' } }]);
    expect(fake.requests[0].headers).toMatchObject({ authorization: `Bearer ${tokens.access_token}`, 'user-agent': REDDIT_DEFAULT_USER_AGENT });
  });
});

describe('adapter', () => {
  it('verify → u/name; an expired token → reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: 'u/acme_team', credentials: creds });
    fake.oauth.expireAccessTokens();
    expect(await adapter.verify(testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('check: subreddit required, title ≤ 300, text ≤ 40,000, one media item', () => {
    expect(adapter.check(content(), creds)).toBeUndefined();
    expect(adapter.check(content({ subreddit: undefined }), creds)).toMatchObject({ code: 'rejected', error: expect.stringContaining('subreddit') });
    expect(adapter.check(content({ title: 't'.repeat(301) }), creds)).toMatchObject({ code: 'text_too_long' });
    expect(adapter.check(content({ title: 'ok', text: 'x'.repeat(40001) }), creds)).toMatchObject({ code: 'text_too_long' });
    const img = { url: 'https://x.test/a.jpg', kind: 'image' as const };
    expect(adapter.check(content({ media: [img, img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(subredditName('r/Acme')).toBe('Acme');
    expect(subredditName('/r/acme/')).toBe('acme');
    expect(subredditName('not a sub')).toBeUndefined();
    expect(fake.requests).toHaveLength(0);
  });

  it('a self post: first line as title, the rest as text, api_type=json → t3 id and the permalink', async () => {
    const out = await adapter.publish(content({ subreddit: 'r/test' }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: 't3_1abc1', url: 'https://www.reddit.com/r/test/comments/1abc1/we_shipped_v2/' });
    const [req] = fake.requests;
    expect(req.path).toBe('/api/submit');
    expect(req.headers).toMatchObject({ authorization: `Bearer ${creds.access_token}`, 'user-agent': REDDIT_DEFAULT_USER_AGENT, 'content-type': 'application/x-www-form-urlencoded' });
    expect(Object.fromEntries(new URLSearchParams(req.text))).toEqual({ api_type: 'json', sr: 'test', kind: 'self', title: 'We shipped v2', text: 'Changelog: faster uploads.' });
  });

  it('a title keeps the whole text; a media item or a bare URL body → a link post', async () => {
    await adapter.publish(content({ title: 'Release notes' }), testContext(creds).ctx);
    await adapter.publish(content({ title: 'Demo', media: [{ url: 'https://cdn.example.com/demo.mp4', kind: 'video' }] }), testContext(creds).ctx);
    await adapter.publish(content({ text: 'Read this\nhttps://example.com/post' }), testContext(creds).ctx);
    const forms = fake.find('POST', '/api/submit').map((r) => Object.fromEntries(new URLSearchParams(r.text)));
    expect(forms).toEqual([
      { api_type: 'json', sr: 'test', kind: 'self', title: 'Release notes', text: 'We shipped v2\nChangelog: faster uploads.' },
      { api_type: 'json', sr: 'test', kind: 'link', title: 'Demo', url: 'https://cdn.example.com/demo.mp4', resubmit: 'true' },
      { api_type: 'json', sr: 'test', kind: 'link', title: 'Read this', url: 'https://example.com/post', resubmit: 'true' },
    ]);
  });

  it('RATELIMIT in json.errors → rate_limited with the wait from the text (or json.ratelimit)', async () => {
    fake.failNext('POST /api/submit', RedditFake.submitErrors(['RATELIMIT', "Looks like you've been doing that a lot. Take a break for 9 minutes before trying again.", 'ratelimit']));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 540, error: expect.stringContaining('RATELIMIT') });
    fake.failNext('POST /api/submit', { body: { json: { ratelimit: 42.5, errors: [['RATELIMIT', 'you are doing that too much. try again in 1 minute.', 'ratelimit']] } } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ kind: 'rate_limited', retry_after: 43 });
    expect(waitFromMessage('try again in 30 seconds.')).toBe(30);
  });

  it('an HTTP 429 → rate_limited until X-Ratelimit-Reset', async () => {
    fake.failNext('POST /api/submit', { status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '37' }, body: { message: 'Too Many Requests', error: 429 } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 37 });
  });

  it('SUBREDDIT_NOEXIST and other errors → rejected; TOO_LONG → text_too_long; 403 → rejected; 5xx → transient', async () => {
    expect(await adapter.publish(content({ subreddit: 'nosuchsub' }), testContext(creds).ctx))
      .toEqual({ ok: false, kind: 'rejected', code: 'rejected', error: "reddit submit failed: SUBREDDIT_NOEXIST: that community doesn't exist (sr)" });
    fake.failNext('POST /api/submit', RedditFake.submitErrors(['TOO_LONG', 'this is too long (max: 300)', 'title']));
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ code: 'text_too_long' });
    fake.failNext('POST /api/submit', { status: 403, body: { message: 'Forbidden', error: 403 } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ kind: 'rejected', error: expect.stringContaining('may not post') });
    fake.failNext('POST /api/submit', { status: 503, body: '<html>all our servers are busy</html>' });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ kind: 'transient' });
  });

  it('an expired token → reauth', async () => {
    fake.oauth.expireAccessTokens();
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });

  it('no answer → timeout by the deadline', async () => {
    fake.failNext('POST /api/submit', { hang: true });
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

import { createPinterestAdapter, createPinterestProvider } from '../../shared/networks/pinterest';
import { checkPinterest } from '../../shared/networks/pinterest/limits';
import { basicAuth } from '../../shared/networks/oauth-tokens';
import type { OAuthApp, TokenSet } from '../../shared/ports/oauth';
import type { PublishContent } from '../../shared/ports/networks';
import type { RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';
import { PinterestFake } from '../../shared/networks/pinterest/simulator';
import { serveMedia } from '../../shared/networks/sandbox-kit/oauth-authority';
import { testContext } from './context';
import { pinterestApiViolations } from '../contracts/pinterest-openapi';
import { watchContract } from '../contracts/watch';
import { oauthApp } from './oauth-support';

/**
 * Pinterest through its loopback fake (API v5 paths): the sign-in with the board picker, token renewal, an image
 * Pin on the default board and on a board the post names, and a video Pin through register → upload → poll →
 * pin, each with the exact requests the adapter sends.
 */
const fake = new PinterestFake();
// every request the adapter sends to Pinterest's API is checked against Pinterest's published OpenAPI document
const contract = watchContract(fake.server, pinterestApiViolations, { answers: true });
const files = new Map([['clip.mp4', { type: 'video/mp4', bytes: Buffer.concat([Buffer.from('000000186674797069736f6d', 'hex'), Buffer.alloc(2048, 3)]) }]]);
let provider: ReturnType<typeof createPinterestProvider>;
let adapter: ReturnType<typeof createPinterestAdapter>;
let app: OAuthApp;
let creds: Record<string, string>;
const jpg = { url: 'https://cdn.example.com/tart.jpg', kind: 'image' as const, alt: 'A lemon tart on a plate' };
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Lemon tart, the easy way', title: 'Lemon tart', media: [jpg], thread: [], send_key: 'post-1:pinterest', ...over });
const form = (r: RecordedRequest) => Object.fromEntries(new URLSearchParams(r.text));

beforeAll(async () => {
  const original = fake.server.handler;
  fake.server.handler = (req) => serveMedia(req, files) ?? original(req);
  await fake.start();
  provider = createPinterestProvider({ apiBase: fake.url, authBase: fake.url });
  adapter = createPinterestAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 50 });
  app = oauthApp(fake, 'pinterest');
});
afterAll(() => fake.stop());
afterEach(() => expect(contract.take()).toEqual([]));
beforeEach(() => {
  fake.reset();
  creds = { access_token: fake.token, username: fake.username, board_id: '549755885175', board_name: 'Cakes' };
});

async function signIn(): Promise<TokenSet> {
  const res = await fetch(await provider.authorizeUrl({ app, state: 'st-2' }), { redirect: 'manual' });
  const code = new URL(res.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tokens = await provider.exchangeCode({ app, code }, testContext({}).ctx);
  if ('ok' in tokens) throw new Error(`sign-in failed: ${JSON.stringify(tokens)}`);
  return tokens;
}

describe('pinterest sign-in and board picker', () => {
  it('authorizes with the pin scopes; the code exchange uses HTTP Basic; each board is an account to pick', async () => {
    const url = new URL(await provider.authorizeUrl({ app, state: 'st-2' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', scope: 'boards:read,pins:read,pins:write,user_accounts:read', state: 'st-2',
    });
    const { ctx } = testContext({});
    const tokens = await signIn();
    const [token] = fake.find('POST', '/v5/oauth/token');
    expect(token.headers.authorization).toBe(basicAuth(app.clientId, app.clientSecret));
    expect(form(token)).toEqual({ grant_type: 'authorization_code', code: expect.stringMatching(/^pin-code-/), redirect_uri: app.redirectUri });
    expect(tokens).toMatchObject({ access_token: expect.stringMatching(/^pin-at-/), refresh_token: expect.stringMatching(/^pin-rt-/) });
    expect(tokens.expires_at! - ctx.now()).toBeGreaterThan(29 * 86_400_000);
    expect(tokens.refresh_expires_at! - ctx.now()).toBeGreaterThan(364 * 86_400_000);
    fake.server.requests.length = 0;
    const accounts = await provider.accounts(tokens, testContext({}).ctx);
    expect(fake.calls).toEqual(['GET /v5/user_account', 'GET /v5/boards']);
    expect(Object.fromEntries(fake.find('GET', '/v5/boards')[0].url.searchParams)).toEqual({ page_size: '100' });
    expect(accounts).toEqual([
      { id: '549755885175', handle: '@acmebakery · Cakes', credentials: { username: 'acmebakery', board_id: '549755885175', board_name: 'Cakes' } },
      { id: '549755885176', handle: '@acmebakery · Breads', credentials: { username: 'acmebakery', board_id: '549755885176', board_name: 'Breads' } },
    ]);
  });

  it('an account without a board cannot be connected (with the fix)', async () => {
    const tokens = await signIn();
    fake.boards = [];
    expect(await provider.accounts(tokens, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('create a board') });
  });

  it('refresh keeps the refresh token Pinterest does not send again; a revoked grant is a lost sign-in', async () => {
    const tokens = await signIn();
    const renewed = await provider.refresh!(tokens, app, testContext({}).ctx);
    if ('ok' in renewed) throw new Error(renewed.error);
    expect(form(fake.find('POST', '/v5/oauth/token')[1])).toEqual({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(renewed.refresh_token).toBe(tokens.refresh_token);
    expect(renewed.access_token).not.toBe(tokens.access_token);
    fake.revoke();
    expect(await provider.refresh!(renewed, app, testContext({}).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });
});

describe('pinterest pins', () => {
  it('image: one POST /v5/pins on the default board with title, description, alt text and the image URL', async () => {
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: fake.pins[0].id, url: `https://www.pinterest.com/pin/${fake.pins[0].id}/` });
    expect(fake.calls).toEqual(['POST /v5/pins']);
    const [pin] = fake.find('POST', '/v5/pins');
    expect(pin.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(pin.json).toEqual({
      board_id: '549755885175', title: 'Lemon tart', description: 'Lemon tart, the easy way', alt_text: 'A lemon tart on a plate',
      media_source: { source_type: 'image_url', url: 'https://cdn.example.com/tart.jpg' },
    });
  });

  it('board choice: per_platform board_id wins over the default board; link goes with the Pin', async () => {
    await adapter.publish(content({ options: { board_id: '549755885176', link: 'https://example.com/tart' } }), testContext(creds).ctx);
    expect(fake.find('POST', '/v5/pins')[0].json).toMatchObject({ board_id: '549755885176', link: 'https://example.com/tart' });
  });

  it('a board that is not the user\'s: rejected naming per_platform.pinterest.board_id', async () => {
    const out = await adapter.publish(content({ options: { board_id: '1' } }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('per_platform.pinterest.board_id') });
  });

  it('video: register, upload the bytes as the S3 form (file last), poll until succeeded, then pin with the media id and cover', async () => {
    fake.mediaPolls = 2;
    const video = { url: `${fake.url}/media/clip.mp4`, kind: 'video' as const };
    const { ctx, clock } = testContext(creds);
    const out = await adapter.publish(content({ media: [video], options: { thumbnail_url: 'https://cdn.example.com/cover.jpg' } }), ctx);
    expect(out).toMatchObject({ ok: true, status: 'published' });
    const mediaId = [...fake.uploads.keys()][0];
    expect(fake.calls).toEqual([
      'POST /v5/media', 'POST /upload', `GET /v5/media/${mediaId}`, `GET /v5/media/${mediaId}`, `GET /v5/media/${mediaId}`, 'POST /v5/pins',
    ]);
    expect(fake.find('POST', '/v5/media')[0].json).toEqual({ media_type: 'video' });
    const upload = fake.find('POST', '/upload')[0].body.toString('latin1');
    expect(upload).toContain(`name="key"\r\n\r\nuploads/${mediaId}/video.mp4`);
    expect(upload).toContain('name="x-amz-signature"\r\n\r\nabc123');
    expect(upload.indexOf('name="file"')).toBeGreaterThan(upload.indexOf('name="policy"'));
    expect(upload).toContain(files.get('clip.mp4')!.bytes.toString('latin1'));
    expect(clock.sleeps).toEqual([50, 50]);
    expect(fake.find('POST', '/v5/pins')[0].json).toEqual({
      board_id: '549755885175', title: 'Lemon tart', description: 'Lemon tart, the easy way',
      media_source: { source_type: 'video_id', media_id: mediaId, cover_image_url: 'https://cdn.example.com/cover.jpg' },
    });
  });

  it('video still processing near the deadline: processing; resume pins it; a failed upload is bad_media', async () => {
    fake.mediaPolls = 100;
    const video = { url: `${fake.url}/media/clip.mp4`, kind: 'video' as const };
    const patient = createPinterestAdapter({ apiBase: fake.url, pollIntervalMs: 50, reserveMs: 1850 });
    const out = await patient.publish(content({ media: [video] }), testContext(creds).ctx);
    const mediaId = [...fake.uploads.keys()][0];
    expect(out).toEqual({ ok: true, status: 'processing', id: mediaId, url: 'https://www.pinterest.com/acmebakery/', resume: { after_seconds: 30, state: { media_id: mediaId, board_id: '549755885175' } } });
    fake.uploads.get(mediaId)!.polls = 0;
    expect(await patient.resume!(content({ media: [video] }), { media_id: mediaId, board_id: '549755885175' }, testContext(creds).ctx)).toMatchObject({ ok: true, status: 'published' });
    fake.failNextVideo = true;
    expect(await adapter.publish(content({ media: [video] }), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media' });
  });

  it('a token Pinterest refuses: reauth; a throttle: rate_limited with Retry-After', async () => {
    expect(await adapter.publish(content(), testContext({ ...creds, access_token: 'pina_gone' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    fake.failNext('POST /v5/pins', { status: 429, headers: { 'retry-after': '120' }, body: { code: 8, message: 'Rate limit exceeded.' } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 120 });
  });
});

describe('pinterest connection check', () => {
  it('verify reads the user account; a refused token is reauth', async () => {
    expect(await adapter.verify(testContext(creds).ctx)).toEqual({ ok: true, handle: '@acmebakery', credentials: creds });
    expect(fake.calls).toEqual(['GET /v5/user_account']);
    expect(await adapter.verify(testContext({ ...creds, access_token: 'gone' }).ctx)).toMatchObject({ ok: false, kind: 'reauth' });
  });
});

describe('pinterest content checks (before sending)', () => {
  it('one image or video; description ≤ 500; title ≤ 100; alt ≤ 500', () => {
    expect(checkPinterest(content())).toBeUndefined();
    expect(checkPinterest(content({ media: [] }))).toMatchObject({ code: 'bad_media' });
    expect(checkPinterest(content({ media: [jpg, jpg] }))).toMatchObject({ code: 'bad_media' });
    expect(checkPinterest(content({ text: 'x'.repeat(500) }))).toBeUndefined();
    expect(checkPinterest(content({ text: 'x'.repeat(501) }))).toMatchObject({ code: 'text_too_long' });
    expect(checkPinterest(content({ title: 'x'.repeat(101) }))).toMatchObject({ code: 'text_too_long' });
    expect(checkPinterest(content({ media: [{ ...jpg, alt: 'x'.repeat(501) }] }))).toMatchObject({ code: 'bad_media' });
  });
});

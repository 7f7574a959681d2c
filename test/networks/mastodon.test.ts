import { createMastodonAdapter } from '../../shared/networks/mastodon';
import { statusLength } from '../../shared/networks/mastodon/rules';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { ctxWithSleeps, expireOnHang, testContext } from './context';
import { ManualClock } from '../support/clock';

const fake = new MastodonFake();
const adapter: NetworkAdapter = createMastodonAdapter({ pollIntervalMs: 50 });
let creds: Record<string, string>;
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'hello fediverse', media: [], thread: [], send_key: 'post-1:mastodon', ...over });

beforeAll(async () => {
  await fake.start();
  creds = { instance_url: fake.url, access_token: 'good-token' };
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

describe('verify', () => {
  it('checks the token, normalises the instance URL and keeps the instance limit', async () => {
    fake.maxCharacters = 1000;
    const out = await adapter.verify(testContext({ instance_url: ` ${fake.url}// `, access_token: ' good-token ' }).ctx);
    expect(out).toEqual({
      ok: true,
      handle: `@alice@${new URL(fake.url).host}`,
      credentials: { instance_url: fake.url, access_token: 'good-token', max_characters: '1000' },
    });
    expect(fake.calls).toEqual(['GET /api/v1/accounts/verify_credentials', 'GET /api/v2/instance']);
    expect(fake.requests[0].headers.authorization).toBe('Bearer good-token');
  });

  it('an invalid token → reauth without echoing it', async () => {
    const out = await adapter.verify(testContext({ ...creds, access_token: 'secret-bad-token' }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('The access token is invalid') });
    expect(out.ok === false && out.error).not.toContain('secret-bad-token');
    expect(fake.calls).toEqual(['GET /api/v1/accounts/verify_credentials']);
  });

  it('an address that is not a Mastodon API, or not a URL → rejected', async () => {
    fake.override('GET /api/v1/accounts/verify_credentials', { status: 404, body: '<html>nope</html>' });
    expect(await adapter.verify(testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('does not answer as a Mastodon server') });
    expect(await adapter.verify(testContext({ ...creds, instance_url: 'ftp://x' }).ctx)).toMatchObject({ ok: false, kind: 'rejected', error: expect.stringContaining('instance_url') });
  });
});

describe('check', () => {
  it('500 characters by default; 501 → text_too_long with the limit and the length; nothing is sent', () => {
    expect(adapter.check(content({ text: 'a'.repeat(500) }), creds)).toBeUndefined();
    const out = adapter.check(content({ text: 'a'.repeat(501) }), creds);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long', error: expect.stringMatching(/500 .*501/) });
    expect(fake.requests).toHaveLength(0);
  });

  it('a URL counts 23 characters and a remote mention counts as @user', () => {
    const url = `https://example.com/${'p'.repeat(200)}`;
    expect(statusLength(`${'a'.repeat(476)} ${url}`)).toBe(500);
    expect(statusLength('hi @bob@mastodon.example')).toBe(7);
    expect(adapter.check(content({ text: `${'a'.repeat(476)} ${url}` }), creds)).toBeUndefined();
    expect(adapter.check(content({ text: `${'a'.repeat(477)} ${url}` }), creds)).toMatchObject({ code: 'text_too_long' });
  });

  it('uses the instance limit kept at verify, and checks thread entries and the first comment', () => {
    expect(adapter.check(content({ text: 'a'.repeat(900) }), { ...creds, max_characters: '1000' })).toBeUndefined();
    expect(adapter.check(content({ thread: ['ok', 'b'.repeat(501)] }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringContaining('thread post 2') });
    expect(adapter.check(content({ first_comment: 'c'.repeat(501) }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringContaining('first comment') });
  });

  it('more than 4 media, or a video with other media → bad_media', () => {
    const img = { url: 'https://x/a.png', kind: 'image' as const };
    const vid = { url: 'https://x/v.mp4', kind: 'video' as const };
    expect(adapter.check(content({ media: [img, img, img, img] }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [vid] }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [img, img, img, img, img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [img, vid] }), creds)).toMatchObject({ code: 'bad_media' });
  });
});

describe('publish', () => {
  it('posts a status with visibility and Idempotency-Key; returns its id and url', async () => {
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '1001', url: `${fake.url}/@alice/1001` });
    expect(fake.calls).toEqual(['POST /api/v1/statuses']);
    const [req] = fake.requests;
    expect(req.headers.authorization).toBe('Bearer good-token');
    expect(req.headers['idempotency-key']).toBe('post-1:mastodon');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ status: 'hello fediverse', visibility: 'public' });
  });

  it('uploads media as multipart, waits for processing, then attaches the ids', async () => {
    fake.media.set('clip.mp4', { type: 'video/mp4', bytes: Buffer.from('fake-mp4-bytes') });
    fake.processing = 2;
    const { ctx, sleeps } = ctxWithSleeps(creds);
    const out = await adapter.publish(content({ text: 'watch', media: [{ url: fake.mediaUrl('clip.mp4'), kind: 'video' }], privacy: 'unlisted' }), ctx);
    expect(out).toMatchObject({ ok: true, id: '1001' });
    expect(fake.calls).toEqual(['POST /api/v2/media', 'GET /api/v1/media/101', 'GET /api/v1/media/101', 'GET /api/v1/media/101', 'POST /api/v1/statuses']);
    expect(sleeps).toEqual([50, 50, 50]);
    const [upload] = fake.find('POST', '/api/v2/media');
    expect(upload.headers.authorization).toBe('Bearer good-token');
    const form = await new Response(new Uint8Array(upload.body), { headers: { 'content-type': String(upload.headers['content-type']) } }).formData();
    const file = form.get('file') as File;
    expect(file.name).toBe('clip.mp4');
    expect(file.type).toBe('video/mp4');
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('fake-mp4-bytes');
    expect(fake.find('POST', '/api/v1/statuses')[0].json).toEqual({ status: 'watch', visibility: 'unlisted', media_ids: ['101'] });
  });

  it('images that are ready at once are attached in order', async () => {
    fake.media.set('a.png', { type: 'image/png', bytes: Buffer.from('A') });
    fake.media.set('b.png', { type: 'image/png', bytes: Buffer.from('B') });
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('a.png'), kind: 'image' }, { url: fake.mediaUrl('b.png'), kind: 'image' }] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true });
    expect(fake.calls).toEqual(['POST /api/v2/media', 'POST /api/v2/media', 'POST /api/v1/statuses']);
    expect(fake.find('POST', '/api/v1/statuses')[0].json).toMatchObject({ media_ids: ['101', '102'] });
  });

  it('media still processing when the deadline nears → transient, no status posted', async () => {
    fake.media.set('clip.mp4', { type: 'video/mp4', bytes: Buffer.from('v') });
    fake.processing = 1000;
    const { ctx } = ctxWithSleeps(creds, 300);
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('clip.mp4'), kind: 'video' }] }), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'transient', error: expect.stringContaining('still processing') });
    expect(fake.find('POST', '/api/v1/statuses')).toHaveLength(0);
  });

  it('a refused upload (422 unsupported file) → bad_media; an unreachable media link → media_unreachable', async () => {
    fake.media.set('a.bin', { type: 'application/octet-stream', bytes: Buffer.from('x') });
    fake.override('POST /api/v2/media', { status: 422, body: { error: 'Validation failed: File content type is invalid' } });
    expect(await adapter.publish(content({ media: [{ url: fake.mediaUrl('a.bin'), kind: 'image' }] }), testContext(creds).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: expect.stringContaining('content type is invalid') });
    expect(await adapter.publish(content({ media: [{ url: fake.mediaUrl('gone.png'), kind: 'image' }] }), testContext(creds).ctx))
      .toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable' });
    expect(fake.find('POST', '/api/v1/statuses')).toHaveLength(0);
  });

  it('chains the thread and the first comment with in_reply_to_id and derived keys', async () => {
    const out = await adapter.publish(content({ text: 'one', thread: ['two', 'three'], first_comment: 'comment', privacy: 'private' }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '1001', url: `${fake.url}/@alice/1001`, thread_ids: ['1002', '1003'], comment_id: '1004' });
    const posts = fake.find('POST', '/api/v1/statuses');
    expect(posts.map((p) => [p.headers['idempotency-key'], p.json])).toEqual([
      ['post-1:mastodon', { status: 'one', visibility: 'private' }],
      ['post-1:mastodon:t1', { status: 'two', visibility: 'private', in_reply_to_id: '1001' }],
      ['post-1:mastodon:t2', { status: 'three', visibility: 'private', in_reply_to_id: '1002' }],
      ['post-1:mastodon:c', { status: 'comment', visibility: 'private', in_reply_to_id: '1001' }],
    ]);
  });

  it('a thread entry that hangs keeps the published first status', async () => {
    let n = 0;
    fake.override('POST /api/v1/statuses', () => (++n === 1 ? { status: 200, body: { id: '9', url: `${fake.url}/@alice/9` } } : { hang: true }));
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content({ thread: ['two'] }), ctx));
    expect(out).toEqual({ ok: true, status: 'published', id: '9', url: `${fake.url}/@alice/9` });
  });

  it('422 → rejected with the error text (text_too_long when it names the character limit)', async () => {
    fake.override('POST /api/v1/statuses', { status: 422, body: { error: "Validation failed: Text can't be blank" } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toEqual({
      ok: false, kind: 'rejected', code: 'rejected', error: "mastodon post failed (HTTP 422): Validation failed: Text can't be blank",
    });
    fake.override('POST /api/v1/statuses', { status: 422, body: { error: 'Validation failed: Text character limit of 500 exceeded' } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ kind: 'rejected', code: 'text_too_long' });
  });

  it('429 → rate_limited until X-RateLimit-Reset (an ISO timestamp)', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
    const reset = new Date(clock.now() + 90_000).toISOString();
    fake.override('POST /api/v1/statuses', {
      status: 429, headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, body: { error: 'Too many requests' },
    });
    const out = await adapter.publish(content(), testContext(creds, { clock }).ctx);
    if (out.ok || out.kind !== 'rate_limited') throw new Error(`expected rate_limited, got ${JSON.stringify(out)}`);
    expect(out.retry_after).toBe(90);
  });

  it('a revoked token (401) or missing scope (403) → reauth', async () => {
    expect(await adapter.publish(content(), testContext({ ...creds, access_token: 'revoked' }).ctx))
      .toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('The access token is invalid') });
    fake.override('POST /api/v1/statuses', { status: 403, body: { error: 'This action is outside the authorized scopes' } });
    expect(await adapter.publish(content(), testContext(creds).ctx))
      .toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('write:statuses') });
  });

  it('5xx → transient', async () => {
    fake.override('POST /api/v1/statuses', { status: 503, body: '<html>maintenance</html>' });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'transient', error: 'mastodon post failed (HTTP 503)' });
  });

  it('no answer → timeout by the deadline', async () => {
    fake.override('POST /api/v1/statuses', { hang: true });
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

import { createBlueskyAdapter } from '../../shared/networks/bluesky';
import { findSpans } from '../../shared/networks/bluesky/facets';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';
import { expireOnHang, testContext } from './context';
import { ManualClock } from '../support/clock';
import { atprotoViolations } from '../contracts/atproto';
import { watchContract } from '../contracts/watch';

const fake = new BlueskyFake();
// every XRPC body the adapter sends is checked against the atproto lexicons
const contract = watchContract(fake.server, atprotoViolations);
let adapter: NetworkAdapter;
const creds = { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' };
const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'hello', media: [], thread: [], send_key: 'k1', ...over });
const png = (size: number) => Buffer.alloc(size, 7);

beforeAll(() => fake.start());
afterAll(() => fake.stop());
afterEach(() => expect(contract.take()).toEqual([]));
// one adapter per test, as one per Lambda instance: each starts without cached sessions
beforeEach(() => { fake.reset(); adapter = createBlueskyAdapter({ apiBase: `${fake.url}/` }); });

describe('verify', () => {
  it('signs in with handle + app password and keeps the did', async () => {
    const { ctx } = testContext({ handle: ' @Alice.test ', app_password: 'abcd-efgh-ijkl-mnop ' });
    const out = await adapter.verify(ctx);
    expect(out).toEqual({ ok: true, handle: '@alice.test', credentials: { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop', did: 'did:plc:alice' } });
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/xrpc/com.atproto.server.createSession');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ identifier: 'alice.test', password: 'abcd-efgh-ijkl-mnop' });
  });

  it('a wrong app password → reauth naming the handle, never the password', async () => {
    const { ctx } = testContext({ handle: 'alice.test', app_password: 'wrong-secret-pass' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    if (out.ok) throw new Error('expected failure');
    expect(out.error).toContain('alice.test');
    expect(out.error).toContain('Invalid identifier or password');
    expect(out.error).not.toContain('wrong-secret-pass');
  });

  it('an account with email 2FA (AuthFactorTokenRequired) → rejected asking for an App Password', async () => {
    fake.override('com.atproto.server.createSession', {
      status: 401, body: { error: 'AuthFactorTokenRequired', message: 'A sign in code has been sent to your email address' },
    });
    const out = await adapter.verify(testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    if (out.ok) throw new Error('expected failure');
    expect(out.error).toMatch(/App Password/);
  });

  it('missing fields are rejected without a call', async () => {
    const out = await adapter.verify(testContext({ handle: 'alice.test' }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('check', () => {
  it('300 graphemes fit; 301 → text_too_long with the limit and the length; nothing is sent', () => {
    expect(adapter.check(content({ text: '👍🏽'.repeat(300) }), creds)).toBeUndefined();
    const out = adapter.check(content({ text: '👍🏽'.repeat(301) }), creds);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long' });
    expect(out && !out.ok && out.error).toMatch(/300 .*301/);
    expect(fake.requests).toHaveLength(0);
  });

  it('checks every thread entry and the first comment', () => {
    expect(adapter.check(content({ thread: ['ok', 'x'.repeat(301)] }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringContaining('thread post 2') });
    expect(adapter.check(content({ first_comment: 'y'.repeat(305) }), creds)).toMatchObject({ code: 'text_too_long', error: expect.stringContaining('first comment') });
  });

  it('more than 4 images, two videos, or images with a video → bad_media', () => {
    const img = { url: 'https://x/a.png', kind: 'image' as const };
    const vid = { url: 'https://x/v.mp4', kind: 'video' as const };
    expect(adapter.check(content({ media: [img, img, img, img] }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [vid] }), creds)).toBeUndefined();
    expect(adapter.check(content({ media: [img, img, img, img, img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [vid, vid] }), creds)).toMatchObject({ kind: 'rejected', code: 'bad_media', error: 'bluesky takes one video per post; got 2' });
    expect(adapter.check(content({ media: [img, vid] }), creds))
      .toMatchObject({ kind: 'rejected', code: 'bad_media', error: 'bluesky takes either images or one video per post, not both' });
  });
});

describe('publish', () => {
  it('posts text with link, mention and tag facets in UTF-8 byte offsets', async () => {
    const text = 'héllo 👋 @bob.test and @ghost.test see https://example.com/a?b=1. #launch!';
    const before = Date.now();
    const out = await adapter.publish(content({ text }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: 'at://did:plc:alice/app.bsky.feed.post/rkey1', url: 'https://bsky.app/profile/alice.test/post/rkey1' });

    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /xrpc/com.atproto.server.createSession',
      'GET /xrpc/com.atproto.identity.resolveHandle',
      'GET /xrpc/com.atproto.identity.resolveHandle',
      'POST /xrpc/com.atproto.repo.createRecord',
    ]);
    expect(fake.calls('com.atproto.identity.resolveHandle').map((r) => r.url.searchParams.get('handle'))).toEqual(['bob.test', 'ghost.test']);
    const [create] = fake.calls('com.atproto.repo.createRecord');
    expect(create.headers.authorization).toBe('Bearer access-jwt-1');
    const body = create.json as { repo: string; collection: string; record: { createdAt: string; facets: Array<{ index: { byteStart: number; byteEnd: number } }> } };
    expect(body).toEqual({
      repo: 'did:plc:alice',
      collection: 'app.bsky.feed.post',
      record: {
        $type: 'app.bsky.feed.post',
        text,
        createdAt: expect.any(String),
        facets: [
          { index: { byteStart: 12, byteEnd: 21 }, features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:bob' }] },
          { index: { byteStart: 42, byteEnd: 67 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/a?b=1' }] },
          { index: { byteStart: 69, byteEnd: 76 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'launch' }] },
        ],
      },
    });
    expect(Date.parse(body.record.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    // the byte offsets really cut out the marked words
    const bytes = Buffer.from(text, 'utf8');
    expect(body.record.facets.map((f) => bytes.subarray(f.index.byteStart, f.index.byteEnd).toString('utf8'))).toEqual(['@bob.test', 'https://example.com/a?b=1', '#launch']);
  });

  it('uploads image bytes as blobs and embeds them verbatim', async () => {
    fake.media.set('a.png', { type: 'image/png', bytes: png(1000) });
    fake.media.set('b.jpg', { type: 'image/jpeg', bytes: png(1_000_000) });
    const out = await adapter.publish(content({
      text: 'pics', media: [{ url: fake.mediaUrl('a.png'), kind: 'image' }, { url: fake.mediaUrl('b.jpg'), kind: 'image' }],
    }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: true, id: 'at://did:plc:alice/app.bsky.feed.post/rkey1' });
    const uploads = fake.calls('com.atproto.repo.uploadBlob');
    expect(uploads.map((u) => [u.method, u.headers['content-type'], u.headers.authorization, u.body.length])).toEqual([
      ['POST', 'image/png', 'Bearer access-jwt-1', 1000],
      ['POST', 'image/jpeg', 'Bearer access-jwt-1', 1_000_000],
    ]);
    expect(uploads[0].body.equals(png(1000))).toBe(true);
    const record = (fake.calls('com.atproto.repo.createRecord')[0].json as { record: { embed: unknown; facets?: unknown } }).record;
    expect(record.facets).toBeUndefined();
    expect(record.embed).toEqual({
      $type: 'app.bsky.embed.images',
      images: [
        { image: { $type: 'blob', ref: { $link: BlueskyFake.blobCid(1) }, mimeType: 'image/png', size: 1000 }, alt: '' },
        { image: { $type: 'blob', ref: { $link: BlueskyFake.blobCid(2) }, mimeType: 'image/jpeg', size: 1_000_000 }, alt: '' },
      ],
    });
  });

  it('an image over 1,000,000 bytes → bad_media before signing in', async () => {
    fake.media.set('big.png', { type: 'image/png', bytes: png(1_000_001) });
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('big.png'), kind: 'image' }] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media', error: expect.stringContaining('1000001') });
    expect(fake.requests.map((r) => r.path)).toEqual(['/media/big.png']);
  });

  it('an unreachable image → media_unreachable', async () => {
    const out = await adapter.publish(content({ media: [{ url: fake.mediaUrl('gone.png'), kind: 'image' }] }), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable' });
    expect(fake.calls('com.atproto.repo.createRecord')).toHaveLength(0);
  });

  it('chains thread entries as replies and the first comment under the first post', async () => {
    const out = await adapter.publish(content({ text: 'one', thread: ['two', 'three'], first_comment: 'comment' }), testContext(creds).ctx);
    expect(out).toEqual({
      ok: true, status: 'published', id: 'at://did:plc:alice/app.bsky.feed.post/rkey1', url: 'https://bsky.app/profile/alice.test/post/rkey1',
      thread_ids: ['at://did:plc:alice/app.bsky.feed.post/rkey2', 'at://did:plc:alice/app.bsky.feed.post/rkey3'],
      comment_id: 'at://did:plc:alice/app.bsky.feed.post/rkey4',
    });
    const records = fake.calls('com.atproto.repo.createRecord').map((r) => (r.json as { record: { text: string; reply?: unknown } }).record);
    const ref = (n: number) => ({ uri: `at://did:plc:alice/app.bsky.feed.post/rkey${n}`, cid: BlueskyFake.recordCid(n) });
    expect(records.map((r) => [r.text, r.reply])).toEqual([
      ['one', undefined],
      ['two', { root: ref(1), parent: ref(1) }],
      ['three', { root: ref(1), parent: ref(2) }],
      ['comment', { root: ref(1), parent: ref(1) }],
    ]);
    expect(fake.calls('com.atproto.server.createSession')).toHaveLength(1);
  });

  it('a failing thread entry keeps the published first post', async () => {
    let n = 0;
    fake.override('com.atproto.repo.createRecord', () => (++n === 1
      ? { status: 200, body: { uri: 'at://did:plc:alice/app.bsky.feed.post/first', cid: BlueskyFake.recordCid(1) } }
      : { status: 500, body: { error: 'InternalServerError', message: 'boom' } }));
    const out = await adapter.publish(content({ thread: ['two', 'three'] }), testContext(creds).ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: 'at://did:plc:alice/app.bsky.feed.post/first', url: 'https://bsky.app/profile/alice.test/post/first' });
    expect(fake.calls('com.atproto.repo.createRecord')).toHaveLength(2);
  });

  it('400 InvalidRequest → rejected with the network message', async () => {
    fake.override('com.atproto.repo.createRecord', { status: 400, body: { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes' } });
    const out = await adapter.publish(content(), testContext(creds).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(out.ok === false && out.error).toMatch(/InvalidRequest.*must not be longer than 300 graphemes/);
  });

  it('429 RateLimitExceeded → rate_limited until ratelimit-reset', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 6, 0, 0), { sleeps: 'instant' });
    const reset = clock.now() / 1000 + 120;
    fake.override('com.atproto.repo.createRecord', {
      status: 429,
      headers: { 'ratelimit-limit': '5000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset), 'ratelimit-policy': '5000;w=3600' },
      body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
    });
    const out = await adapter.publish(content(), testContext(creds, { clock }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rate_limited' });
    if (out.ok || out.kind !== 'rate_limited') throw new Error('expected rate_limited');
    expect(out.retry_after).toBe(120);
  });

  it('ExpiredToken → reauth', async () => {
    fake.override('com.atproto.repo.createRecord', { status: 400, body: { error: 'ExpiredToken', message: 'Token has expired' } });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'reauth', error: expect.stringContaining('ExpiredToken') });
  });

  it('a revoked app password at sign-in → reauth, nothing posted', async () => {
    const out = await adapter.publish(content(), testContext({ ...creds, app_password: 'revoked-pass' }).ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(fake.calls('com.atproto.repo.createRecord')).toHaveLength(0);
  });

  it('5xx → transient', async () => {
    fake.override('com.atproto.repo.createRecord', { status: 502, body: 'Bad Gateway' });
    expect(await adapter.publish(content(), testContext(creds).ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('no answer → timeout by the deadline', async () => {
    fake.override('com.atproto.repo.createRecord', { hang: true });
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

describe('facet spans', () => {
  it('ignores e-mail addresses, URL fragments and numeric tags; trims trailing punctuation', () => {
    expect(findSpans('mail me@example.com, see https://a.b/#x (https://en.wikipedia.org/wiki/Foo_(bar)). #2024 #ok.')
      .map((s) => [s.kind, s.value])).toEqual([
      ['link', 'https://a.b/#x'],
      ['link', 'https://en.wikipedia.org/wiki/Foo_(bar)'],
      ['tag', 'ok'],
    ]);
  });
});

describe('sessions', () => {
  const logins = () => fake.calls('com.atproto.server.createSession').length;

  it('reuses one session across posts instead of logging in every time', async () => {
    for (const text of ['one', 'two', 'three']) {
      const { ctx } = testContext(creds);
      expect(await adapter.publish(content({ text }), ctx)).toMatchObject({ ok: true });
    }
    expect(logins()).toBe(1);
    expect(fake.calls('com.atproto.repo.createRecord')).toHaveLength(3);
  });

  it('a cached token the PDS refuses is replaced by one new login; nothing is posted twice', async () => {
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content({ text: 'first' }), ctx)).toMatchObject({ ok: true });
    let refused = 0;
    fake.override('com.atproto.repo.createRecord', () => {
      if (refused++ === 0) return { status: 400, body: { error: 'ExpiredToken', message: 'Token has expired' } };
      return { status: 200, body: { uri: 'at://did:plc:alice/app.bsky.feed.post/rkey9', cid: BlueskyFake.recordCid(9) } };
    });
    const again = testContext(creds).ctx;
    expect(await adapter.publish(content({ text: 'second' }), again)).toMatchObject({ ok: true, id: 'at://did:plc:alice/app.bsky.feed.post/rkey9' });
    expect(logins()).toBe(2);
    expect(fake.calls('com.atproto.repo.createRecord')).toHaveLength(3);
  });

  it('verify always logs in, so it proves the credentials', async () => {
    await adapter.publish(content(), testContext(creds).ctx);
    await adapter.verify(testContext(creds).ctx);
    expect(logins()).toBe(2);
  });
});

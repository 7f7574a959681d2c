import { createDevtoAdapter, DEVTO_MAX_BODY_BYTES, DEVTO_MAX_TITLE_CHARS, hashtags } from '../../shared/networks/devto';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { DEVTO_KEY, FakeDevto } from '../../shared/networks/devto/simulator';
import { expireOnHang, testContext } from './context';

const fake = new FakeDevto();
let adapter: NetworkAdapter;
const creds = { api_key: DEVTO_KEY };

const content = (over: Partial<PublishContent> = {}): PublishContent =>
  ({ text: 'Hello world', media: [], thread: [], send_key: 'k1', ...over });

beforeAll(async () => {
  await fake.start();
  adapter = createDevtoAdapter({ apiBase: `${fake.url}/` });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.server.requests.length = 0;
  fake.replies = {};
  fake.nextId = 1001;
});

describe('devto verify', () => {
  it('GET /api/users/me with api-key and the Forem v1 Accept header; normalises default_status', async () => {
    const { ctx } = testContext({ api_key: ` ${DEVTO_KEY} `, default_status: 'publish' });
    expect(await adapter.verify(ctx)).toEqual({ ok: true, handle: '@ada', credentials: { api_key: DEVTO_KEY, default_status: 'published' } });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0];
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/api/users/me');
    expect(req.headers['api-key']).toBe(DEVTO_KEY);
    expect(req.headers.accept).toBe('application/vnd.forem.api-v1+json');
  });

  it('a bad api_key → reauth without echoing it', async () => {
    const { ctx } = testContext({ api_key: 'nope-secret' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(JSON.stringify(out)).not.toContain('nope-secret');
  });

  it('an unknown default_status → rejected, nothing sent', async () => {
    const { ctx } = testContext({ api_key: DEVTO_KEY, default_status: 'later' });
    expect(await adapter.verify(ctx)).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('devto publish', () => {
  it('POST /api/articles with title, markdown body, published true and hashtags as tags', async () => {
    const { ctx } = testContext(creds);
    const text = 'Intro to #TypeScript and #node_js.\n\nSee issue #42 and #typescript again. #a #b #c';
    const out = await adapter.publish(content({ title: 'My Post', text }), ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '1001', url: 'https://dev.to/ada/my-post' });
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/articles');
    expect(req.headers['api-key']).toBe(DEVTO_KEY);
    expect(req.headers.accept).toBe('application/vnd.forem.api-v1+json');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({ article: { title: 'My Post', body_markdown: text, published: true, tags: ['typescript', 'nodejs', 'a', 'b'] } });
  });

  it('no title → first line; draft status → published false and the draft URL', async () => {
    const { ctx } = testContext({ ...creds, default_status: 'draft' });
    const out = await adapter.publish(content({ text: '## Weekly notes\nbody here' }), ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '1001', url: 'https://dev.to/ada/weekly-notes-temp-slug-99' });
    expect(fake.requests[0].json).toEqual({ article: { title: 'Weekly notes', body_markdown: '## Weekly notes\nbody here', published: false } });
  });

  it('an image becomes main_image (URL, nothing downloaded)', async () => {
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content({ title: 'Pic', media: [{ url: 'https://cdn.example.com/cover.png', kind: 'image' }] }), ctx);
    expect(out).toMatchObject({ ok: true, id: '1001' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].json).toMatchObject({ article: { main_image: 'https://cdn.example.com/cover.png' } });
  });

  it('422 → rejected with dev.to error text', async () => {
    fake.replies.articles = { status: 422, body: { error: 'Tag "a-b" contains non-alphanumeric characters', status: 422 } };
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(out.ok === false && out.error).toContain('non-alphanumeric');
  });

  it('429 with Retry-After → rate_limited with that wait', async () => {
    fake.replies.articles = { status: 429, headers: { 'retry-after': '30' }, body: { error: 'Rate limit reached', status: 429 } };
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 30 });
  });

  it('429 without header → wait from the body, else 300 s', async () => {
    fake.replies.articles = { status: 429, body: { error: 'Rate limit reached, try again in 120 seconds', status: 429 } };
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content(), ctx)).toMatchObject({ kind: 'rate_limited', retry_after: 120 });
    fake.replies.articles = { status: 429, body: { error: 'Too many requests', status: 429 } };
    const { ctx: ctx2 } = testContext(creds);
    expect(await adapter.publish(content(), ctx2)).toMatchObject({ kind: 'rate_limited', retry_after: 300 });
  });

  it('a revoked key → reauth', async () => {
    const { ctx } = testContext({ api_key: 'revoked-key' });
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'reauth' });
    expect(fake.requests[0].headers['api-key']).toBe('revoked-key');
  });

  it('5xx → transient', async () => {
    fake.replies.articles = { status: 503, body: 'Service Unavailable' };
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('a hanging API → timeout within the deadline', async () => {
    fake.replies.articles = { hang: true };
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(fake.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

describe('devto check', () => {
  it('a body over 800 KiB → text_too_long with limit and size; publish sends nothing', async () => {
    const text = 'é'.repeat(DEVTO_MAX_BODY_BYTES / 2 + 1);
    const out = adapter.check(content({ title: 'T', text }), creds);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long' });
    expect(out?.ok === false && out.error).toContain(`${DEVTO_MAX_BODY_BYTES} bytes`);
    expect(out?.ok === false && out.error).toContain(`${DEVTO_MAX_BODY_BYTES + 2} bytes`);
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content({ title: 'T', text }), ctx)).toMatchObject({ code: 'text_too_long' });
    expect(fake.requests).toHaveLength(0);
  });

  it('a title over 128 characters → text_too_long; media limits → bad_media', () => {
    expect(adapter.check(content({ title: 't'.repeat(DEVTO_MAX_TITLE_CHARS + 1) }), creds)).toMatchObject({ code: 'text_too_long' });
    expect(adapter.check(content({ title: 't'.repeat(DEVTO_MAX_TITLE_CHARS) }), creds)).toBeUndefined();
    const img = { url: 'https://x/a.png', kind: 'image' as const };
    expect(adapter.check(content({ media: [img, img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [{ url: 'https://x/a.mp4', kind: 'video' }] }), creds)).toMatchObject({ code: 'bad_media' });
  });

  it('hashtags skips entities, numbers and duplicates', () => {
    expect(hashtags('it&#39;s #Go, #go, #100 and url.com/#frag #Rust_Lang')).toEqual(['go', 'rustlang']);
  });
});

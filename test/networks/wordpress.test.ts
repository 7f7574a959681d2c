import { createWordpressAdapter, htmlParagraphs, WORDPRESS_MAX_BODY_BYTES } from '../../shared/networks/wordpress';
import type { PublishContent } from '../../shared/ports/networks';
import { FakeWordpress, WP_APP_PASSWORD, WP_USER } from '../../shared/networks/wordpress/simulator';
import { PNG_BYTES } from '../../shared/networks/sandbox-kit/sample-media';
import { expireOnHang, testContext } from './context';

const wp = new FakeWordpress();
const adapter = createWordpressAdapter();
let creds: Record<string, string>;

const content = (over: Partial<PublishContent> = {}): PublishContent =>
  ({ text: 'Hello world', media: [], thread: [], send_key: 'k1', ...over });

beforeAll(async () => {
  await wp.start();
});
afterAll(() => wp.stop());
beforeEach(() => {
  wp.server.requests.length = 0;
  wp.replies = {};
  wp.nextPostId = 101;
  creds = { site_url: `${wp.url}/`, username: WP_USER, app_password: WP_APP_PASSWORD };
});

describe('wordpress verify', () => {
  it('checks users/me with Basic auth and normalises site_url', async () => {
    const { ctx } = testContext({ ...creds, site_url: `  ${wp.url}/wp-json/ `, default_status: 'Draft' });
    const out = await adapter.verify(ctx);
    expect(out).toEqual({
      ok: true,
      handle: `editor@${new URL(wp.url).host}`,
      credentials: { site_url: wp.url, username: WP_USER, app_password: WP_APP_PASSWORD, default_status: 'draft' },
    });
    expect(wp.requests).toHaveLength(1);
    const req = wp.requests[0];
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/wp-json/wp/v2/users/me');
    expect(req.url.searchParams.get('context')).toBe('edit');
    expect(req.headers.authorization).toBe(FakeWordpress.basic());
  });

  it('a wrong application password → reauth without echoing the secret', async () => {
    const { ctx } = testContext({ ...creds, app_password: 'wrong-secret' });
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(out.ok === false && out.error).toContain('incorrect_password');
    expect(JSON.stringify(out)).not.toContain('wrong-secret');
  });

  it('an unknown default_status is rejected before any request', async () => {
    const { ctx } = testContext({ ...creds, default_status: 'future' });
    expect(await adapter.verify(ctx)).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(wp.requests).toHaveLength(0);
  });

  it('a site answering HTML instead of the REST API → rejected', async () => {
    wp.replies.me = { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>blocked</html>' };
    const { ctx } = testContext(creds);
    const out = await adapter.verify(ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected' });
    expect(out.ok === false && out.error).toMatch(/REST API/);
  });
});

describe('wordpress publish', () => {
  it('posts title + escaped paragraphs with status publish and returns id and link', async () => {
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content({ title: "Launch <day> isn't", text: 'First line & more "quoted"\nsecond\n\nNext <b>para</b>' }), ctx);
    expect(out).toEqual({ ok: true, status: 'published', id: '101', url: `${wp.url}/?p=101` });
    expect(wp.apiRequests).toHaveLength(1);
    const req = wp.apiRequests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/wp-json/wp/v2/posts');
    expect(req.headers.authorization).toBe(FakeWordpress.basic());
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.json).toEqual({
      title: "Launch &lt;day&gt; isn't",
      content: '<p>First line &amp; more "quoted"<br>\nsecond</p>\n<p>Next &lt;b&gt;para&lt;/b&gt;</p>',
      status: 'publish',
    });
  });

  it('without a title uses the first line (≤ 100 chars) and honours default_status draft', async () => {
    const { ctx } = testContext({ ...creds, default_status: 'draft' });
    const long = `# ${'x'.repeat(150)}`;
    const out = await adapter.publish(content({ text: `${long}\nbody` }), ctx);
    expect(out).toMatchObject({ ok: true, status: 'published', id: '101' });
    expect(wp.apiRequests[0].json).toMatchObject({ title: 'x'.repeat(100), status: 'draft' });
  });

  it('uploads the image as media and sets featured_media', async () => {
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content({ title: 'Pic', media: [{ url: `${wp.url}/files/cover.png`, kind: 'image' }] }), ctx);
    expect(out).toMatchObject({ ok: true, id: '101' });
    const [media, post] = wp.apiRequests;
    expect(media.method).toBe('POST');
    expect(media.path).toBe('/wp-json/wp/v2/media');
    expect(media.headers.authorization).toBe(FakeWordpress.basic());
    expect(media.headers['content-type']).toBe('image/png');
    expect(media.headers['content-disposition']).toBe('attachment; filename="cover.png"');
    expect(Buffer.compare(media.body, PNG_BYTES)).toBe(0);
    expect(post.path).toBe('/wp-json/wp/v2/posts');
    expect(post.json).toMatchObject({ title: 'Pic', featured_media: 7 });
  });

  it('an unreachable image → media_unreachable, no post created', async () => {
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content({ media: [{ url: `${wp.url}/files/missing.png`, kind: 'image' }] }), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'media_unreachable' });
    expect(wp.apiRequests).toHaveLength(0);
  });

  it('an upload refused by the host (413) → bad_media', async () => {
    wp.replies.media = { status: 413, body: 'Request Entity Too Large' };
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content({ media: [{ url: `${wp.url}/files/cover.png`, kind: 'image' }] }), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'bad_media' });
    expect(wp.apiRequests.map((r) => r.path)).toEqual(['/wp-json/wp/v2/media']);
  });

  it('400 rest_invalid_param → rejected with WordPress message', async () => {
    wp.replies.posts = { status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): status', data: { status: 400 } } };
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'rejected' });
    expect(out.ok === false && out.error).toContain('rest_invalid_param: Invalid parameter(s): status');
  });

  it('429 with Retry-After → rate_limited', async () => {
    wp.replies.posts = { status: 429, headers: { 'retry-after': '120' }, body: { code: 'too_many_requests', message: 'Slow down' } };
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'rate_limited', retry_after: 120 });
  });

  it('a revoked application password → reauth', async () => {
    const { ctx } = testContext({ ...creds, app_password: 'revoked' });
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(JSON.stringify(out)).not.toContain('revoked');
  });

  it('403 rest_cannot_publish (role too low) → reauth naming the role', async () => {
    wp.replies.posts = { status: 403, body: { code: 'rest_cannot_publish', message: 'Sorry, you are not allowed to publish posts as this user.', data: { status: 403 } } };
    const { ctx } = testContext(creds);
    const out = await adapter.publish(content(), ctx);
    expect(out).toMatchObject({ ok: false, kind: 'reauth' });
    expect(out.ok === false && out.error).toMatch(/Author role/);
  });

  it('5xx → transient', async () => {
    wp.replies.posts = { status: 502, body: 'Bad Gateway' };
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content(), ctx)).toMatchObject({ ok: false, kind: 'transient' });
  });

  it('a hanging site → timeout within the deadline', async () => {
    wp.replies.posts = { hang: true };
    const { ctx, expire } = testContext(creds);
    const out = await expireOnHang(wp.server, expire, () => adapter.publish(content(), ctx));
    expect(out).toMatchObject({ ok: false, kind: 'timeout' });
  });
});

describe('wordpress check', () => {
  it('a body over 8 MB → text_too_long with the limit and the size, nothing sent', async () => {
    const text = 'a'.repeat(WORDPRESS_MAX_BODY_BYTES + 10);
    const out = adapter.check(content({ title: 'Big', text }), creds);
    expect(out).toMatchObject({ ok: false, kind: 'rejected', code: 'text_too_long' });
    expect(out?.ok === false && out.error).toContain(String(WORDPRESS_MAX_BODY_BYTES));
    const { ctx } = testContext(creds);
    expect(await adapter.publish(content({ title: 'Big', text }), ctx)).toMatchObject({ code: 'text_too_long' });
    expect(wp.requests).toHaveLength(0);
  });

  it('more than one media item or a video → bad_media; a normal post fits', () => {
    const img = { url: 'https://example.com/a.png', kind: 'image' as const };
    expect(adapter.check(content({ media: [img, img] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [{ url: 'https://example.com/a.mp4', kind: 'video' }] }), creds)).toMatchObject({ code: 'bad_media' });
    expect(adapter.check(content({ media: [img] }), creds)).toBeUndefined();
  });

  it('htmlParagraphs escapes and splits', () => {
    expect(htmlParagraphs('a\r\n\r\n\r\n<b>')).toBe('<p>a</p>\n<p>&lt;b&gt;</p>');
  });
});

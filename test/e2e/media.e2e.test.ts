import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { TINY_PNG } from '../media/world';
import type { LocalRuntime } from '../../infra/local/runtime';

/** Media through the whole local runtime: API → presigned PUT to the embedded S3 → finalize → post → fake network. */
let rt: LocalRuntime;
let key: string;
const mastodon = new MastodonFake();

beforeAll(async () => {
  await mastodon.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', MASTODON_POLL_MS: '50' });
  key = await signupThroughApi(rt.url, 'media@example.com');
});
afterAll(async () => {
  await rt?.stop();
  await mastodon.stop();
});

async function putBytes(url: string, type: string, bytes: Buffer) {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': type }, body: new Uint8Array(bytes) });
  await res.arrayBuffer();
  return res.status;
}

describe('media uploads through the local runtime', () => {
  it('upload → finalize → post to Mastodon: the network receives the uploaded bytes', async () => {
    const api = client(rt.url, key);
    const up = await api('POST', '/api/media/upload-url', { content_type: 'image/png', size_bytes: TINY_PNG.length });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ upload_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/media\/media\/acc_/), path: expect.stringMatching(/^media\/acc_/), expires_in: 900 });
    const path = up.body.path as string;

    const early = await api('GET', `/api/media/finalize?path=${encodeURIComponent(path)}`);
    expect([early.status, early.body.code]).toEqual([404, 'not_found']);

    expect(await putBytes(up.body.upload_url as string, 'image/png', TINY_PNG)).toBe(200);
    const done = await api('GET', `/api/media/finalize?path=${encodeURIComponent(path)}`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ bytes: TINY_PNG.length, content_type: 'image/png' });
    const mediaUrl = done.body.media_url as string;
    expect(mediaUrl.startsWith(`${rt.url}/media/med_`)).toBe(true);

    // what a network that takes URLs sees: a redirect to a short-lived storage link, then the bytes
    const redirect = await fetch(mediaUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(/X-Amz-Expires=600/);
    const downloaded = await fetch(mediaUrl);
    expect(downloaded.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await downloaded.arrayBuffer())).toEqual(TINY_PNG);
    // fetchers that check a link with HEAD first get its type and size
    const head = await fetch(mediaUrl, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), head.headers.get('content-length')]).toEqual([200, 'image/png', String(TINY_PNG.length)]);
    expect((await fetch(mediaUrl.replace(/-[^-.]+\./, '-wrongsecret.'), { method: 'HEAD' })).status).toBe(404);

    const connected = await api('POST', '/api/connect', { platform: 'mastodon', credentials: { instance_url: mastodon.url, access_token: 'good-token' } });
    expect(connected.status).toBe(200);
    const posted = await api('POST', '/api/post', { platform: 'mastodon', text: 'uploaded with the API', photo_url: mediaUrl });
    expect(posted.status).toBe(200);
    expect(posted.body.results).toEqual([expect.objectContaining({ platform: 'mastodon', ok: true, status: 'published' })]);
    const [upload] = mastodon.find('POST', '/api/v2/media');
    const form = await new Response(new Uint8Array(upload.body), { headers: { 'content-type': String(upload.headers['content-type']) } }).formData();
    const file = form.get('file') as File;
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(TINY_PNG);
    expect(mastodon.find('POST', '/api/v1/statuses')[0].json).toMatchObject({ status: 'uploaded with the API', media_ids: ['101'] });
  });

  it('refuses unknown types and non-integer sizes (400) and more than 50 MB (413 too_large); other paths 404', async () => {
    const api = client(rt.url, key);
    expect((await api('POST', '/api/media/upload-url', { content_type: 'image/bmp', size_bytes: 10 })).status).toBe(400);
    expect((await api('POST', '/api/media/upload-url', { content_type: 'image/png', size_bytes: 1.5 })).status).toBe(400);
    expect((await api('POST', '/api/media/upload-url', { content_type: 'image/png' })).status).toBe(400);
    const big = await api('POST', '/api/media/upload-url', { content_type: 'video/mp4', size_bytes: 50 * 1024 * 1024 + 1 });
    expect([big.status, big.body.code]).toEqual([413, 'too_large']);
    expect((await api('GET', '/api/media/finalize?path=media%2Facc_x%2Fy.png')).status).toBe(404);
    expect((await client(rt.url)('GET', '/api/media/finalize?path=x')).status).toBe(401);
    expect((await fetch(`${rt.url}/media/med_nothing.png`, { redirect: 'manual' })).status).toBe(404);
  });

  it('upload link: page (with CSP) and status; 404 page for an unknown link; 401 without a key', async () => {
    const api = client(rt.url, key);
    expect((await client(rt.url)('POST', '/api/media/upload-link', {})).status).toBe(401);
    const link = await api('POST', '/api/media/upload-link', { note: 'Send the <b>logo</b>' });
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ url: `${rt.url}/upload/${link.body.token}`, expires_in: 3600 });
    const page = await fetch(link.body.url as string);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).toMatch(/connect-src 'self' http:\/\/127\.0\.0\.1:\d+/);
    const text = await page.text();
    expect(text).toContain('Send the &lt;b&gt;logo&lt;/b&gt;');
    expect(text).toContain('<label for="file">');
    expect((await api('GET', `/api/media/upload-link/${link.body.token}`)).body).toMatchObject({ status: 'open' });

    const unknown = await fetch(`${rt.url}/upload/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('cannot be used');
  });

  it('60 upload URLs an hour per account, then 429 with Retry-After', async () => {
    const other = await signupThroughApi(rt.url, 'media-limit@example.com');
    const api = client(rt.url, other);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await api('POST', '/api/media/upload-url', { content_type: 'image/png', size_bytes: 10 })).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    const limited = await api('POST', '/api/media/upload-url', { content_type: 'image/png', size_bytes: 10 });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
  });
});

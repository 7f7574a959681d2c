import { callOver, sampleEvent } from '../support/invoke';
import { signup, confirmSignup } from '../../shared/app/signup';
import { handler as postUploadUrl } from '../../functions/http/post-media-upload-url';
import { handler as getFinalize } from '../../functions/http/get-media-finalize';
import { handler as postUploadLink } from '../../functions/http/post-media-upload-link';
import { handler as getUploadPage } from '../../functions/http/get-media-upload-page';
import { handler as postLinkUrl } from '../../functions/http/post-media-upload-link-url';
import { handler as getMediaFile } from '../../functions/http/get-media-file';
import { mediaWorld, put, samples } from './world';

const call = callOver(() => w.deps);

/** The media handlers invoked as Lambda invokes them (API Gateway v2 events from events/http), over s3rver + dynalite. */
let w: Awaited<ReturnType<typeof mediaWorld>>;
let apiKey: string;

beforeAll(async () => {
  w = await mediaWorld();
  await signup(w.deps, { email: 'media-handlers@example.com', ip: '192.0.2.60' });
  apiKey = (await confirmSignup(w.deps, new URL(w.mailer.sent[0].links[0]).searchParams.get('token')!)).api_key;
});
afterAll(async () => { await w.stop(); });

const authed = (file: string, extra: Parameters<typeof sampleEvent>[1] = {}) =>
  sampleEvent(file, { ...extra, headers: { authorization: `Bearer ${apiKey}`, ...extra.headers } });

describe('media handlers', () => {
  it('upload-url → PUT → finalize → media file 302, from the sample events', async () => {
    const up = await call(postUploadUrl, authed('http/post-media-upload-url.json', {
      body: JSON.stringify({ content_type: 'image/png', size_bytes: samples.png.length }),
    }));
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ method: 'PUT', expires_in: 900, headers: { 'content-type': 'image/png' } });
    const path = up.body.path as string;

    const finalizeEvent = (p: string) => authed('http/get-media-finalize.json', { queryStringParameters: { path: p }, rawQueryString: `path=${encodeURIComponent(p)}` });
    expect((await call(getFinalize, finalizeEvent(path))).status).toBe(404);
    expect(await put(up.body.upload_url as string, 'image/png', samples.png)).toBe(200);
    const fin = await call(getFinalize, finalizeEvent(path));
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({ bytes: samples.png.length, media_url: expect.stringMatching(/^https:\/\/api\.test\/media\//) });

    const file = (fin.body.media_url as string).split('/').pop()!;
    const redirect = await call(getMediaFile, sampleEvent('http/get-media-file.json', { pathParameters: { file }, rawPath: `/media/${file}` }));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toContain(`${w.s3Endpoint}/media/${path}?`);
    expect(redirect.headers['cache-control']).toBe('no-store');
    const missing = await call(getMediaFile, sampleEvent('http/get-media-file.json'));
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });

  it('upload-url validates the body: unknown type, zero or text size 400; over 50 MB 413; no key 401', async () => {
    const body = (b: unknown) => authed('http/post-media-upload-url.json', { body: JSON.stringify(b) });
    expect((await call(postUploadUrl, body({ content_type: 'application/pdf', size_bytes: 10 }))).status).toBe(400);
    expect((await call(postUploadUrl, body({ content_type: 'image/png', size_bytes: 0 }))).status).toBe(400);
    expect((await call(postUploadUrl, body({ content_type: 'image/png', size_bytes: '10' }))).status).toBe(400);
    const big = await call(postUploadUrl, body({ content_type: 'video/webm', size_bytes: 60 * 1024 * 1024 }));
    expect([big.status, big.body.code]).toEqual([413, 'too_large']);
    expect((await call(postUploadUrl, sampleEvent('http/post-media-upload-url.json', { headers: { authorization: '' } }))).status).toBe(401);
  });

  it('upload-link → the page (HTML, CSP with a nonce and the storage origin) → a PUT URL for the token', async () => {
    const link = await call(postUploadLink, authed('http/post-media-upload-link.json'));
    expect(link.status).toBe(200);
    const token = link.body.token as string;
    const pageEvent = sampleEvent('http/get-media-file.json', {
      routeKey: 'GET /upload/{token}', rawPath: `/upload/${token}`, pathParameters: { token }, headers: { accept: 'text/html' },
    });
    const page = await call(getUploadPage, pageEvent);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers['content-security-policy']!)![1];
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ${w.s3Endpoint}`);
    expect(page.raw).toContain(`<script nonce="${nonce}">`);
    expect(page.raw).toContain('accept="image/png"');
    expect(page.raw).toContain('Your logo, please');
    expect(page.raw).not.toMatch(/<(script|link|img)[^>]+(src|href)=/); // self-contained: no external assets

    const url = await call(postLinkUrl, sampleEvent('http/post-media-upload-url.json', {
      routeKey: 'POST /api/media/upload-link/{token}/url', rawPath: `/api/media/upload-link/${token}/url`, pathParameters: { token },
      headers: { authorization: '' }, body: JSON.stringify({ content_type: 'image/png', size_bytes: 100 }),
    }));
    expect(url.status).toBe(200);
    expect(url.body.path).toMatch(/^media\/acc_/);

    const gone = await call(getUploadPage, { ...pageEvent, pathParameters: { token: 'x'.repeat(43) } });
    expect(gone.status).toBe(404);
    expect(gone.raw).toContain('This upload link cannot be used');
  });
});

import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TINY_PNG } from '../media/world';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * The hosted upload page carries a per-page token like the connect page: an HttpOnly SameSite=Strict
 * cookie scoped to the link's API path, and the same token in the X-Form-Token header of the page's two requests.
 * A browser request (Origin or Sec-Fetch-Site sent) without the token, with a wrong one or without the cookie is 403.
 */
let rt: LocalRuntime;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  rt = await startRuntime();
  api = client(rt.url, await signupThroughApi(rt.url, 'upload-token@example.com'));
});
afterAll(() => rt?.stop());

async function openUploadPage() {
  const link = (await api('POST', '/api/media/upload-link', {})).body as { url: string; token: string };
  const res = await fetch(link.url);
  expect(res.status).toBe(200);
  const html = await res.text();
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('svc_form='))!;
  const config = JSON.parse(/<script type="application\/json" id="upload-config">([^<]*)<\/script>/.exec(html)![1]!) as { formToken: string };
  return { link, cookie, pair: cookie.split(';')[0]!, token: config.formToken };
}

const send = (token: string, step: 'url' | 'complete', body: unknown, headers: Record<string, string>) =>
  fetch(`${rt.url}/api/media/upload-link/${token}/${step}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('the upload page carries a per-page token', () => {
  it('sets the token cookie for its link only and puts the same token in the page', async () => {
    const page = await openUploadPage();
    expect(page.cookie).toBe(`${page.pair}; Path=/api/media/upload-link/${page.link.token}/; Max-Age=3600; HttpOnly; SameSite=Strict`);
    expect(page.pair).toBe(`svc_form=${page.token}`);
    expect(page.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const other = await openUploadPage();
    expect(other.token).not.toBe(page.token);
  });

  it('a browser request without the token, with a wrong one or without the cookie is refused (403 form_token_invalid), nothing issued', async () => {
    const page = await openUploadPage();
    const other = await openUploadPage();
    const body = { content_type: 'image/png', size_bytes: TINY_PNG.length };
    const browser = { origin: 'null', 'sec-fetch-site': 'same-origin' };
    const refused = [
      await send(page.link.token, 'url', body, { ...browser, cookie: page.pair }),
      await send(page.link.token, 'url', body, { ...browser, cookie: page.pair, 'x-form-token': 'x'.repeat(32) }),
      await send(page.link.token, 'url', body, { ...browser, cookie: page.pair, 'x-form-token': other.token }),
      await send(page.link.token, 'url', body, { ...browser, 'x-form-token': page.token }),
      await send(page.link.token, 'url', body, { 'sec-fetch-site': 'same-origin', cookie: page.pair, 'x-form-token': '' }),
      await send(page.link.token, 'complete', { path: 'media/x.png' }, { ...browser, cookie: page.pair, 'x-form-token': 'wrong' }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'form_token_invalid', error: expect.stringMatching(/reload the page/) });
    }
    // nothing was issued: the link is still open
    expect((await api('GET', `/api/media/upload-link/${page.link.token}`)).body).toMatchObject({ status: 'open' });

    // the page's own request (token header + cookie) goes through
    const ok = await send(page.link.token, 'url', body, { ...browser, cookie: page.pair, 'x-form-token': page.token });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ upload_url: expect.any(String), path: expect.stringMatching(/^media\//) });
  });
});

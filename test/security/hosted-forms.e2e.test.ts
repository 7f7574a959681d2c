import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';

let rt: LocalRuntime;
let api: ReturnType<typeof client>;
const telegram = new TelegramFake();

beforeAll(async () => {
  await telegram.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  api = client(rt.url, await signupThroughApi(rt.url, 'forms@example.com'));
});
afterAll(async () => {
  await rt?.stop();
  await telegram.stop();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(rt.url + path, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });

async function openPage(linkUrl: string) {
  const res = await fetch(linkUrl);
  const html = await res.text();
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('svc_form='))!;
  return { html, cookie, pair: cookie.split(';')[0]!, token: /name="form_token" value="([^"]+)"/.exec(html)![1]! };
}

describe('hosted forms accept posts only from their own page', () => {
  it('the connect page sets a per-page token cookie and checks it, Origin and Sec-Fetch-Site on every form', async () => {
    const link = (await api('POST', '/api/connect-link', {})).body as { url: string; token: string };
    const page = await openPage(link.url);
    expect(page.cookie).toMatch(/^svc_form=[A-Za-z0-9_-]{32}; Path=\/connect\/; Max-Age=3600; HttpOnly; SameSite=Strict$/);
    const path = `/connect/${link.token}/credentials/telegram`;
    const creds = { bot_token: telegram.token, chat_id: '@acmenews' };

    const refused = [
      await post(path, form({ ...creds, form_token: page.token }), { cookie: page.pair, origin: 'https://evil.example' }),
      await post(path, form({ ...creds, form_token: page.token }), { cookie: page.pair, 'sec-fetch-site': 'cross-site' }),
      await post(path, form({ ...creds, form_token: page.token }), { cookie: page.pair, origin: 'null', 'sec-fetch-site': 'cross-site' }),
      await post(path, form(creds), { cookie: page.pair, 'sec-fetch-site': 'same-origin' }),
      await post(path, form({ ...creds, form_token: page.token }), { 'sec-fetch-site': 'same-origin' }),
      await post(path, form({ ...creds, form_token: 'x'.repeat(32) }), { cookie: page.pair, origin: 'null' }),
      await post(`/connect/${link.token}/oauth/linkedin`, form({ form_token: page.token }), { cookie: page.pair, origin: 'https://evil.example' }),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect(await refused[0]!.text()).toContain('only be sent from its own page');
    expect((await api('GET', '/api/connections')).body.connections).toEqual([]);

    // a browser posting the page's own form (no-referrer pages send Origin: null)
    const ok = await post(path, form({ ...creds, form_token: page.token }), { cookie: page.pair, origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(303);
    expect((await api('GET', '/api/connections')).body.connections).toEqual([expect.objectContaining({ platform: 'telegram', handle: '@acmenews' })]);

    // connecting again would replace it: the page says so before the form
    const again = await openPage(link.url);
    expect(again.html).toContain('Connecting again replaces the current Telegram connection (@acmenews) for this brand.');
  });

  it('the upload page endpoints and the OAuth picker refuse cross-site posts', async () => {
    const upload = (await api('POST', '/api/media/upload-link', {})).body as { token: string };
    const res = await fetch(`${rt.url}/api/media/upload-link/${upload.token}/url`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: JSON.stringify({ content_type: 'image/png', size_bytes: 10 }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'cross_site_form' });
    const pick = await post('/api/oauth/facebook/pick', form({ pick: 'x', account: 'y' }), { 'sec-fetch-site': 'cross-site' });
    expect(pick.status).toBe(403);
  });
});

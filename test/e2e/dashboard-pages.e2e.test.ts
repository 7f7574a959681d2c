import type { LocalRuntime } from '../../infra/local/runtime';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { signInThroughOutbox, type DashboardSession } from '../support/dashboard';
import { parseCsv } from '../support/csv';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { WebhookReceiver } from '../webhooks/receiver';

let rt: LocalRuntime;
const telegram = new TelegramFake();
let s: DashboardSession;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  await telegram.start();
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
  const key = await signupThroughApi(rt.url, 'pages@example.com', 'pro');
  api = client(rt.url, key);
  expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);
  s = await signInThroughOutbox(rt.url, 'pages@example.com');
});
afterAll(async () => { await rt?.stop(); await telegram.stop(); });

const html = async (path: string) => {
  const res = await s.get(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  return res.text();
};

describe('dashboard pages (local runtime)', () => {
  it('every page renders for a signed-in owner, with the navigation marking the current page', async () => {
    for (const [path, label] of [['/dashboard', 'Overview'], ['/dashboard/posts', 'Posts'], ['/dashboard/approvals', 'Approvals'], ['/dashboard/keys', 'API keys'],
      ['/dashboard/brands', 'Brands'], ['/dashboard/connections', 'Connections'], ['/dashboard/webhooks', 'Webhooks'], ['/dashboard/branding', 'Branding'], ['/dashboard/plan', 'Plan']]) {
      const page = await html(path);
      expect(page).toContain(`aria-current="page">${label}</a>`);
      expect(page).toContain(`<h1>${label}</h1>`);
    }
  });

  it('API keys: create shows the secret once and it works; guardrails from the page show in GET /api/me; revoke stops it', async () => {
    const created = await s.post('/dashboard/keys', { action: 'create', name: 'ci bot' });
    expect(created.status).toBe(200);
    const secret = /<code id="new-key">([^<]+)<\/code>/.exec(await created.text())![1];
    const bot = client(rt.url, secret);
    const me = await bot('GET', '/api/me');
    expect(me.status).toBe(200);
    const set = await s.post('/dashboard/keys', { action: 'guardrails', key_id: me.body.key_id as string, monthly_post_cap: '7', limit_platforms: 'on', allowed_platforms: ['telegram', 'discord'], always_require_approval: 'on' });
    expect(set.headers.get('location')).toBe('/dashboard/keys?done=guardrails');
    expect((await bot('GET', '/api/me')).body.guardrails).toMatchObject({ monthly_post_cap: 7, allowed_platforms: ['telegram', 'discord'], allowed_brands: null, always_require_approval: true });
    expect(await html('/dashboard/keys')).not.toContain(secret);
    const bad = await s.post('/dashboard/keys', { action: 'guardrails', key_id: me.body.key_id as string, monthly_post_cap: '-3' });
    expect(bad.headers.get('location')).toBe('/dashboard/keys?error=invalid_request');
    expect(await s.post('/dashboard/keys', { action: 'revoke', key_id: me.body.key_id as string })).toMatchObject({ status: 303 });
    expect((await bot('GET', '/api/me')).status).toBe(401);
  });

  it('Brands, Connections, Webhooks and Branding forms call the same use cases as the API', async () => {
    expect((await s.post('/dashboard/brands', { action: 'create', name: 'Client C' })).headers.get('location')).toBe('/dashboard/brands?done=created');
    const brands = (await api('GET', '/api/brands')).body.brands as Array<{ id: string; name: string }>;
    const c = brands.find((b) => b.name === 'Client C')!;
    expect((await s.post('/dashboard/brands', { action: 'update', brand_id: c.id, name: 'Client C2', timezone: 'Europe/Berlin', slots: '08:00, 12:30' })).headers.get('location')).toBe('/dashboard/brands?done=saved');
    expect((await api('GET', '/api/brands')).body.brands).toContainEqual(expect.objectContaining({ id: c.id, name: 'Client C2', timezone: 'Europe/Berlin', slots: ['08:00', '12:30'] }));
    expect((await s.post('/dashboard/brands', { action: 'update', brand_id: c.id, name: 'x', timezone: 'Mars/Base', slots: '08:00' })).headers.get('location')).toBe('/dashboard/brands?error=invalid_request');

    const link = await s.post('/dashboard/connections', { action: 'link', brand_id: c.id, platform: 'telegram' });
    expect(link.status).toBe(200);
    expect(await link.text()).toMatch(/<code id="connect-link">http:\/\/localhost:\d+\/connect\/[A-Za-z0-9_-]+<\/code>/);
    const defaultBrand = brands.find((b) => b.name === 'Default')!;
    const check = await s.post('/dashboard/connections', { action: 'check', brand_id: defaultBrand.id, platform: 'telegram' });
    expect(await check.text()).toContain('telegram (@acmenews): working');

    const hook = await s.post('/dashboard/webhooks', { action: 'create', url: 'http://127.0.0.1:9/hook', events: ['post.published'] });
    expect(hook.status).toBe(200);
    expect(await hook.text()).toMatch(/<code id="webhook-secret">whsec_/);
    expect((await api('GET', '/api/webhooks')).body.webhooks).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:9/hook', events: ['post.published'] })]);

    expect((await s.post('/dashboard/branding', { scope: 'account', display_name: 'Acme Agency', accent: '#7a1fa2', logo_url: '', support_email: 'help@acme.example' })).headers.get('location')).toBe('/dashboard/branding?done=saved');
    expect(await html('/dashboard/branding')).toContain('value="Acme Agency"');
  });

  it('Posts: a published post is listed, opens to its results and events, and Export CSV downloads the filtered rows', async () => {
    const res = await api('POST', '/api/post', { platform: 'telegram', text: '=cmd|"calc"!A1, with "quotes"' });
    expect(res.status).toBe(200);
    const list = await html('/dashboard/posts?platform=telegram&status=published');
    expect(list).toContain(`/dashboard/posts/${res.body.post_id}`);
    expect(await html(`/dashboard/posts?status=failed`)).toContain('No posts match these filters.');
    const detail = await html(`/dashboard/posts/${res.body.post_id}`);
    expect(detail).toContain('post.published');
    const exp = await s.get('/dashboard/posts/export?platform=telegram&status=');
    expect(exp.status).toBe(303);
    const file = await fetch(exp.headers.get('location')!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="posts-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(await file.text());
    expect(rows[0]).toEqual(['post_id', 'created_at', 'brand_id', 'brand', 'source', 'platform', 'status', 'ok', 'code', 'error', 'url', 'text', 'analytics']);
    expect(rows[1]).toEqual(expect.arrayContaining([res.body.post_id, 'telegram', 'published', 'true', '\'=cmd|"calc"!A1, with "quotes"']));
  });

  it('white label: Pro shows the owner\'s name with "powered by" on the connect and upload pages; a brand\'s own branding overrides; Agency shows only its mark', async () => {
    const brands = (await api('GET', '/api/brands')).body.brands as Array<{ id: string; name: string }>;
    const def = brands.find((b) => b.name === 'Default')!;
    const other = brands.find((b) => b.name !== 'Default')!;
    await s.post('/dashboard/branding', { scope: 'account', display_name: 'Acme Agency', logo_url: 'https://cdn.acme.example/logo.png' });
    await s.post('/dashboard/branding', { scope: other.id, display_name: 'Client Co' });
    const pageOf = async (brandId: string) => (await fetch((await api('POST', '/api/connect-link', { brand_id: brandId })).body.url as string)).text();
    const own = await pageOf(def.id);
    expect(own).toContain('<img src="https://cdn.acme.example/logo.png" alt="" height="32"><b>Acme Agency</b> <span class="hint">powered by Social Publishing</span>');
    expect(await pageOf(other.id)).toContain('<b>Client Co</b>');
    const upload = await api('POST', '/api/media/upload-link', {});
    expect(await (await fetch(upload.body.url as string)).text()).toContain('<p class="mark">Acme Agency</p><p class="powered">powered by Social Publishing</p>');
    expect((await client(rt.url)('POST', '/dev/plan', { email: 'pages@example.com', plan: 'agency' })).status).toBe(200);
    const agency = await pageOf(def.id);
    expect(agency).toContain('<b>Acme Agency</b>');
    expect(agency).not.toContain('powered by');
  });

  it('an uploaded logo set on Branding is stored as branding: the connect page shows it from /branding/, served from storage', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFElEQVR4nGP4z8DAAMIM/////w8AH+4F+7C4l8kAAAAASUVORK5CYII=', 'base64');
    const up = await api('POST', '/api/media/upload-url', { content_type: 'image/png', size_bytes: png.length });
    expect((await fetch(up.body.upload_url as string, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: png })).status).toBe(200);
    const fin = await api('GET', `/api/media/finalize?path=${encodeURIComponent(up.body.path as string)}`);
    const saved = await s.post('/dashboard/branding', { scope: 'account', display_name: 'Logo Co', logo_url: fin.body.media_url as string });
    expect(saved.headers.get('location')).toBe('/dashboard/branding?done=saved');
    const def = ((await api('GET', '/api/brands')).body.brands as Array<{ id: string; name: string }>).find((b) => b.name === 'Default')!;
    const link = await api('POST', '/api/connect-link', { brand_id: def.id });
    const page = await (await fetch(link.body.url as string)).text();
    const src = /<header class="mark"><img src="([^"]+)"/.exec(page)![1]!;
    expect(src).toMatch(/^http:\/\/[^/]+\/branding\/acc_[0-9A-Z]{26}-[0-9a-f]{32}\.png$/);
    const logo = await fetch(src);
    expect(logo.status).toBe(200);
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(png);
  });

  it('Webhooks: test event, delivery log, redeliver and rotate from the page; Connections: disconnect', async () => {
    const rx = new WebhookReceiver();
    await rx.start();
    try {
      const created = await s.post('/dashboard/webhooks', { action: 'create', url: rx.url('/dash'), events: ['webhook.test'] });
      const id = /<article class="card" id="(wh_[0-9A-Z]+)"><h2>[^<]*\/dash</.exec(await created.text())![1];
      const tested = await s.post('/dashboard/webhooks', { action: 'test', webhook_id: id });
      expect(tested.headers.get('location')).toBe(`/dashboard/webhooks?done=tested&log=${id}`);
      await rx.waitFor(1);
      let log = '';
      for (let i = 0; i < 50 && !log.includes('delivered'); i++) log = await html(`/dashboard/webhooks?log=${id}`);
      expect(log).toContain('<td>webhook.test</td><td>1</td><td>delivered</td>');
      const deliveryId = /name="delivery_id" value="([^"]+)"/.exec(log)![1];
      expect((await s.post('/dashboard/webhooks', { action: 'redeliver', webhook_id: id, delivery_id: deliveryId })).headers.get('location')).toBe(`/dashboard/webhooks?done=redelivered&log=${id}`);
      await rx.waitFor(2);
      expect(rx.received[1].headers['service-delivery']).toBe(rx.received[0].headers['service-delivery']);
      const rotated = await s.post('/dashboard/webhooks', { action: 'rotate', webhook_id: id });
      expect(await rotated.text()).toMatch(/<code id="webhook-secret">whsec_/);
    } finally {
      await rx.stop();
    }
    const con = ((await api('GET', '/api/connections')).body.connections as Array<{ id: string; platform: string }>).find((c) => c.platform === 'telegram')!;
    expect((await s.post('/dashboard/connections', { action: 'disconnect', connection_id: con.id })).headers.get('location')).toBe('/dashboard/connections?done=disconnected');
    expect((await api('GET', '/api/connections')).body.connections).toEqual([]);
  });

  it('Free: branding is 402 plan_feature (shown as an error on the page); a missing CSRF token changes nothing', async () => {
    await signupThroughApi(rt.url, 'free-pages@example.com');
    const f = await signInThroughOutbox(rt.url, 'free-pages@example.com');
    expect((await f.post('/dashboard/branding', { scope: 'account', display_name: 'Nope' })).headers.get('location')).toBe('/dashboard/branding?error=plan_feature');
    expect((await f.post('/dashboard/brands', { action: 'create', name: 'Sneaky' }, { csrf: false })).status).toBe(403);
    expect(await (await f.get('/dashboard/brands')).text()).not.toContain('Sneaky');
  });
});

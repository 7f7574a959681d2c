import { oauthWorld } from '../support/oauth';
import { callOver, sampleEvent } from '../support/invoke';
import { createConnectLink } from '../../shared/app/connect-page';
import { CONNECT_LINK_TTL_SECONDS } from '../../shared/app/connect-link/issue';
import { createBrand } from '../../shared/app/brands';
import { signInLost } from '../../shared/app/oauth/credentials';
import { createApiKey } from '../../shared/app/api-keys';
import { PLATFORMS } from '../../shared/domain/platforms';
import { handler as postConnectLink } from '../../functions/http/post-connect-link';
import { handler as getPage } from '../../functions/http/get-connect-page';
import { handler as postCredentials } from '../../functions/http/post-connect-page-credentials';
import { handler as postOauth } from '../../functions/http/post-connect-page-oauth';
import { handler as getCallback } from '../../functions/http/get-oauth-callback';
import { handler as postPick } from '../../functions/http/post-oauth-pick';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

const call = callOver(() => w.deps);

let w: Awaited<ReturnType<typeof oauthWorld>>;
beforeAll(async () => { w = await oauthWorld(); });
afterAll(async () => { await w.stop(); });
beforeEach(() => { w.fake.reset(); w.telegram.reset(); });

let ip = 0;
/** An API Gateway v2 event for a hosted-page route (a new client address each time, so per-IP limits stay out of the way). */
function ev(method: string, routeKey: string, path: string, params: Record<string, string>, o: { query?: Record<string, string>; form?: Record<string, string>; cookies?: string[] } = {}): APIGatewayProxyEventV2 {
  const base = sampleEvent('http/get-platforms.json');
  return {
    ...base, rawPath: path, routeKey: `${method} ${routeKey}`, pathParameters: params, queryStringParameters: o.query, cookies: o.cookies,
    body: o.form ? new URLSearchParams(o.form).toString() : undefined,
    headers: { ...base.headers, ...(o.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    requestContext: { ...base.requestContext, http: { ...base.requestContext.http, method, path, sourceIp: `203.0.113.${++ip % 250}` } },
  };
}
const page = (token: string, query?: Record<string, string>) => call(getPage, ev('GET', '/connect/{token}', `/connect/${token}`, { token }, { query }));
/** What the browser holds after opening the page: its form token (hidden field) and the matching cookie. */
async function pageForm(token: string): Promise<{ form_token: string; cookie: string }> {
  const res = await page(token);
  const form_token = /name="form_token" value="([^"]+)"/.exec(res.raw)?.[1] ?? '';
  return { form_token, cookie: res.cookies.find((c) => c.startsWith('svc_form='))?.split(';')[0] ?? '' };
}
const submit = async (token: string, platform: string, form: Record<string, string>) => {
  const f = await pageForm(token);
  return call(postCredentials, ev('POST', '/connect/{token}/credentials/{platform}', `/connect/${token}/credentials/${platform}`, { token, platform }, { form: { form_token: f.form_token, ...form }, cookies: [f.cookie] }));
};
/** The browser's cookies (name=value), as set by the sign-in button. */
let jar: string[] = [];
const startOauth = async (token: string, platform: string) => {
  const f = await pageForm(token);
  const res = await call(postOauth, ev('POST', '/connect/{token}/oauth/{platform}', `/connect/${token}/oauth/${platform}`, { token, platform }, { form: { form_token: f.form_token }, cookies: [f.cookie] }));
  for (const c of res.cookies) jar = [...jar.filter((j) => !j.startsWith(c.split('=')[0] + '=')), c.split(';')[0]];
  return res;
};
const callback = (platform: string, query: Record<string, string>) =>
  call(getCallback, ev('GET', '/api/oauth/{platform}/callback', `/api/oauth/${platform}/callback`, { platform }, { query, cookies: jar }));
/** The browser at the network: the authorize page redirects straight back to the callback. */
async function atNetwork(authorizeUrl: string) {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  return Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
}
const row = (html: string, platform: string) => /<li class="net" id="net-(\w+)" data-status="(\w+)">/.exec(html.slice(html.indexOf(`id="net-${platform}"`) - 20))?.[2];

describe('POST /api/connect-link', () => {
  it('answers {url, token, expires_in: 3600, brand_id} for one of the caller’s brands', async () => {
    const acc = await w.newAccount('pro');
    const brand = await createBrand(w.deps, acc, 'Client B');
    const { api_key } = await createApiKey(w.deps, acc.id, { name: 'links' });
    const res = await call(postConnectLink, sampleEvent('http/post-brands.json', {
      rawPath: '/api/connect-link', body: JSON.stringify({ brand_id: brand.id }), headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
    }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: `https://api.test/connect/${res.body.token}`, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_in: 3600, brand_id: brand.id,
      expires_at: expect.any(String),
    });
    await expect(createConnectLink(w.deps, acc, { brand_id: 'brd_00000000000000000000000000' })).rejects.toMatchObject({ status: 404, code: 'brand_not_found' });
    await expect(createConnectLink(w.deps, acc, {})).rejects.toMatchObject({ status: 400, code: 'brand_required' });
    await expect(createConnectLink(w.deps, acc, { brand_id: brand.id, platform: 'myspace' })).rejects.toMatchObject({ status: 400 });
    const other = await w.newAccount('pro');
    await expect(createConnectLink(w.deps, other, { brand_id: brand.id })).rejects.toMatchObject({ status: 404, code: 'brand_not_found' });
  });
});

describe('the hosted connect page', () => {
  it('lists every network with its state, labelled forms for credential networks and sign-in buttons for OAuth ones', async () => {
    const acc = await w.newAccount();
    const link = await createConnectLink(w.deps, acc, {});
    const res = await page(link.token);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    const html = res.raw;
    expect(html).toContain('<html lang="en">');
    expect(html).not.toContain('<script');
    for (const p of PLATFORMS) expect(html).toContain(`id="net-${p.name}"`);
    expect(row(html, 'telegram')).toBe('not_connected');
    expect(row(html, 'linkedin')).toBe('not_connected');
    expect(row(html, 'tiktok')).toBe('not_configured');
    expect(row(html, 'reddit')).toBe('unavailable');
    expect(html).toContain('<label for="telegram-bot_token">Bot token</label><input id="telegram-bot_token" name="bot_token" type="password"');
    expect(html).toContain(`action="https://api.test/connect/${link.token}/credentials/telegram"`);
    expect(html).toContain(`action="https://api.test/connect/${link.token}/oauth/linkedin"`);
    expect(html).toContain('Connect with LinkedIn');
    expect(html).not.toContain(`/oauth/tiktok"`);
    expect(html).toContain('0 of 19 networks connected');
  });

  it('connects a credential network through its form into the link’s brand (extra form fields cannot pick another brand)', async () => {
    const acc = await w.newAccount('pro');
    const brand = await createBrand(w.deps, acc, 'Client C');
    const link = await createConnectLink(w.deps, acc, { brand_id: brand.id });
    const defaultBrand = (await w.deps.brands.list(acc.id)).find((b) => b.name === 'Default')!;
    const res = await submit(link.token, 'telegram', { bot_token: w.telegram.token, chat_id: '@acmenews', brand_id: defaultBrand.id, account_id: 'acc_x' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`https://api.test/connect/${link.token}?connected=telegram`);
    const conns = await w.deps.connections.listByAccount(acc.id);
    expect(conns.map((c) => [c.platform, c.brand_id, c.handle])).toEqual([['telegram', brand.id, '@acmenews']]);

    const after = await page(link.token, { connected: 'telegram' });
    expect(row(after.raw, 'telegram')).toBe('connected');
    expect(after.raw).toContain('Connected as @acmenews');
    expect(after.raw).toContain('role="status">Telegram is connected as @acmenews.');
    expect(after.raw).toContain('1 of 19 networks connected');
  });

  it('refused credentials: the page again with the reason next to the form, nothing saved', async () => {
    const acc = await w.newAccount();
    const link = await createConnectLink(w.deps, acc, {});
    const res = await submit(link.token, 'telegram', { bot_token: '1:wrong', chat_id: '@acmenews' });
    expect(res.status).toBe(400);
    expect(res.raw).toMatch(/<div class="notice error" role="alert">Telegram was not connected: telegram refused the credentials/);
    expect(res.raw).toMatch(/<details open><summary>Enter credentials<\/summary><form method="post" action="[^"]+\/credentials\/telegram"/);
    expect(await w.deps.connections.listByAccount(acc.id)).toEqual([]);
  });

  it('connects an OAuth network: button → network sign-in → callback → back to the page, saved into the link’s brand', async () => {
    const acc = await w.newAccount('pro');
    const brand = await createBrand(w.deps, acc, 'Client D');
    const link = await createConnectLink(w.deps, acc, { brand_id: brand.id });
    const start = await startOauth(link.token, 'linkedin');
    expect(start.status).toBe(303);
    expect(start.headers.location).toMatch(new RegExp(`^${w.fake.url}/oauth/authorize\\?`));
    expect(start.headers['referrer-policy']).toBe('no-referrer');
    const back = await callback('linkedin', await atNetwork(start.headers.location));
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe(`https://api.test/connect/${link.token}?connected=linkedin`);
    expect((await w.deps.connections.listByAccount(acc.id)).map((c) => [c.platform, c.brand_id])).toEqual([['linkedin', brand.id]]);
    const after = await page(link.token, { connected: 'linkedin' });
    expect(row(after.raw, 'linkedin')).toBe('connected');
    expect(after.raw).toContain('Sign in to LinkedIn');
  });

  it('a reconnect through the reconnect link of connection.reauth_required keeps the connection id (no duplicate), active again', async () => {
    const acc = await w.newAccount('pro');
    const brand = await createBrand(w.deps, acc, 'Client R');
    const first = await createConnectLink(w.deps, acc, { brand_id: brand.id });
    await callback('linkedin', await atNetwork((await startOauth(first.token, 'linkedin')).headers.location));
    const before = (await w.deps.connections.get(acc.id, brand.id, 'linkedin'))!;
    // the sign-in is lost; the event's reconnect_url is the link the owner gets
    const recorded: string[] = [];
    const inner = w.deps.events;
    w.deps = w.rebuild({ events: { record: async (e) => { if (e.type === 'connection.reauth_required') recorded.push(String(e.data.reconnect_url)); await inner.record(e); }, listForPost: (id) => inner.listForPost(id) } });
    try {
      expect(await signInLost(w.deps, before, 'revoked at the network')).toMatchObject({ ok: false });
    } finally {
      w.deps = w.rebuild({ events: inner });
    }
    const token = new URL(recorded[0]!).pathname.split('/').pop()!;
    const back = await callback('linkedin', await atNetwork((await startOauth(token, 'linkedin')).headers.location));
    expect(back.status).toBe(303);
    const list = await w.deps.connections.listByAccount(acc.id);
    expect(list.map((c) => [c.id, c.status])).toEqual([[before.id, 'active']]);
    expect(list[0]!.tokens_enc).not.toBe(before.tokens_enc);
  });

  it('the picker runs inside the link flow and leads back to the page', async () => {
    const acc = await w.newAccount();
    const link = await createConnectLink(w.deps, acc, {});
    w.fake.accounts = [{ id: 'p1', handle: 'Page One' }, { id: 'p2', handle: 'Page Two' }];
    const start = await startOauth(link.token, 'facebook');
    const picker = await callback('facebook', await atNetwork(start.headers.location));
    expect(picker.status).toBe(200);
    const pick = /name="pick" value="([^"]+)"/.exec(picker.raw)![1];
    expect(picker.raw).toContain('<button type="submit" name="account" value="p2">Connect Page Two</button>');
    const done = await call(postPick, ev('POST', '/api/oauth/{platform}/pick', '/api/oauth/facebook/pick', { platform: 'facebook' }, { form: { pick, account: 'p2' } }));
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`https://api.test/connect/${link.token}?connected=facebook`);
    expect((await w.deps.connections.listByAccount(acc.id)).map((c) => c.handle)).toEqual(['Page Two']);
  });

  it('a link for one network shows only it, opens its form, and refuses every other network', async () => {
    const acc = await w.newAccount();
    const link = await createConnectLink(w.deps, acc, { platform: 'telegram' });
    const res = await page(link.token);
    expect(res.raw.match(/<li class="net"/g)).toHaveLength(1);
    expect(res.raw).toContain('<h1>Connect Telegram to Default</h1>');
    expect(res.raw).toContain('<details open>');
    const other = await submit(link.token, 'discord', { webhook_url: w.discord.webhookUrl });
    expect(other.status).toBe(403);
    expect(other.raw).toContain('for telegram only');
    expect((await startOauth(link.token, 'linkedin')).status).toBe(403);
    expect(await w.deps.connections.listByAccount(acc.id)).toEqual([]);
  });

  it('an unknown link is 404 and an expired one 410, for the page, the forms and the sign-in button', async () => {
    const acc = await w.newAccount();
    const link = await createConnectLink(w.deps, acc, {});
    const unknown = await page('A'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.raw).toContain('This link does not work');
    expect((await page('not-a-token')).status).toBe(404);

    // a sign-in started just before the end cannot outlive the link
    const start = await startOauth(link.token, 'linkedin');
    const query = await atNetwork(start.headers.location);
    w.clock.advance((CONNECT_LINK_TTL_SECONDS + 1) * 1000);
    const expired = await page(link.token);
    expect(expired.status).toBe(410);
    expect(expired.raw).toContain('<h1>This link has expired</h1>');
    expect((await submit(link.token, 'telegram', { bot_token: w.telegram.token, chat_id: '@acmenews' })).status).toBe(410);
    expect((await startOauth(link.token, 'linkedin')).status).toBe(410);
    const late = await callback('linkedin', query);
    expect(late.status).toBe(410);
    expect(late.raw).toContain('oauth_state_expired');
    expect(await w.deps.connections.listByAccount(acc.id)).toEqual([]);
  });
});

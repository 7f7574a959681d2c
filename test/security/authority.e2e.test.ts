import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { signInThroughOutbox, type DashboardSession } from '../support/dashboard';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { WebhookReceiver } from '../webhooks/receiver';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * Authority holds on every path (spec §5.6, §5.7): a guarded key cannot mint its way out of its guardrails, a key
 * or an MCP token never gets a client review link, a cross-site form never signs anyone in, and approvals never
 * drop a post. Black-box through the local runtime.
 */
let rt: LocalRuntime;
const discord = new DiscordFake();
const telegram = new TelegramFake();
const rx = new WebhookReceiver();

beforeAll(async () => {
  await Promise.all([discord.start(), telegram.start(), rx.start()]);
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url, DISABLE_RATE_LIMITS: '1' });
}, 60_000);
afterAll(async () => {
  await rt?.stop();
  await Promise.all([discord.stop(), telegram.stop(), rx.stop()]);
});

type Api = ReturnType<typeof client>;
const tg = () => ({ platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } });
const dc = () => ({ platform: 'discord', credentials: { webhook_url: discord.webhookUrl } });

async function owner(email: string, plan = 'starter') {
  const key = await signupThroughApi(rt.url, email, plan);
  const api = client(rt.url, key);
  const s = await signInThroughOutbox(rt.url, email);
  return { key, api, s };
}

const putGuardrails = (s: DashboardSession, keyId: string, body: unknown) =>
  fetch(`${rt.url}/api/guardrails/key/${keyId}`, { method: 'PUT', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function mint(api: Api, name: string) {
  const made = await api('POST', '/api/keys', { name });
  expect(made.status).toBe(200);
  return { id: made.body.id as string, api: client(rt.url, made.body.api_key as string) };
}

/** A JSON-RPC tools/call on the MCP endpoint; answers the tool's JSON text (or the error). */
async function mcpCall(token: string, name: string, args: unknown) {
  const res = await fetch(`${rt.url}/api/mcp`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith('data: '));
  const msg = JSON.parse(line ? line.slice(6) : text) as { result?: { isError?: boolean; content: Array<{ text: string }> } };
  return { isError: !!msg.result?.isError, text: msg.result?.content[0]?.text ?? JSON.stringify(msg) };
}

describe('hole 1: a guarded key never mints its way out of its guardrails', () => {
  const KINDS: Array<[string, (brandId: string) => Record<string, unknown>]> = [
    ['monthly cap', () => ({ monthly_post_cap: 5 })],
    ['allowed networks', () => ({ allowed_platforms: ['telegram'] })],
    ['allowed brands', (b) => ({ allowed_brands: [b] })],
    ['always require approval', () => ({ always_require_approval: true })],
  ];

  it.each(KINDS)('%s: the guarded key and a key it minted earlier both get 403 key_guardrails (two generations)', async (kind, body) => {
    const email = `mint-${kind.replace(/\s/g, '-')}@example.com`;
    const { api, s } = await owner(email);
    const brandId = ((await api('GET', '/api/brands')).body.brands as Array<{ id: string }>)[0].id;
    const parent = await mint(api, 'parent');
    const child = await mint(parent.api, 'child');
    expect((await putGuardrails(s, parent.id, body(brandId))).status).toBe(200);

    // direct: the guarded key itself
    const direct = await parent.api('POST', '/api/keys', { name: 'escape' });
    expect(direct).toMatchObject({ status: 403, body: { code: 'key_guardrails' } });
    // two generations: a key minted before the limit cannot mint an unguarded grandchild either
    const second = await child.api('POST', '/api/keys', { name: 'escape 2' });
    expect(second).toMatchObject({ status: 403, body: { code: 'key_guardrails' } });
    // and the key minted before the limit is bound by its parent's guardrails
    expect((await child.api('GET', '/api/me')).body.guardrails).toMatchObject(body(brandId));
    expect(((await api('GET', '/api/keys')).body.keys as unknown[]).length).toBe(3);
    // an unguarded key still mints
    expect((await api('POST', '/api/keys', { name: 'fine' })).status).toBe(200);
  });

  it('a key minted by a guarded ancestor publishes only where the ancestor may: a child of a telegram-only key cannot post to discord', async () => {
    const { api, s } = await owner('mint-publish@example.com');
    expect((await api('POST', '/api/connect', dc())).status).toBe(200);
    const parent = await mint(api, 'parent');
    const child = await mint(parent.api, 'child');
    expect((await putGuardrails(s, parent.id, { allowed_platforms: ['telegram'] })).status).toBe(200);
    const post = await child.api('POST', '/api/post', { platform: 'discord', text: 'escape by child' });
    expect(post.body.results).toEqual([expect.objectContaining({ platform: 'discord', ok: false, code: 'platform_not_allowed' })]);
    expect(discord.requests.filter((r) => JSON.stringify(r.json ?? {}).includes('escape by child'))).toEqual([]);
  });

  it('a key limited to brand A cannot create a connect link (REST or MCP), connect or start OAuth for brand B', async () => {
    const { api, s } = await owner('brand-link@example.com');
    const a = ((await api('GET', '/api/brands')).body.brands as Array<{ id: string }>)[0].id;
    const b = (await api('POST', '/api/brands', { name: 'Brand B' })).body.brand as { id: string };
    const limited = await mint(api, 'brand A only');
    const secret = (await api('POST', '/api/keys', { name: 'raw' })).body as { id: string; api_key: string };
    expect((await putGuardrails(s, limited.id, { allowed_brands: [a] })).status).toBe(200);
    expect((await putGuardrails(s, secret.id, { allowed_brands: [a] })).status).toBe(200);
    expect(await limited.api('POST', '/api/connect-link', { brand_id: b.id })).toMatchObject({ status: 403, body: { code: 'brand_not_allowed' } });
    expect((await limited.api('POST', '/api/connect-link', { brand_id: a })).status).toBe(200);
    expect(await limited.api('POST', '/api/connect', { ...dc(), brand_id: b.id })).toMatchObject({ status: 403, body: { code: 'brand_not_allowed' } });
    expect(await limited.api('POST', '/api/oauth/linkedin/url', { brand_id: b.id })).toMatchObject({ status: 403, body: { code: 'brand_not_allowed' } });
    // nor remove brand B's connections
    expect((await api('POST', '/api/connect', { ...dc(), brand_id: b.id })).status).toBe(200);
    const bConn = ((await api('GET', '/api/connections')).body.connections as Array<{ id: string; brand_id: string }>).find((c) => c.brand_id === b.id)!;
    expect(await limited.api('DELETE', `/api/connections/${bConn.id}`)).toMatchObject({ status: 403, body: { code: 'brand_not_allowed' } });
    const viaMcp = await mcpCall(secret.api_key, 'create_connect_link', { brand_id: b.id });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).toContain('brand_not_allowed');
  });
});

describe('hole 2: client review links only from a dashboard session', () => {
  it('a key (even the one whose post is held) gets 403 session_required; the owner\'s dashboard sends the link (Pro)', async () => {
    const { api, s, key } = await owner('client-link@example.com', 'pro');
    expect((await api('POST', '/api/connect', tg())).status).toBe(200);
    await s.post('/dashboard/approvals/rules', { scope: 'account', always: 'on' });
    const held = await api('POST', '/api/post', { platform: 'telegram', text: 'Hold for the client' });
    expect(held.status).toBe(202);
    const id = held.body.approval_id as string;
    const byKey = await api('POST', `/api/approvals/${id}/client-link`);
    expect(byKey).toMatchObject({ status: 403, body: { code: 'session_required' } });
    const byMcpToken = await fetch(`${rt.url}/api/approvals/${id}/client-link`, { method: 'POST', headers: { authorization: 'Bearer mcp_at_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG' } });
    expect(byMcpToken.status).toBe(403);
    expect(await byMcpToken.json()).toMatchObject({ code: 'session_required' });
    expect(key).toMatch(/^svc_live_/);

    const page = await (await s.get('/dashboard/approvals')).text();
    expect(page).toContain(`action="/dashboard/approvals/${id}/client-link"`);
    const sent = await s.post(`/dashboard/approvals/${id}/client-link`, { client_email: 'client@example.com' });
    expect(sent.status).toBe(200);
    const html = await sent.text();
    const link = /(http:\/\/[^"<\s]+\/review\/[A-Za-z0-9_-]{43})/.exec(html)?.[1];
    expect(link).toBeDefined();
    const outbox = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; links: string[] }>;
    expect(outbox.find((m) => m.to === 'client@example.com')?.links).toEqual([link]);
    const review = await (await fetch(link!)).text();
    expect(review).toContain('You were asked to approve this post');
    expect(await s.post(`/dashboard/approvals/${id}/client-link`, {}, { csrf: false })).toMatchObject({ status: 403 });
  });

  it('below Pro the dashboard offers no button and refuses the form (402 plan_feature)', async () => {
    const { api, s } = await owner('client-link-starter@example.com');
    expect((await api('POST', '/api/connect', tg())).status).toBe(200);
    await s.post('/dashboard/approvals/rules', { scope: 'account', always: 'on' });
    const id = (await api('POST', '/api/post', { platform: 'telegram', text: 'Starter hold' })).body.approval_id as string;
    expect(await (await s.get('/dashboard/approvals')).text()).not.toContain(`/dashboard/approvals/${id}/client-link`);
    expect((await s.post(`/dashboard/approvals/${id}/client-link`, {})).status).toBe(402);
  });
});

describe('hole 3: no login CSRF on the magic-link sign-in', () => {
  it('a cross-site form post is 403 cross_site_form and sets no cookie; the link stays usable', async () => {
    const email = 'login-csrf@example.com';
    await signupThroughApi(rt.url, email);
    await fetch(`${rt.url}/dashboard/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${encodeURIComponent(email)}` });
    const outbox = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
    const token = new URL(outbox.filter((m) => m.to === email && m.subject.includes('sign-in')).at(-1)!.links[0]).searchParams.get('token')!;
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Array<Record<string, string>>) {
      const res = await fetch(`${rt.url}/dashboard/sign-in/link`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: `token=${token}` });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await res.text()).toContain('cross_site_form');
    }
    const own = await fetch(`${rt.url}/dashboard/sign-in/link`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, body: `token=${token}` });
    expect(own.status).toBe(303);
    expect(own.headers.getSetCookie()).toHaveLength(1);
  });
});

describe('hole 5: no 500 for odd inputs', () => {
  it('a Bluesky reply_to or quote link with a bad escape is 400 on post, schedule, bulk, recurring and MCP', async () => {
    const { api, key } = await owner('bad-escape@example.com');
    const bad = 'https://bsky.app/profile/%ff/post/3kabc';
    const inFuture = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const post = { platform: 'bluesky', text: 'reply', per_platform: { bluesky: { reply_to: bad } } };
    const quote = { platform: 'bluesky', text: 'quote', per_platform: { bluesky: { quote: bad } } };
    for (const [path, body] of [
      ['/api/post', post], ['/api/post', quote], ['/api/schedule', { ...post, run_at: inFuture }],
      ['/api/bulk', { posts: [{ ...post, run_at: inFuture }] }], ['/api/recurring', { ...post, cron: '0 9 * * 1' }],
    ] as const) {
      const res = await api('POST', path, body);
      expect([path, res.status < 500]).toEqual([path, true]);
      // a bulk answers per row: the row is refused for its link, not for anything else
      if (path !== '/api/bulk') expect([path, res.status, JSON.stringify(res.body)]).toEqual([path, 400, expect.stringMatching(/reply_to|quote/)]);
      else expect(res.body).toMatchObject({ accepted: 0, rejected: 1, errors: [{ row: 1, error: expect.stringMatching(/reply_to|quote/) }] });
    }
    const viaMcp = await mcpCall(key, 'post_to_social', post);
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.text).not.toContain('internal_error');
  });

  it('/dashboard pages with done=__proto__ or error=__proto__ are ordinary pages', async () => {
    const { s } = await owner('proto-flash@example.com');
    for (const q of ['done=__proto__', 'error=__proto__', 'done=constructor', 'error=toString']) {
      for (const page of ['/dashboard/keys', '/dashboard/approvals', '/dashboard/webhooks', '/dashboard/brands', '/dashboard/branding', '/dashboard/connections']) {
        const res = await s.get(`${page}?${q}`);
        expect([page, q, res.status]).toEqual([page, q, 200]);
      }
    }
  });
});

describe('hole 6: no silently ignored input', () => {
  it('a per_platform key __proto__ is 400 unknown_field', async () => {
    const { api } = await owner('proto-key@example.com');
    const res = await api('POST', '/api/post', '{"platform":"telegram","text":"hi","per_platform":{"__proto__":{"text":"x"}}}');
    expect(res).toMatchObject({ status: 400, body: { code: 'unknown_field' } });
    expect(JSON.stringify(res.body)).toContain('__proto__');
  });

  it('dashboard forms refuse the names the API refuses (bidi overrides, control characters)', async () => {
    const { api, s } = await owner('names@example.com');
    const evil = 'Acme\u202Egnp.exe';
    expect((await api('POST', '/api/brands', { name: evil })).status).toBe(400);
    const brand = await s.post('/dashboard/brands', { action: 'create', name: evil });
    const key = await s.post('/dashboard/keys', { action: 'create', name: 'ctl\u0007key' });
    const brandList = (await api('GET', '/api/brands')).body.brands as Array<{ name: string }>;
    const keyList = (await api('GET', '/api/keys')).body.keys as Array<{ name: string }>;
    expect(brandList.map((b) => b.name)).not.toContain(evil);
    expect(keyList.map((k) => k.name)).not.toContain('ctl\u0007key');
    expect([brand.status, key.status].every((st) => st === 303 || st === 400)).toBe(true);
    const brandId = (brandList[0] as unknown as { id: string }).id;
    await s.post('/dashboard/brands', { action: 'update', brand_id: brandId, name: 'ok\u2066name', timezone: 'UTC', slots: '09:00' });
    expect(((await api('GET', '/api/brands')).body.brands as Array<{ name: string }>).map((b) => b.name)).not.toContain('ok\u2066name');
  });
});

describe('hole 7: smaller', () => {
  it('branding logo_url must be https', async () => {
    const { s } = await owner('logo@example.com', 'pro');
    const res = await s.post('/dashboard/branding', { scope: 'account', display_name: 'Acme', logo_url: 'http://cdn.example/logo.png' });
    const page = await (await s.get('/dashboard/branding')).text();
    expect(page).not.toContain('http://cdn.example/logo.png');
    expect(res.headers.get('location') ?? '').not.toContain('done=saved');
    const good = await s.post('/dashboard/branding', { scope: 'account', display_name: 'Acme', logo_url: 'https://cdn.example/logo.png' });
    expect(good.headers.get('location')).toContain('done=saved');
  });

  it('the connect page and the OAuth result page set form-action in their CSP', async () => {
    const { api } = await owner('csp@example.com');
    const link = (await api('POST', '/api/connect-link')).body.url as string;
    const page = await fetch(link);
    expect(page.headers.get('content-security-policy')).toMatch(/form-action [^;]+/);
    const result = await fetch(`${rt.url}/api/oauth/linkedin/callback?state=nope&code=x`);
    expect(result.headers.get('content-type')).toContain('text/html');
    expect(result.headers.get('content-security-policy')).toMatch(/form-action [^;]+/);
  });
});

describe('approvals never drop a post', () => {
  it('a capped key\'s held post that could never be published is refused at submission (403 key_monthly_cap_reached)', async () => {
    const { api, s } = await owner('cap-hold@example.com');
    expect((await api('POST', '/api/connect', tg())).status).toBe(200);
    expect((await api('POST', '/api/connect', dc())).status).toBe(200);
    const capped = await mint(api, 'capped');
    expect((await putGuardrails(s, capped.id, { monthly_post_cap: 1, always_require_approval: true })).status).toBe(200);
    const refused = await capped.api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'two networks, cap one' });
    expect(refused).toMatchObject({ status: 403, body: { code: 'key_monthly_cap_reached', cap: 1 } });
    expect((await api('GET', '/api/approvals?status=pending')).body.approvals).toEqual([]);
    const fits = await capped.api('POST', '/api/post', { platform: 'telegram', text: 'one network' });
    expect(fits.status).toBe(202);
    // a network that is not connected fails up front, as on a direct post
    const notConnected = await capped.api('POST', '/api/post', { platforms: ['telegram', 'mastodon'], text: 'with mastodon', idempotency_key: 'nc-1' });
    expect(notConnected.body.results).toEqual(expect.arrayContaining([expect.objectContaining({ platform: 'mastodon', ok: false, code: 'not_connected' })]));
  });

  it('an approval that cannot be published (cap reached meanwhile) gives failed results, post.failed, and says so to the approver; the card names the key', async () => {
    const { api, s } = await owner('approve-fail@example.com');
    const hook = await api('POST', '/api/webhooks', { url: rx.url('/approve-fail'), events: ['post.failed'] });
    expect(hook.status).toBe(201);
    expect((await api('POST', '/api/connect', tg())).status).toBe(200);
    const capped = await mint(api, 'Agency intern');
    expect((await putGuardrails(s, capped.id, { monthly_post_cap: 1, always_require_approval: true })).status).toBe(200);
    const first = await capped.api('POST', '/api/post', { platform: 'telegram', text: 'first held' });
    const second = await capped.api('POST', '/api/post', { platform: 'telegram', text: 'second held' });
    expect([first.status, second.status]).toEqual([202, 202]);
    const approvals = await (await s.get('/dashboard/approvals')).text();
    expect(approvals).toContain('Agency intern');
    expect(approvals).not.toMatch(/Requested by<\/dt><dd>svc_live_/);

    const ok = await s.post(`/dashboard/approvals/${first.body.approval_id as string}/decision`, { decision: 'approve' });
    expect(ok.headers.get('location')).toBe('/dashboard/approvals?done=approved');
    const bad = await s.post(`/dashboard/approvals/${second.body.approval_id as string}/decision`, { decision: 'approve' });
    const where = bad.headers.get('location')!;
    expect(where).not.toBe('/dashboard/approvals?done=approved');
    const said = await (await s.get(where)).text();
    expect(said).toMatch(/could not be published/i);
    expect(said).not.toContain('being published');

    const post = await api('GET', `/api/posts/${second.body.post_id as string}`);
    expect(post.status).toBe(200);
    expect(post.body.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: false, code: 'key_monthly_cap_reached' })]);
    await rx.waitFor(1);
    const failedEvents = rx.received.map((r) => JSON.parse(r.raw.toString('utf8')) as { type: string; data: { post_id: string } }).filter((e) => e.type === 'post.failed');
    expect(failedEvents.map((e) => e.data.post_id)).toContain(second.body.post_id);
  });

  it('the client review page names the key and says when an approved post could not be published', async () => {
    const { api, s } = await owner('review-fail@example.com', 'pro');
    expect((await api('POST', '/api/connect', tg())).status).toBe(200);
    const named = await mint(api, 'Social bot');
    expect((await putGuardrails(s, named.id, { always_require_approval: true })).status).toBe(200);
    const held = await named.api('POST', '/api/post', { platform: 'telegram', text: 'review me' });
    const id = held.body.approval_id as string;
    const sent = await s.post(`/dashboard/approvals/${id}/client-link`, {});
    const link = /(http:\/\/[^"<\s]+\/review\/[A-Za-z0-9_-]{43})/.exec(await sent.text())![1];
    expect(await (await fetch(link)).text()).toContain('Social bot');
    // the connection goes away before the client approves
    const conn = ((await api('GET', '/api/connections')).body.connections as Array<{ id: string; platform: string }>).find((c) => c.platform === 'telegram')!;
    expect((await api('DELETE', `/api/connections/${conn.id}`)).status).toBe(200);
    const decided = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=approve' });
    const text = await decided.text();
    expect(text).toMatch(/could not be published/i);
    expect(text).not.toContain('being published now');
  });
});

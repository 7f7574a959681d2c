import type { LocalRuntime } from '../../infra/local/runtime';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { signInThroughOutbox } from '../support/dashboard';

let rt: LocalRuntime;
beforeAll(async () => { rt = await startRuntime(); });
afterAll(() => rt.stop());

describe('dashboard sign-in and session (local runtime)', () => {
  it('GET /dashboard without a session goes to the sign-in page with a return path', async () => {
    const res = await fetch(`${rt.url}/dashboard/plan?plan=pro`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/dashboard/sign-in?return=${encodeURIComponent('/dashboard/plan?plan=pro')}`);
    const page = await fetch(rt.url + res.headers.get('location'));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<label for="email">Email address</label>');
    expect(html).toContain('name="return" value="/dashboard/plan?plan=pro"');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('signs in through the emailed link: the GET shows a button and does not use the link; the POST sets an HttpOnly Lax cookie', async () => {
    await signupThroughApi(rt.url, 'owner1@example.com');
    const form = new URLSearchParams({ email: 'owner1@example.com', return: '/dashboard/plan' }).toString();
    const asked = await fetch(`${rt.url}/dashboard/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('Check your email');
    const unknown = await fetch(`${rt.url}/dashboard/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=nobody%40example.com' });
    expect(unknown.status).toBe(200);
    const outbox = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
    expect(outbox.filter((m) => m.to === 'nobody@example.com')).toEqual([]);
    const link = outbox.find((m) => m.to === 'owner1@example.com' && m.subject.includes('sign-in'))!.links[0];
    const path = link.slice(link.indexOf('/dashboard'));
    for (let i = 0; i < 2; i++) {
      const opened = await fetch(rt.url + path);
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain('<button type="submit">Sign in</button>');
    }
    const token = new URL(link).searchParams.get('token')!;
    const pressed = await fetch(`${rt.url}/dashboard/sign-in/link`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${token}` });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe('/dashboard/plan');
    const setCookie = pressed.headers.getSetCookie()[0];
    expect(setCookie).toMatch(/^session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=604800; HttpOnly; SameSite=Lax$/);
    const again = await fetch(`${rt.url}/dashboard/sign-in/link`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${token}` });
    expect(again.status).toBe(410);
    expect((await fetch(rt.url + path)).status).toBe(410);
    expect((await fetch(`${rt.url}/dashboard/sign-in/link?token=tampered`)).status).toBe(404);
    const plan = await fetch(`${rt.url}/dashboard/plan`, { headers: { cookie: setCookie.split(';')[0] } });
    expect(plan.status).toBe(200);
    const html = await plan.text();
    expect(html).toContain('<section id="billing"');
    expect(html).toContain('owner1@example.com');
  });

  it('an API key on a session route is 403 session_required; without a session an action is 403 too', async () => {
    const key = await signupThroughApi(rt.url, 'owner2@example.com');
    const res = await fetch(`${rt.url}/dashboard`, { headers: { authorization: `Bearer ${key}` }, redirect: 'manual' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'session_required' });
    const out = await fetch(`${rt.url}/dashboard/sign-out`, { method: 'POST', redirect: 'manual' });
    expect(out.status).toBe(403);
  });

  it('sign-out needs the CSRF token (403 csrf_failed, session intact), then ends the session at once', async () => {
    await signupThroughApi(rt.url, 'owner3@example.com');
    const s = await signInThroughOutbox(rt.url, 'owner3@example.com');
    expect(s.csrf).toMatch(/^[0-9a-f]{64}$/);
    const missing = await s.post('/dashboard/sign-out', {}, { csrf: false });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ code: 'csrf_failed' });
    const wrong = await s.post('/dashboard/sign-out', {}, { csrf: 'f'.repeat(64) });
    expect(wrong.status).toBe(403);
    expect((await s.get('/dashboard')).status).toBe(200);
    const out = await s.post('/dashboard/sign-out');
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toMatch(/^session=; Path=\/; Max-Age=0/);
    expect((await s.get('/dashboard')).status).toBe(303);
  });

  it('the overview shows every usage limit as a bar; upgrade links lead to the Plan page', async () => {
    const key = await signupThroughApi(rt.url, 'owner4@example.com');
    const s = await signInThroughOutbox(rt.url, 'owner4@example.com');
    const html = await (await s.get('/dashboard')).text();
    for (const id of ['posts_per_month', 'ai_drafts_per_day', 'brands', 'scheduled_at_a_time', 'webhooks', 'x_credits']) expect(html).toContain(`id="usage-${id}"`);
    // Free includes 1 brand, which the Default brand uses: 100 %, a warning.
    expect(html).toMatch(/id="usage-brands" data-percent="100" data-warn="true"/);
    const refused = await client(rt.url, key)('POST', '/api/brands', { name: 'Second' });
    expect(refused.status).toBe(400);
    const upgrade = refused.body.upgrade_url as string;
    expect(upgrade).toBe(`${rt.url}/dashboard/plan?plan=starter`);
    const plan = await s.get(upgrade.slice(rt.url.length));
    expect(plan.status).toBe(200);
    expect(await plan.text()).toContain('The <b>starter</b> plan lifts the limit you reached.');
  });
});

import { client, startRuntime } from '../support/runtime';
import { networkLimits } from '../../shared/networks/descriptor-limits';
import type { LocalRuntime } from '../../infra/local/runtime';
import { PLATFORMS } from '../../shared/domain/platforms';

let rt: LocalRuntime;
beforeAll(async () => { rt = await startRuntime(); });
afterAll(() => rt?.stop());

describe('the local runtime, end to end', () => {
  it('signup → outbox → confirm → key → /api/me → new key → revoke → 401', async () => {
    const open = client(rt.url);
    const signup = await open('POST', '/api/signup', { email: 'e2e@example.com' });
    expect(signup.status).toBe(200);
    expect(signup.body).toEqual({ email: 'e2e@example.com', pending_verification: true, emailed: true });

    const outbox = JSON.parse((await open('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
    expect(outbox[0]).toMatchObject({ to: 'e2e@example.com', subject: expect.stringMatching(/confirm/i) });
    const link = outbox[0].links[0];
    expect(link.startsWith(`${rt.url}/api/signup/confirm?token=`)).toBe(true);

    // a mail scanner following the link spends nothing: the page only offers a button that POSTs
    const opened = await client('')('GET', link, undefined, { accept: 'text/html' });
    expect(opened.status).toBe(200);
    expect(opened.text).toMatch(/<form method="post" action="\/api\/signup\/confirm">/);
    expect(opened.text).not.toMatch(/svc_live_/);
    expect((await client('')('GET', link, undefined, { accept: 'application/json' })).body).toMatchObject({ code: 'confirm_with_post' });
    const token = new URL(link).searchParams.get('token')!;
    const confirmed = await open('POST', '/api/signup/confirm', { token });
    expect(confirmed.status).toBe(200);
    const key = confirmed.body.api_key as string;
    expect(key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
    expect((await open('POST', '/api/signup/confirm', { token })).status).toBe(410);

    const api = client(rt.url, key);
    const me = await api('GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ account: { email: 'e2e@example.com', verified: true }, plan: 'free', brands: [{ name: 'Default' }] });
    expect(me.headers.get('content-type')).toMatch(/application\/json/);

    const second = await api('POST', '/api/keys', { name: 'second', expires_in_days: 30 });
    expect(second.status).toBe(200);
    const secondKey = second.body.api_key as string;
    const listed = await api('GET', '/api/keys');
    expect((listed.body.keys as Array<{ name: string; prefix: string }>).map((k) => [k.name, k.prefix])).toEqual([['second', secondKey.slice(0, 12)], ['First key', key.slice(0, 12)]]);
    expect(listed.text).not.toContain(secondKey);

    const other = client(rt.url, secondKey);
    expect((await other('DELETE', `/api/keys/${second.body.id}`)).status).toBe(200);
    expect((await other('GET', '/api/me')).status).toBe(401);
    expect((await api('DELETE', `/api/keys/${second.body.id}`)).status).toBe(404);
    expect((await api('GET', '/api/me')).status).toBe(200);
  });

  it('serves the platform table, 404 and 405 as JSON, and limits signups per IP', async () => {
    const open = client(rt.url);
    const served = (await open('GET', '/api/platforms')).body.platforms as Array<Record<string, unknown>>;
    expect(served.map((p) => p.name)).toEqual(PLATFORMS.map((p) => p.name));
    for (const p of PLATFORMS.filter((x) => !x.oauth)) expect(served.find((x) => x.name === p.name)).toEqual({ ...JSON.parse(JSON.stringify(p)), read_back: networkLimits().readBack(p.name), ...networkLimits().manage(p.name) });
    expect(await open('GET', '/api/nothing')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await open('DELETE', '/api/platforms')).toMatchObject({ status: 405, body: { code: 'method_not_allowed' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await open('POST', '/api/signup', { email: `ip${i}@example.com` })).status);
    // the first test used one of this IP's 5 an hour
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const limited = await open('POST', '/api/signup', { email: 'ip9@example.com' });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.body).toMatchObject({ code: 'rate_limited', retry_after: expect.any(Number) });
  });

  it('keeps its data across a restart', async () => {
    const api = client(rt.url);
    await api('POST', '/dev/plan', { email: 'e2e@example.com', plan: 'pro' });
    const dataDir = rt.dataDir;
    await rt.stop();
    rt = await startRuntime({}, dataDir);
    const emails = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string }>;
    expect(emails.some((e) => e.to === 'e2e@example.com')).toBe(true);
    // the account and its plan survived
    expect((await client(rt.url)('POST', '/dev/plan', { email: 'e2e@example.com', plan: 'agency' })).status).toBe(200);
    expect((await client(rt.url)('POST', '/dev/plan', { email: 'nobody@example.com', plan: 'agency' })).status).toBe(404);
  });
});

import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { OffsetClock } from '../support/clock';
import { signInThroughOutbox } from '../support/dashboard';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { WebhookReceiver } from '../webhooks/receiver';
import { verifyWebhook } from '../../shared/webhooks/verify';
import type { LocalRuntime } from '../../infra/local/runtime';
import { handler as dispatchHandler } from '../../functions/scheduler/dispatch';
import { over } from '../support/invoke';
import { APPROVAL_TTL_SECONDS } from '../../shared/app/approvals/approvals';

let rt: LocalRuntime;
const telegram = new TelegramFake();
const discord = new DiscordFake();
const rx = new WebhookReceiver();

/** The handlers' clock: real time, moved by hand for a moment. */
const handlersClock = new OffsetClock();
/** The scheduler's target, made over the runtime's deps. */
const dispatcher = over(dispatchHandler, () => rt.deps);

beforeAll(async () => {
  await Promise.all([telegram.start(), discord.start(), rx.start()]);
  // several owners sign in from 127.0.0.1: the per-IP sign-in limit (5 an hour) is not what this file tests
  rt = await startRuntime({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url, DISABLE_RATE_LIMITS: '1' }, undefined, { deps: () => ({ clock: handlersClock }) });
});
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), discord.stop(), rx.stop()]);
});
beforeEach(() => { telegram.reset(); discord.reset(); });

const sends = () => telegram.methods.filter((m) => m.startsWith('send')).length;
const tg = { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } };

async function owner(email: string, plan = 'starter') {
  const key = await signupThroughApi(rt.url, email, plan);
  const api = client(rt.url, key);
  expect((await api('POST', '/api/connect', tg)).status).toBe(200);
  const s = await signInThroughOutbox(rt.url, email);
  return { key, api, s };
}

describe('approvals through the local runtime', () => {
  it('a held post → 202 → approved in the dashboard → the fake network receives it once and post.published is delivered', async () => {
    const { api, s } = await owner('approver1@example.com');
    const hook = await api('POST', '/api/webhooks', { url: rx.url('/a1'), events: ['post.published', 'approval.requested', 'approval.decided'] });
    expect(hook.status).toBe(201);
    const secret = hook.body.secret as string;
    const rule = await s.post('/dashboard/approvals/rules', { scope: 'account', always: 'on' });
    expect(rule.status).toBe(303);

    const held = await api('POST', '/api/post', { platform: 'telegram', text: 'Hold me' });
    expect(held.status).toBe(202);
    expect(held.body).toMatchObject({ status: 'pending_approval', approval_id: expect.stringMatching(/^apr_/), results: [{ platform: 'telegram', status: 'pending_approval' }] });
    expect(sends()).toBe(0);
    const id = held.body.approval_id as string;
    expect((await api('GET', `/api/approvals/${id}`)).body).toMatchObject({ status: 'pending', platforms: ['telegram'] });

    const page = await (await s.get('/dashboard/approvals')).text();
    expect(page).toContain(`id="${id}"`);
    expect(page).toContain('Hold me');
    const approved = await s.post(`/dashboard/approvals/${id}/decision`, { decision: 'approve', note: 'ship it' });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe('/dashboard/approvals?done=approved');

    await rx.waitFor(3);
    const bodies = rx.received.map((r) => verifyWebhook(r.raw, r.headers['service-signature'] as string, secret, { toleranceSeconds: 300 }));
    const types = (await Promise.all(bodies)).map((b) => b.type).sort();
    expect(types).toEqual(['approval.decided', 'approval.requested', 'post.published']);
    expect(sends()).toBe(1);
    const post = await api('GET', `/api/posts/${held.body.post_id}`);
    expect(post.body).toMatchObject({ results: [{ platform: 'telegram', ok: true, status: 'published' }] });
    expect((await api('GET', `/api/approvals/${id}`)).body).toMatchObject({ status: 'approved', decided_by: 'owner', note: 'ship it' });
  });

  it('reject → nothing sent; a key can never decide (no route), only read; a missing CSRF token changes nothing', async () => {
    const { api, s, key } = await owner('approver2@example.com');
    await s.post('/dashboard/approvals/rules', { scope: 'account', networks: 'telegram' });
    const held = await api('POST', '/api/post', { platform: 'telegram', text: 'Reject me' });
    expect(held.status).toBe(202);
    const id = held.body.approval_id as string;
    const noCsrf = await s.post(`/dashboard/approvals/${id}/decision`, { decision: 'approve' }, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect((await noCsrf.json()).code).toBe('csrf_failed');
    const withKey = await fetch(`${rt.url}/dashboard/approvals/${id}/decision`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=approve' });
    expect(withKey.status).toBe(403);
    expect((await api('GET', `/api/approvals/${id}`)).body).toMatchObject({ status: 'pending' });
    const rejected = await s.post(`/dashboard/approvals/${id}/decision`, { decision: 'reject', note: 'no' });
    expect(rejected.headers.get('location')).toBe('/dashboard/approvals?done=rejected');
    expect(sends()).toBe(0);
    expect((await api('GET', '/api/approvals?status=rejected')).body.approvals).toEqual([expect.objectContaining({ approval_id: id, note: 'no' })]);
  });

  it('the emailed review link: GET shows the post without deciding, POST decides once; used → 410 page, tampered → 404 page', async () => {
    const { api, s } = await owner('approver3@example.com');
    await s.post('/dashboard/approvals/rules', { scope: 'account', always: 'on' });
    const held = await api('POST', '/api/post', { platform: 'telegram', text: 'Email review' });
    const outbox = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
    const link = outbox.find((m) => m.to === 'approver3@example.com' && m.subject.includes('waiting for your approval'))!.links[0];
    const path = new URL(link).pathname;
    for (let i = 0; i < 2; i++) {
      const opened = await fetch(rt.url + path);
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain('Email review');
    }
    const decided = await fetch(rt.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=approve' });
    expect(decided.status).toBe(200);
    expect(await decided.text()).toContain('Approved');
    expect((await fetch(rt.url + path)).status).toBe(410);
    expect((await fetch(rt.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=reject' })).status).toBe(410);
    expect((await fetch(`${rt.url}/review/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await api('GET', `/api/approvals/${held.body.approval_id}`)).body).toMatchObject({ status: 'approved' });
  });
});

describe('approval expiry through the local runtime', () => {
  it('no decision in 7 days: with the runtime clock moved past the expiry, the dispatcher (the scheduler target) expires it; nothing is sent', async () => {
    const { api, s } = await owner('approver4@example.com');
    await s.post('/dashboard/approvals/rules', { scope: 'account', always: 'on' });
    const held = await api('POST', '/api/post', { platform: 'telegram', text: 'Nobody looks at me' });
    expect(held.status).toBe(202);
    const input = { kind: 'approval-expiry', approval_id: held.body.approval_id };
    await dispatcher(input);
    expect((await api('GET', `/api/approvals/${held.body.approval_id}`)).body).toMatchObject({ status: 'pending' });
    handlersClock.shift((APPROVAL_TTL_SECONDS + 60) * 1000);
    try {
      // the owner's emailed link has run out with the approval
      const outbox = JSON.parse((await client(rt.url)('GET', '/dev/outbox')).text) as Array<{ to: string; subject: string; links: string[] }>;
      const link = outbox.find((m) => m.to === 'approver4@example.com' && m.subject.includes('waiting for your approval'))!.links[0];
      expect((await fetch(rt.url + new URL(link).pathname)).status).toBe(410);
      await dispatcher(input);
    } finally {
      handlersClock.shift(0);
    }
    expect((await api('GET', `/api/approvals/${held.body.approval_id}`)).body).toMatchObject({ status: 'expired', decided_by: 'expiry' });
    expect(telegram.requests.filter((r) => JSON.stringify(r.json ?? {}).includes('Nobody looks at me'))).toEqual([]);
  });
});

describe('guardrails through the local runtime', () => {
  it('a key calling PUT guardrails → 403 session_required; the session sets them with the CSRF header; cap reached → 403; a network outside the list fails alone', async () => {
    const { api, s, key } = await owner('guard1@example.com');
    expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);
    const keyId = (await api('GET', '/api/me')).body.key_id as string;
    const body = JSON.stringify({ monthly_post_cap: 2, allowed_platforms: ['discord'] });
    const byKey = await fetch(`${rt.url}/api/guardrails/key/${keyId}`, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    expect(byKey.status).toBe(403);
    expect(await byKey.json()).toMatchObject({ code: 'session_required' });
    const noCsrf = await fetch(`${rt.url}/api/guardrails/key/${keyId}`, { method: 'PUT', headers: { cookie: s.cookie, 'content-type': 'application/json' }, body });
    expect(noCsrf.status).toBe(403);
    expect((await api('GET', '/api/me')).body.guardrails).toMatchObject({ monthly_post_cap: null, allowed_platforms: null });
    const set = await fetch(`${rt.url}/api/guardrails/key/${keyId}`, { method: 'PUT', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' }, body });
    expect(set.status).toBe(200);
    expect((await api('GET', '/api/me')).body.guardrails).toMatchObject({ kind: 'key', id: keyId, monthly_post_cap: 2, allowed_platforms: ['discord'] });
    const app = await fetch(`${rt.url}/api/guardrails/app/app_unknown`, { method: 'PUT', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' }, body: '{}' });
    expect(app.status).toBe(404);

    const mixed = await api('POST', '/api/post', { platforms: ['telegram', 'discord'], text: 'guarded 1' });
    expect(mixed.status).toBe(200);
    expect(mixed.body.results).toEqual([expect.objectContaining({ platform: 'telegram', ok: false, code: 'platform_not_allowed' }), expect.objectContaining({ platform: 'discord', ok: true })]);
    expect(telegram.requests.filter((r) => JSON.stringify(r.json ?? {}).includes('guarded'))).toEqual([]);
    expect((await api('POST', '/api/post', { platform: 'discord', text: 'guarded 2' })).status).toBe(200);
    const over = await api('POST', '/api/post', { platform: 'discord', text: 'guarded 3' });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ code: 'key_monthly_cap_reached', cap: 2 });
  });

  it('Free: setting guardrails answers 402 plan_feature naming starter', async () => {
    const { api, s } = await owner('guard2@example.com', 'free');
    const keyId = (await api('GET', '/api/me')).body.key_id as string;
    const res = await fetch(`${rt.url}/api/guardrails/key/${keyId}`, { method: 'PUT', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' }, body: '{"monthly_post_cap":1}' });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'plan_feature', plan: 'starter' });
  });
});

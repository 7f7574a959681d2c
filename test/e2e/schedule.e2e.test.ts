import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import type { LocalRuntime } from '../../infra/local/runtime';
import { OffsetClock } from '../support/clock';

const telegram = new TelegramFake();
const discord = new DiscordFake();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-e2e-schedule-'));
const env = () => ({ ALLOW_PRIVATE_TARGETS: '1', TELEGRAM_API_BASE: telegram.url });
let rt: LocalRuntime | undefined;

beforeAll(async () => { await Promise.all([telegram.start(), discord.start()]); });
afterAll(async () => {
  await rt?.stop();
  await Promise.all([telegram.stop(), discord.stop()]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sends = () => telegram.requests.filter((r) => r.path.endsWith('/sendMessage'));

describe('scheduling through the local runtime', () => {
  it('a post scheduled ahead survives a restart of the runtime and publishes once, with source schedule', async () => {
    // The runtime's clock is moved by the test and its timers fire only when the test runs them: no time window.
    const clock = new OffsetClock();
    rt = await startRuntime(env(), dataDir, { clock, manualTimers: true });
    const key = await signupThroughApi(rt.url, 'scheduler@example.com');
    let api = client(rt.url, key);
    expect((await api('POST', '/api/connect', { platform: 'telegram', credentials: { bot_token: telegram.token, chat_id: '@acmenews' } })).status).toBe(200);

    const runAt = new Date(clock.now() + 60_000).toISOString();
    const created = await api('POST', '/api/schedule', { platform: 'telegram', text: 'Scheduled hello', run_at: runAt });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ schedule_id: expect.stringMatching(/^sch_/), status: 'scheduled' });
    const id = created.body.schedule_id as string;
    expect((await api('GET', '/api/usage')).body).toMatchObject({ scheduled_at_a_time: { used: 1, limit: 10 } });

    await rt.runTimers(); // not due yet: nothing fires
    await rt.stop();
    rt = undefined;
    expect(sends()).toHaveLength(0);
    clock.advance(61_000); // due while the runtime is down

    rt = await startRuntime(env(), dataDir, { clock, manualTimers: true });
    api = client(rt.url, key);
    await rt.runTimers(); // the first tick after the restart fires it
    await rt.drained(); // and the worker has handled the message
    const done = (await api('GET', `/api/schedule/${id}`)).body;
    expect(done).toMatchObject({ schedule_id: id, post_id: expect.stringMatching(/^pst_/), results: [{ platform: 'telegram', ok: true, status: 'published' }] });
    const post = await api('GET', `/api/posts/${done.post_id as string}`);
    expect(post.body).toMatchObject({ source: 'schedule', schedule_id: id });
    expect((post.body.events as Array<{ type: string; data: Record<string, unknown> }>).map((e) => [e.type, e.data.source, e.data.schedule_id]))
      .toEqual([['post.published', 'schedule', id]]);
    await rt.runTimers(); // more ticks find nothing left to fire, and no message is left anywhere
    await rt.runTimers();
    await rt.drained();
    expect(sends().map((r) => (r.json as { text: string }).text)).toEqual(['Scheduled hello']);
    expect((await api('GET', '/api/usage')).body).toMatchObject({ scheduled_at_a_time: { used: 0 } });
    const cancel = await api('DELETE', `/api/schedule/${id}`);
    expect([cancel.status, cancel.body.code]).toEqual([409, 'schedule_not_pending']);
    await rt.stop();
    rt = undefined;
  });

  it('the HTTP surface: validation codes, bulk CSV, list filters, PATCH, DELETE and recurring', async () => {
    // the runtime's clock is set to 1 June 2026, so the 2030 dates below are ahead of it whatever the real date
    const clock = new OffsetClock();
    clock.ms = Date.UTC(2026, 5, 1, 12, 0, 0);
    rt = await startRuntime(env(), undefined, { clock });
    const key = await signupThroughApi(rt.url, 'bulk@example.com', 'pro');
    const api = client(rt.url, key);
    expect((await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } })).status).toBe(200);

    expect((await api('POST', '/api/schedule', { platform: 'discord', text: 'x', run_at: '2030-01-01T09:00:00' })).body).toMatchObject({ code: 'invalid_run_at' });
    expect((await api('POST', '/api/schedule', { platform: 'discord', text: 'x', run_at: '2001-01-01T09:00:00Z' })).status).toBe(400);
    expect((await api('POST', '/api/schedule', { platform: 'telegram', text: 'x', run_at: 'next_slot' })).body).toMatchObject({ code: 'not_connected', platforms: ['telegram'] });

    const csv = 'platforms,text,run_at\r\ndiscord,"a, with comma",2030-01-01T09:00:00Z\r\ndiscord,b,\r\nbogus,c,2030-01-01T09:00:00Z\r\n';
    const bulk = await api('POST', '/api/bulk', csv, { 'content-type': 'text/csv' });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toMatchObject({ total: 3, accepted: 2, rejected: 1, errors: [{ row: 3, code: 'invalid_request' }] });
    const jsonBulk = await api('POST', '/api/bulk', { posts: [{ platform: 'discord', text: 'j', run_at: '2030-02-01T09:00:00Z' }] });
    expect(jsonBulk.body).toMatchObject({ accepted: 1 });
    expect((await api('POST', '/api/bulk', 'x', { 'content-type': 'text/plain' })).status).toBe(415);

    const list = await api('GET', '/api/schedule?status=scheduled&limit=2');
    expect((list.body.schedules as unknown[]).length).toBe(2);
    expect(list.body.next_cursor).toEqual(expect.any(String));
    const next = await api('GET', `/api/schedule?status=scheduled&limit=2&cursor=${list.body.next_cursor as string}`);
    expect((next.body.schedules as unknown[]).length).toBe(1);
    expect(((await api('GET', '/api/schedule?deferred=true')).body.schedules as unknown[]).length).toBe(0);
    expect((await api('GET', '/api/schedule?status=nope')).status).toBe(400);

    const id = ((list.body.schedules as Array<{ schedule_id: string }>)[0]).schedule_id;
    const patched = await api('PATCH', `/api/schedule/${id}`, { run_at: '2030-03-01T10:00:00+01:00', text: 'changed' });
    expect(patched.body).toMatchObject({ run_at: '2030-03-01T09:00:00.000Z', text: 'changed', status: 'scheduled' });
    expect((await api('DELETE', `/api/schedule/${id}`)).body).toMatchObject({ status: 'canceled' });
    expect((await api('DELETE', `/api/schedule/${id}`)).status).toBe(409);
    expect((await api('GET', '/api/schedule/sch_01ZZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);

    const rec = await api('POST', '/api/recurring', { platform: 'discord', text: 'weekly', cron: '0 9 * * MON', timezone: 'Europe/Berlin' });
    expect(rec.status).toBe(200);
    expect(rec.body).toMatchObject({ status: 'active', next_run_at: expect.any(String) });
    expect((await api('GET', '/api/recurring')).body).toMatchObject({ recurring: [{ recurring_id: rec.body.recurring_id }] });
    expect((await api('POST', '/api/recurring', { platform: 'discord', text: 'x', cron: '0 9 1 * 1' })).body).toMatchObject({ code: 'invalid_cron' });
    expect((await api('DELETE', `/api/recurring/${rec.body.recurring_id as string}`)).body).toMatchObject({ status: 'canceled' });
    expect((await api('GET', '/api/usage')).body).toMatchObject({ scheduled_at_a_time: { used: 2, limit: 1000 } });
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { publishingWorld } from '../support/publishing';
import { callOver, sampleEvent, over } from '../support/invoke';
import { signup, confirmSignup } from '../../shared/app/signup';
import { authenticate } from '../../shared/app/auth';
import { occurrenceScheduleId } from '../../shared/app/schedule/common';
import { handler as postSchedule } from '../../functions/http/post-schedule';
import { handler as getSchedules } from '../../functions/http/get-schedules';
import { handler as getSchedule } from '../../functions/http/get-schedule';
import { handler as patchSchedule } from '../../functions/http/patch-schedule';
import { handler as deleteSchedule } from '../../functions/http/delete-schedule';
import { handler as postBulk } from '../../functions/http/post-bulk';
import { handler as postRecurring } from '../../functions/http/post-recurring';
import { handler as getRecurringList } from '../../functions/http/get-recurring-list';
import { handler as deleteRecurring } from '../../functions/http/delete-recurring';
import { handler as dispatchHandler } from '../../functions/scheduler/dispatch';

const call = callOver(() => w.deps);
const dispatcher = over(dispatchHandler, () => w.deps);

/** The scheduling handlers invoked as Lambda invokes them, from the sample events of events/. */
let w: Awaited<ReturnType<typeof publishingWorld>>;
let apiKey: string;

const sample = (file: string) => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'events', file), 'utf8')) as Record<string, unknown>;
const authed = (file: string, extra: Parameters<typeof sampleEvent>[1] = {}) =>
  sampleEvent(file, { ...extra, headers: { authorization: `Bearer ${apiKey}`, ...extra.headers } });

beforeAll(async () => {
  w = await publishingWorld();
  await signup(w.deps, { email: 'schedule-handlers@example.com', ip: '192.0.2.70' });
  apiKey = (await confirmSignup(w.deps, new URL(w.mailer.sent.at(-1)!.links[0]).searchParams.get('token')!)).api_key;
  const account = (await authenticate(w.deps, `Bearer ${apiKey}`)).account;
  await w.connectTelegram(w.deps, account);
  await w.connectDiscord(w.deps, account);
});
afterAll(async () => { await w.stop(); });

describe('scheduling handlers (API Gateway v2 events)', () => {
  it('POST /api/schedule → the dispatcher fires it → GET shows the result; PATCH and DELETE by id', async () => {
    const created = await call(postSchedule, authed('http/post-schedule.json'));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'scheduled', run_at: '2030-05-01T07:00:00.000Z', platforms: ['telegram'] });
    const id = created.body.schedule_id as string;
    const byId = { pathParameters: { id }, rawPath: `/api/schedule/${id}` };

    const other = await call(postSchedule, authed('http/post-schedule.json', { body: JSON.stringify({ platform: 'discord', text: 'other', run_at: '2030-05-03T09:00:00Z' }) }));
    const otherId = other.body.schedule_id as string;
    const patched = await call(patchSchedule, authed('http/patch-schedule.json', { pathParameters: { id: otherId }, rawPath: `/api/schedule/${otherId}` }));
    expect(patched.body).toMatchObject({ schedule_id: otherId, run_at: '2030-05-02T07:00:00.000Z' });
    const canceled = await call(deleteSchedule, authed('http/delete-schedule.json', { pathParameters: { id: otherId }, rawPath: `/api/schedule/${otherId}` }));
    expect(canceled.body).toMatchObject({ status: 'canceled' });

    w.clock.ms = Date.parse('2030-05-01T07:00:01Z');
    await dispatcher({ ...sample('scheduler/scheduled.json'), schedule_id: id });
    await w.queue.drain();
    const got = await call(getSchedule, authed('http/get-schedule.json', byId));
    expect(got.body).toMatchObject({ status: 'published', results: [{ platform: 'telegram', ok: true, status: 'published' }] });
    const listed = await call(getSchedules, authed('http/get-schedules.json', { queryStringParameters: { status: 'published' } }));
    expect((listed.body.schedules as Array<{ schedule_id: string }>).map((s) => s.schedule_id)).toEqual([id]);
    expect((await call(deleteSchedule, authed('http/delete-schedule.json', byId))).status).toBe(409);
    expect((await call(getSchedule, authed('http/get-schedule.json'))).status).toBe(404);
    expect((await call(getSchedules, authed('http/get-schedules.json', { queryStringParameters: { limit: '0' } }))).status).toBe(400);
  });

  it('POST /api/bulk with the CSV sample (base64 body) and with JSON', async () => {
    w.clock.ms = Date.parse('2030-05-05T12:00:00Z');
    const csv = await call(postBulk, authed('http/post-bulk-csv.json'));
    expect(csv.status).toBe(200);
    expect(csv.body).toMatchObject({ total: 2, accepted: 2, rejected: 0 });
    expect((csv.body.scheduled as Array<{ run_at: string }>).map((s) => s.run_at)).toEqual(['2030-05-06T09:00:00.000Z', '2030-05-05T13:00:00.000Z']);
    const json = await call(postBulk, authed('http/post-bulk.json'));
    expect(json.body).toMatchObject({ accepted: 2 });
    const tooMany = await call(postBulk, authed('http/post-bulk.json', { body: JSON.stringify({ posts: Array.from({ length: 501 }, () => ({})) }) }));
    expect([tooMany.status, tooMany.body.code]).toEqual([400, 'too_many_rows']);
    expect((await call(postBulk, sampleEvent('http/post-bulk.json'))).status).toBe(401);
  });

  it('POST /api/recurring → an occurrence through the dispatcher → GET and DELETE /api/recurring', async () => {
    w.clock.ms = Date.parse('2030-05-05T12:00:00Z');
    const created = await call(postRecurring, authed('http/post-recurring.json', { body: JSON.stringify({ platform: 'discord', text: 'Weekly digest', cron: '0 9 * * MON', timezone: 'Europe/Berlin' }) }));
    expect(created.body).toMatchObject({ status: 'active', next_run_at: '2030-05-06T07:00:00.000Z' });
    const recId = created.body.recurring_id as string;
    w.clock.ms = Date.parse('2030-05-06T07:00:01Z');
    await dispatcher({ ...sample('scheduler/recurring.json'), recurring_id: recId });
    await w.queue.drain();
    const occ = await call(getSchedule, authed('http/get-schedule.json', { pathParameters: { id: occurrenceScheduleId(recId, Date.parse('2030-05-06T07:00:00Z')) } }));
    expect(occ.body).toMatchObject({ recurring_id: recId, status: 'published' });
    const list = await call(getRecurringList, authed('http/get-recurring-list.json'));
    expect(list.body).toMatchObject({ recurring: [{ recurring_id: recId, last_run_at: '2030-05-06T07:00:00.000Z' }] });
    const del = await call(deleteRecurring, authed('http/delete-recurring.json', { pathParameters: { id: recId }, rawPath: `/api/recurring/${recId}` }));
    expect(del.body).toMatchObject({ status: 'canceled' });
  });

  it('the dispatcher refuses malformed scheduling input and ignores the sample ids it does not know: nothing is sent or changed', async () => {
    await w.queue.drain();
    const telegramBefore = w.telegramSends();
    const discordBefore = w.discord.requests.length;
    const listBefore = (await call(getSchedules, authed('http/get-schedules.json'))).body;
    const inputs: unknown[] = [
      { kind: 'scheduled', schedule_id: 'sch_nope' }, { kind: 'recurring', recurring_id: 'rec_01M8064SQJKQ31WMRSDYREHSPA' },
      sample('scheduler/scheduled.json'), sample('scheduler/recurring.json'),
      { kind: 'no_such_kind' }, { kind: 'scheduled' }, 'not an object', null,
    ];
    // a timer's input is never worth a retry: each is dropped without throwing (EventBridge Scheduler would retry a throw)
    for (const input of inputs) await expect(dispatcher(input)).resolves.toBeUndefined();
    await w.queue.drain();
    expect(w.telegramSends()).toBe(telegramBefore);
    expect(w.discord.requests).toHaveLength(discordBefore);
    expect((await call(getSchedules, authed('http/get-schedules.json'))).body).toEqual(listBefore);
  });
});

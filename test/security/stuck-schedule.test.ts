import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { publishingWorld } from '../support/publishing';
import { createSchedule } from '../../shared/app/schedule/create';
import { cancelSchedule, getSchedule } from '../../shared/app/schedule/manage';
import { fireScheduled, MAX_TAKEOVERS } from '../../shared/app/schedule/fire';
import { STALE_RUN_MS } from '../../shared/app/schedule/common';
import { sweepSchedules } from '../../shared/app/schedule/sweep';
import { ScheduleRequestSchema, type ScheduleRequest } from '../../shared/app/schedule/request';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { newId } from '../../shared/domain/ids';
import type { Deps } from '../../shared/app/deps';
import type { ServiceEvent } from '../../shared/ports/publishing';
import type { Account } from '../../shared/ports/store';
import { bulkSchedule } from '../../shared/app/schedule/create';
import { createRecurring } from '../../shared/app/schedule/recurring';
import { RecurringRequestSchema } from '../../shared/app/schedule/request';
import { mediaGateway } from '../../shared/net/media-gateway';
import { withOwnMedia } from '../../shared/app/media/own-media';

let w: Awaited<ReturnType<typeof publishingWorld>>;
let events: ServiceEvent[];
let deps: Deps;
beforeAll(async () => {
  w = await publishingWorld();
  const inner = w.deps.events;
  deps = { ...w.deps, events: { record: async (e) => { events.push(e); await inner.record(e); }, listForPost: (id) => inner.listForPost(id) } };
});
afterAll(() => w.stop());
beforeEach(() => { events = []; w.discord.reset(); w.telegram.reset(); });

let n = 0;
const inMinutes = (m: number) => new Date(w.clock.now() + m * 60_000).toISOString();
const schedule = (acc: Account, body: Partial<ScheduleRequest>) => createSchedule(deps, acc, ScheduleRequestSchema.parse(body));
const discordSends = (text: string) => w.discord.requests.filter((r) => r.method === 'POST' && r.text.includes(text)).length;
const failedEvents = (scheduleId: string) => events.filter((e) => e.type === 'post.failed' && e.data.schedule_id === scheduleId);

describe('a schedule can never be stuck', () => {
  it('a refusal at fire time ends the schedule failed with post.failed per network', async () => {
    const acc = await w.discordAccount();
    await w.connectTelegram(w.deps, acc);
    const s = await schedule(acc, { platforms: ['discord', 'telegram'], text: `brand gone ${++n}`, run_at: inMinutes(5) });
    // the brand it was scheduled for is gone by fire time
    await w.table.doc.send(new UpdateCommand({
      TableName: w.table.tableName, Key: keys.schedule(s.schedule_id),
      UpdateExpression: 'SET brand_id = :b', ExpressionAttributeValues: { ':b': newId('brd', w.clock.now()) },
    }));
    w.clock.ms = Date.parse(s.run_at) + 10;
    await fireScheduled(deps, s.schedule_id);
    expect(await getSchedule(deps, acc.id, s.schedule_id)).toMatchObject({ status: 'failed', code: 'brand_not_found' });
    const failed = failedEvents(s.schedule_id);
    expect(failed.map((e) => e.data.platform).sort()).toEqual(['discord', 'telegram']);
    expect(failed[0].data).toMatchObject({ status: 'failed', code: 'brand_not_found', post_id: null, source: 'schedule' });
    // fired again (a retry of the alarm): nothing more
    await fireScheduled(deps, s.schedule_id);
    expect(failedEvents(s.schedule_id)).toHaveLength(2);
  });

  it('a malformed own-media link due now ends failed (media_unreachable), not stranded in publishing', async () => {
    const acc = await w.discordAccount();
    const s = await schedule(acc, { platform: 'discord', text: `bad media ${++n}`, photo_url: `${w.deps.settings.publicBaseUrl}/media/%ff.png`, run_at: inMinutes(5) });
    w.clock.ms = Date.parse(s.run_at) + 10;
    await fireScheduled(deps, s.schedule_id);
    await w.queue.drain();
    const after = await getSchedule(deps, acc.id, s.schedule_id);
    expect(after.status).toBe('failed');
    expect(after.results).toEqual([expect.objectContaining({ platform: 'discord', code: 'media_unreachable' })]);
  });

  it('a run left publishing by a dead dispatcher is taken over by the sweep within 10 minutes, published once', async () => {
    const acc = await w.discordAccount();
    const text = `dead dispatcher ${++n}`;
    const s = await schedule(acc, { platform: 'discord', text, run_at: inMinutes(5) });
    w.clock.ms = Date.parse(s.run_at) + 10;
    // the dispatcher claimed it and died
    expect(await deps.schedules.claim(s.schedule_id, inMinutes(1), w.clock.now())).toBeDefined();
    expect((await cancelSchedule(deps, acc.id, s.schedule_id).catch((e: { code: string }) => e)).code).toBe('schedule_publishing');
    // a sweep before the run is stale leaves it to the dispatcher that may still be working
    w.clock.advance(STALE_RUN_MS - 60_000);
    await sweepSchedules(deps);
    expect(discordSends(text)).toBe(0);
    // the next sweep (5 minutes later, under 10 minutes after the claim) takes it over; two racing sweeps publish once
    w.clock.advance(5 * 60_000);
    await Promise.all([sweepSchedules(deps), sweepSchedules(deps)]);
    await w.queue.drain();
    expect(discordSends(text)).toBe(1);
    expect(await getSchedule(deps, acc.id, s.schedule_id)).toMatchObject({ status: 'published' });
    w.clock.advance(STALE_RUN_MS + 60_000);
    await sweepSchedules(deps);
    await w.queue.drain();
    expect(discordSends(text)).toBe(1);
  });

  it(`a run that keeps dying is failed after ${MAX_TAKEOVERS} takeovers, with post.failed per network`, async () => {
    const acc = await w.discordAccount();
    const text = `always dies ${++n}`;
    const s = await schedule(acc, { platform: 'discord', text, run_at: inMinutes(5) });
    const unreachable = async (): Promise<never> => { throw new Error('table unreachable'); };
    const dying: Deps = { ...deps, accounts: { ...deps.accounts, get: unreachable }, publishContext: { load: unreachable } };
    w.clock.ms = Date.parse(s.run_at) + 10;
    await expect(fireScheduled(dying, s.schedule_id)).rejects.toThrow('table unreachable');
    for (let i = 0; i < MAX_TAKEOVERS; i++) {
      w.clock.advance(STALE_RUN_MS + 60_000);
      expect(await sweepSchedules(dying)).toMatchObject({ failed: 1 });
      expect((await getSchedule(deps, acc.id, s.schedule_id)).status).toBe('publishing');
    }
    w.clock.advance(STALE_RUN_MS + 60_000);
    await sweepSchedules(dying);
    expect(await getSchedule(deps, acc.id, s.schedule_id)).toMatchObject({ status: 'failed', code: 'schedule_failed' });
    expect(failedEvents(s.schedule_id)).toEqual([expect.objectContaining({ data: expect.objectContaining({ platform: 'discord', schedule_id: s.schedule_id }) })]);
    expect(discordSends(text)).toBe(0);
  });
});

describe('schedule, bulk and recurring check media links at creation', () => {
  it('a private or malformed media link is refused now (400 media_unreachable), not at run time', async () => {
    const acc = await w.discordAccount();
    const guarded: Deps = { ...deps, media: withOwnMedia(mediaGateway(false), deps) };
    for (const photo_url of ['https://10.0.0.5/a.png', 'http://example.com/a.png', 'https://127.0.0.1:8080/x.jpg', 'https://user:pw@example.com/a.png']) {
      await expect(createSchedule(guarded, acc, ScheduleRequestSchema.parse({ platform: 'discord', text: `media ${++n}`, photo_url, run_at: inMinutes(30) })))
        .rejects.toMatchObject({ status: 400, code: 'media_unreachable', details: { platforms: ['discord'] } });
    }
    const bulk = await bulkSchedule(guarded, acc, { posts: [{ platform: 'discord', text: `bulk ${++n}`, photo_url: 'https://192.168.1.2/a.png', run_at: inMinutes(40) }] });
    expect(JSON.stringify(bulk)).toContain('media_unreachable');
    await expect(createRecurring(guarded, acc, RecurringRequestSchema.parse({ platform: 'discord', text: `rec ${++n}`, photo_url: 'https://169.254.169.254/latest', cron: '0 9 * * 1', timezone: 'UTC' })))
      .rejects.toMatchObject({ status: 400, code: 'media_unreachable' });
  });
});

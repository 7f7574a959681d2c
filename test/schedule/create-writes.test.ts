import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { publishingWorld } from '../support/publishing';
import { MemoryScheduler } from '../support/deps';
import { bulkSchedule, createSchedule } from '../../shared/app/schedule/create';
import { ScheduleRequestSchema } from '../../shared/app/schedule/request';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { usageKeys } from '../../shared/domain/usage';
import type { Deps } from '../../shared/app/deps';
import type { ScheduleStore } from '../../shared/ports/schedules';
import { DynamoScheduleStore } from '../../shared/adapters/dynamodb/schedules';
import { UnwrittenItemsError } from '../../shared/adapters/dynamodb/entity';
import type { TableRef } from '../../shared/adapters/dynamodb/client';

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(() => w.stop());

const inMinutes = (m: number) => new Date(w.clock.now() + m * 60_000).toISOString();
const dueMarker = async (id: string, runAt: string) =>
  (await w.table.doc.send(new GetCommand({ TableName: w.table.tableName, Key: keys.scheduleDue(id, runAt) }))).Item;

/** How many requests of each DynamoDB operation reach the embedded engine while `fn` runs. */
async function operations(fn: () => Promise<unknown>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const onRequest = (msg: unknown) => {
    const target = String((msg as { request: ClientRequest }).request.getHeader('x-amz-target') ?? '');
    if (target.startsWith('DynamoDB_')) { const op = target.split('.').pop()!; counts[op] = (counts[op] ?? 0) + 1; }
  };
  diagnostics.subscribe('http.client.request.start', onRequest);
  try { await fn(); } finally { diagnostics.unsubscribe('http.client.request.start', onRequest); }
  return counts;
}

describe('scheduling writes: items and due markers in batches, no alarm per post', () => {
  it('a bulk of 30 rows writes its 30 items with their markers in 3 batch writes and arms no alarm', async () => {
    const acc = await w.discordAccount('pro');
    const posts = Array.from({ length: 30 }, (_, i) => ({ platform: 'discord', text: `bulk ${i}`, run_at: inMinutes(60 + i) }));
    let res!: Awaited<ReturnType<typeof bulkSchedule>>;
    const ops = await operations(async () => { res = await bulkSchedule(w.deps, acc, { posts }); });
    expect(res).toMatchObject({ accepted: 30, rejected: 0 });
    expect(ops.BatchWriteItem).toBe(3);
    expect(ops.PutItem ?? 0).toBe(0);
    for (const s of res.scheduled) {
      expect(await dueMarker(s.schedule_id, s.run_at)).toMatchObject({ schedule_id: s.schedule_id, account_id: acc.id });
      expect(await w.deps.schedules.get(s.schedule_id)).toMatchObject({ status: 'scheduled', counted: true });
    }
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(30);
    expect(w.scheduler.scheduled.size).toBe(0);
  });

  it('when the items cannot be written the counter place and the idempotency key are given back', async () => {
    const acc = await w.discordAccount('pro');
    const scheduler = new MemoryScheduler();
    const failing: ScheduleStore = Object.assign(Object.create(w.deps.schedules) as ScheduleStore, {
      createNew: async () => { throw new Error('table unavailable'); },
    });
    const broken: Deps = { ...w.deps, scheduler, schedules: failing };
    const body = ScheduleRequestSchema.parse({ platform: 'discord', text: 'never written', idempotency_key: 'launch-9', run_at: inMinutes(30) });
    await expect(createSchedule(broken, acc, body)).rejects.toThrow('table unavailable');
    expect(scheduler.scheduled.size).toBe(0);
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(0);
    // the key was given back: the same request schedules once the table answers
    const again = await createSchedule(w.deps, acc, body);
    expect(again.status).toBe('scheduled');
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(1);
  });

  it('items the table keeps leaving unprocessed make the batch fail, after the markers were sent first', async () => {
    const acc = await w.discordAccount('pro');
    const sent: string[] = [];
    // a table that takes the markers and keeps leaving every schedule item unprocessed
    const stubborn: TableRef = {
      tableName: w.table.tableName,
      doc: { send: async (c: { input: { RequestItems: Record<string, Array<{ PutRequest: { Item: { pk: string } } }>> } }) => {
        const puts = c.input.RequestItems[w.table.tableName];
        sent.push(...puts.map((p) => p.PutRequest.Item.pk.split('#')[0]));
        return { UnprocessedItems: { [w.table.tableName]: puts.filter((p) => p.PutRequest.Item.pk.startsWith('SCH#')) } };
      } } as unknown as TableRef['doc'],
    };
    const record = (i: number) => ({
      id: `sch_stubborn${i}`, account_id: acc.id, brand_id: 'brd_1', status: 'scheduled' as const, run_at: inMinutes(90 + i), platforms: ['discord' as const],
      counted: true, created_at: inMinutes(0), updated_at: inMinutes(0),
    });
    await expect(new DynamoScheduleStore(stubborn).createNew([record(1), record(2)])).rejects.toBeInstanceOf(UnwrittenItemsError);
    expect(sent.slice(0, 4)).toEqual(['SCHDUE', 'SCHDUE', 'SCH', 'SCH']);
    expect(sent.slice(4).every((pk) => pk === 'SCH')).toBe(true);
  });

  it('scheduling does not depend on the Scheduler: with it down, the post is scheduled in the table and its due index', async () => {
    const acc = await w.discordAccount('pro');
    class DownScheduler extends MemoryScheduler {
      override async scheduleOnce(): Promise<void> { throw new Error('scheduler unavailable'); }
      override async cancel(): Promise<void> { throw new Error('scheduler unavailable'); }
    }
    const broken: Deps = { ...w.deps, scheduler: new DownScheduler() };
    const body = ScheduleRequestSchema.parse({ platform: 'discord', text: 'no alarm', run_at: inMinutes(30) });
    const s = await createSchedule(broken, acc, body);
    expect(await dueMarker(s.schedule_id, s.run_at)).toMatchObject({ schedule_id: s.schedule_id });
    expect(await w.deps.counters.get(usageKeys.scheduled(acc.id))).toBe(1);
  });
});

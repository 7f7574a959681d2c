import { TableScheduler } from '../../shared/adapters/dynamodb/table-scheduler';
import { SCHEDULED_TIME } from '../../shared/ports/scheduler';
import { startTestTable } from '../support/deps';

let db: Awaited<ReturnType<typeof startTestTable>>;
let s: TableScheduler;
beforeAll(async () => { db = await startTestTable(); s = new TableScheduler(db.table); });
afterAll(async () => { await db.stop(); });

const MIN = 60_000;
/** A whole minute a little ahead, passed as startsAt so the first occurrence does not depend on when the test runs. */
const nextMinute = () => Math.ceil((Date.now() + 1) / MIN) * MIN + 5 * MIN;

describe('local scheduler: recurring timers', () => {
  it('arms the first occurrence; a firing carries its time in place of <aws.scheduler.scheduled-time>', async () => {
    const first = nextMinute();
    await s.scheduleCron({ name: 'r-a', cron: '* * * * *', timezone: 'Europe/Berlin', startsAt: new Date(first), input: { kind: 'recurring', recurring_id: 'rec_a', occurrence: SCHEDULED_TIME } });
    expect(await s.due(new Date(first - 1000))).toEqual([]);
    const due = (await s.due(new Date(first))).filter((t) => t.name === 'r-a');
    expect(due).toEqual([{ name: 'r-a', runAt: new Date(first).toISOString(), input: { kind: 'recurring', recurring_id: 'rec_a', occurrence: new Date(first).toISOString().replace('.000Z', 'Z') } }]);
  });

  it('claiming a firing re-arms the next occurrence in the same write: one claimer wins', async () => {
    const first = nextMinute();
    await s.scheduleCron({ name: 'r-b', cron: '* * * * *', timezone: 'UTC', startsAt: new Date(first), input: { kind: 'recurring' } });
    const wins = await Promise.all(Array.from({ length: 5 }, () => s.claim('r-b', new Date(first).toISOString(), first)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const after = (await s.due(new Date(first + 10 * MIN))).filter((t) => t.name === 'r-b');
    expect(after.map((t) => t.runAt)).toEqual([new Date(first + MIN).toISOString()]);
  });

  it('occurrences missed while the runtime was down fire once, then it moves to the next future one', async () => {
    const first = nextMinute();
    await s.scheduleCron({ name: 'r-c', cron: '* * * * *', timezone: 'UTC', startsAt: new Date(first), input: {} });
    const restartedAt = first + 30 * MIN + 5_000;
    const due = (await s.due(new Date(restartedAt))).filter((t) => t.name === 'r-c');
    expect(due).toHaveLength(1);
    expect(await s.claim('r-c', due[0].runAt, restartedAt)).toBe(true);
    expect((await s.due(new Date(restartedAt))).filter((t) => t.name === 'r-c')).toEqual([]);
    expect((await s.due(new Date(first + 31 * MIN))).filter((t) => t.name === 'r-c').map((t) => t.runAt)).toEqual([new Date(first + 31 * MIN).toISOString()]);
  });

  it('ends after the last occurrence of its window; cancel removes it', async () => {
    const first = nextMinute();
    await s.scheduleCron({ name: 'r-d', cron: '* * * * *', timezone: 'UTC', startsAt: new Date(first), endsAt: new Date(first + MIN), input: {} });
    expect(await s.claim('r-d', new Date(first).toISOString(), first)).toBe(true);
    expect(await s.claim('r-d', new Date(first + MIN).toISOString(), first + MIN)).toBe(true);
    expect((await s.due(new Date(first + 60 * MIN))).filter((t) => t.name === 'r-d')).toEqual([]);
    await s.scheduleCron({ name: 'r-e', cron: '* * * * *', timezone: 'UTC', input: {} });
    await s.cancel('r-e');
    expect((await s.due(new Date(first + 60 * MIN))).filter((t) => t.name === 'r-e')).toEqual([]);
    // a window with no occurrence left arms nothing
    await s.scheduleCron({ name: 'r-f', cron: '0 0 1 1 *', timezone: 'UTC', endsAt: new Date(Date.now() + MIN), input: {} });
    expect((await s.due(new Date(Date.now() + 400 * 86_400_000))).filter((t) => t.name === 'r-f')).toEqual([]);
  });

  it('one-time timers still fire once (a second claim, or one for an older run_at, loses)', async () => {
    const runAt = new Date(Date.now() + MIN);
    await s.scheduleOnce({ name: 's-x', runAt, input: { kind: 'scheduled', schedule_id: 'sch_x' } });
    expect(await s.claim('s-x', new Date(runAt.getTime() - 1000).toISOString())).toBe(false);
    expect(await Promise.all([s.claim('s-x', runAt.toISOString()), s.claim('s-x', runAt.toISOString())])).toEqual(expect.arrayContaining([true, false]));
  });
});

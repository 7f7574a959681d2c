import { isSlotInstant, slotInstant, slotInstants } from '../../shared/domain/slots';
import { SlotFinder } from '../../shared/app/schedule/slots';
import { startTestTable, testDeps } from '../support/deps';
import type { Brand } from '../../shared/ports/store';

const take = (zone: string, slots: string[], after: string, n: number) => {
  const out: string[] = [];
  for (const d of slotInstants(zone, slots, Date.parse(after))) {
    out.push(d.toISOString());
    if (out.length === n) break;
  }
  return out;
};

describe('slot instants (pure)', () => {
  it('are the brand wall-clock times in its timezone, strictly after now, ascending', () => {
    expect(take('Europe/Berlin', ['09:00', '13:00', '17:00'], '2026-01-05T08:00:00Z', 4)).toEqual([
      '2026-01-05T12:00:00.000Z', '2026-01-05T16:00:00.000Z', '2026-01-06T08:00:00.000Z', '2026-01-06T12:00:00.000Z',
    ]);
    expect(take('UTC', ['09:00'], '2026-01-05T09:00:00Z', 1)).toEqual(['2026-01-06T09:00:00.000Z']);
  });

  it('DST spring (Berlin 2026-03-29, 02:00 → 03:00): offsets change at the switch; a skipped 02:30 moves to 03:30', () => {
    expect(take('Europe/Berlin', ['09:00'], '2026-03-28T00:00:00Z', 2)).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
    expect(take('Europe/Berlin', ['02:30', '03:30'], '2026-03-28T12:00:00Z', 3)).toEqual([
      '2026-03-29T01:30:00.000Z', // 03:30 CEST: 02:30 does not exist and moves forward, landing on the 03:30 slot (counted once)
      '2026-03-30T00:30:00.000Z', '2026-03-30T01:30:00.000Z',
    ]);
  });

  it('DST autumn (New York 2026-11-01, 02:00 → 01:00): a repeated 01:30 is the first one, once', () => {
    expect(slotInstant('America/New_York', 2026, 11, 1, '01:30').toUTC().toISO()).toBe('2026-11-01T05:30:00.000Z');
    expect(take('America/New_York', ['01:30', '09:00'], '2026-10-31T14:00:00Z', 3)).toEqual([
      '2026-11-01T05:30:00.000Z', '2026-11-01T14:00:00.000Z', '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('DST in the southern hemisphere (Sydney 2026-04-05, 03:00 → 02:00)', () => {
    // 09:00 AEDT (UTC+11) on the 4th, then 09:00 AEST (UTC+10) from the 5th
    expect(take('Australia/Sydney', ['09:00'], '2026-04-03T00:00:00Z', 3)).toEqual([
      '2026-04-03T22:00:00.000Z', '2026-04-04T23:00:00.000Z', '2026-04-05T23:00:00.000Z',
    ]);
  });

  it('recognises an explicit time that is a slot', () => {
    expect(isSlotInstant('Europe/Berlin', ['09:00'], new Date('2026-07-01T07:00:00Z'))).toBe(true);
    expect(isSlotInstant('Europe/Berlin', ['09:00'], new Date('2026-07-01T08:00:00Z'))).toBe(false);
    expect(isSlotInstant('Europe/Berlin', ['09:00'], new Date('2026-07-01T07:00:01Z'))).toBe(false);
  });
});

describe('SlotFinder (embedded DynamoDB)', () => {
  let db: Awaited<ReturnType<typeof startTestTable>>;
  beforeAll(async () => { db = await startTestTable(); });
  afterAll(async () => { await db.stop(); });

  const brand = (id: string, timezone: string, slots: string[]): Brand => ({ id, account_id: 'acc_x', name: 'B', timezone, slots, created_at: '' });

  it('successive takes fill successive free slots; slots taken earlier are skipped', async () => {
    const { deps } = testDeps(db.table);
    const now = Date.parse('2026-03-07T15:00:00Z');
    const b = brand('brd_01AAAAAAAAAAAAAAAAAAAAAAAA', 'America/New_York', ['09:00', '17:00']);
    expect(await deps.slots.claim(b.id, '2026-03-07T22:00:00.000Z', 'sch_other', 9_999_999_999, now / 1000)).toBe(true);
    const f = new SlotFinder(deps, now);
    const got = [];
    for (let i = 0; i < 4; i++) got.push((await f.take(b, `sch_${i}`)).toISOString());
    // 17:00 EST on the 7th is taken; the 8th switches to EDT (UTC-4)
    expect(got).toEqual(['2026-03-08T13:00:00.000Z', '2026-03-08T21:00:00.000Z', '2026-03-09T13:00:00.000Z', '2026-03-09T21:00:00.000Z']);
    // another request (a new finder) continues after them
    expect((await new SlotFinder(deps, now).take(b, 'sch_next')).toISOString()).toBe('2026-03-10T13:00:00.000Z');
  });

  it('two requests racing for the next slot get different slots', async () => {
    const { deps } = testDeps(db.table);
    const now = Date.parse('2026-06-01T00:00:00Z');
    const b = brand('brd_01BBBBBBBBBBBBBBBBBBBBBBBB', 'UTC', ['09:00']);
    const got = await Promise.all(Array.from({ length: 8 }, (_, i) => new SlotFinder(deps, now).take(b, `sch_${i}`)));
    expect(new Set(got.map((d) => d.toISOString())).size).toBe(8);
    expect(got.map((d) => d.toISOString()).sort()[0]).toBe('2026-06-01T09:00:00.000Z');
  });

  it('a released slot is free again; an expired claim is free', async () => {
    const { deps } = testDeps(db.table);
    const now = Date.parse('2026-06-01T00:00:00Z');
    const b = brand('brd_01CCCCCCCCCCCCCCCCCCCCCCCC', 'UTC', ['09:00']);
    const first = await new SlotFinder(deps, now).take(b, 'sch_a');
    await deps.slots.release(b.id, first.toISOString(), 'sch_not_holder');
    expect((await new SlotFinder(deps, now).take(b, 'sch_b')).toISOString()).toBe('2026-06-02T09:00:00.000Z');
    await deps.slots.release(b.id, first.toISOString(), 'sch_a');
    expect((await new SlotFinder(deps, now).take(b, 'sch_c')).toISOString()).toBe(first.toISOString());
    expect(await deps.slots.claim(b.id, '2026-07-01T09:00:00.000Z', 'sch_old', now / 1000 - 1, now / 1000)).toBe(true);
    expect(await deps.slots.claim(b.id, '2026-07-01T09:00:00.000Z', 'sch_new', now / 1000 + 99, now / 1000)).toBe(true);
  });
});

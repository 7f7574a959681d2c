import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startTestTable } from '../support/deps';
import { DynamoCounterStore } from '../../shared/adapters/dynamodb/counters';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { COUNTER_SHARDS, counterShards, counterShares, usageKeys } from '../../shared/domain/usage';
import type { TableRef } from '../../shared/adapters/dynamodb/client';
import { usage } from '../../shared/app/usage';
import type { Account } from '../../shared/ports/store';

let table: TableRef;
let stop: () => Promise<void>;
let counters: DynamoCounterStore;
beforeAll(async () => { ({ table, stop } = await startTestTable()); counters = new DynamoCounterStore(table); });
afterAll(() => stop());
// real concurrency against the embedded engine: slow on a loaded machine, never asserted on time
jest.setTimeout(120_000);

const EXP = 4_102_444_800;
let n = 0;
const postsKey = () => usageKeys.posts(`acc_${++n}`, Date.UTC(2026, 10, 24));
/** The count each item of a spread counter holds, as stored. */
const items = async (key: string) => Promise.all(Array.from({ length: COUNTER_SHARDS }, async (_, i) =>
  Number((await table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.counterShard(key, i), ConsistentRead: true }))).Item?.count ?? 0)));

describe('counters spread over several items (embedded DynamoDB, real concurrency)', () => {
  it('the hot per-account counters are spread; the others stay one item; the shares add up to the limit', () => {
    expect(counterShards(usageKeys.posts('acc_1', 0))).toBe(COUNTER_SHARDS);
    expect(counterShards(usageKeys.scheduled('acc_1'))).toBe(COUNTER_SHARDS);
    expect(counterShards('cap#acc_1#key#key_1#2026-11')).toBe(COUNTER_SHARDS);
    expect(counterShards(usageKeys.webhooks('acc_1'))).toBe(1);
    expect(counterShards('rl#key#k1#60#0')).toBe(1);
    for (const limit of [0, 1, 5, 8, 20, 10_001]) {
      const shares = counterShares(limit, COUNTER_SHARDS);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(limit);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
  });

  it('120 concurrent increments of one account against a limit of 50: exactly 50 allowed, the total exactly 50, spread over the items', async () => {
    const key = postsKey();
    const outcomes = await Promise.all(Array.from({ length: 120 }, () => counters.increment(key, 1, 50, EXP)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(50);
    expect(outcomes.filter((o) => !o.allowed).every((o) => o.count === 50)).toBe(true);
    expect(await counters.get(key)).toBe(50);
    const stored = await items(key);
    expect(stored).toEqual(counterShares(50, COUNTER_SHARDS));
  });

  it('below the limit nothing is refused and no count is lost: 100 concurrent increments against 1,000', async () => {
    const key = postsKey();
    const outcomes = await Promise.all(Array.from({ length: 100 }, () => counters.increment(key, 1, 1_000, EXP)));
    expect(outcomes.every((o) => o.allowed)).toBe(true);
    expect(await counters.get(key)).toBe(100);
    // a burst lands on several items, not one
    expect((await items(key)).filter((c) => c > 0).length).toBeGreaterThan(1);
  });

  it('a limit smaller than the number of items (5): 40 concurrent increments, exactly 5 allowed', async () => {
    const key = postsKey();
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => counters.increment(key, 1, 5, EXP)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
    expect(await counters.get(key)).toBe(5);
  });

  it('amounts larger than one item\'s share are split over items, all or nothing: concurrent increments of 7 against 50 never pass 50', async () => {
    const key = postsKey();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => counters.increment(key, 7, 50, EXP)));
    const allowed = outcomes.filter((o) => o.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(1);
    expect(allowed * 7).toBeLessThanOrEqual(50);
    expect(await counters.get(key)).toBe(allowed * 7);
    // one increment of the whole limit on an empty counter takes every item's share
    const whole = postsKey();
    expect((await counters.increment(whole, 20, 20, EXP)).allowed).toBe(true);
    expect(await items(whole)).toEqual(counterShares(20, COUNTER_SHARDS));
    expect(await counters.increment(whole, 1, 20, EXP)).toEqual({ allowed: false, count: 20 });
  });

  it('concurrent releases are exact and never go below zero; given-back places are taken again up to the limit', async () => {
    const key = postsKey();
    await Promise.all(Array.from({ length: 40 }, () => counters.increment(key, 1, 40, EXP)));
    expect(await counters.get(key)).toBe(40);
    await Promise.all(Array.from({ length: 25 }, () => counters.release(key, 1)));
    expect(await counters.get(key)).toBe(15);
    await Promise.all([counters.release(key, 4), counters.release(key, 6)]);
    expect(await counters.get(key)).toBe(5);
    // more releases than counted: stops at zero
    await Promise.all(Array.from({ length: 10 }, () => counters.release(key, 1)));
    expect(await counters.get(key)).toBe(0);
    expect((await items(key)).every((c) => c === 0)).toBe(true);
    // increments and releases at once: the limit still holds and the total is exact
    const outcomes = await Promise.all([
      ...Array.from({ length: 60 }, () => counters.increment(key, 1, 40, EXP)),
      ...Array.from({ length: 20 }, () => counters.release(key, 1)),
    ]);
    const allowed = outcomes.filter((o) => o && o.allowed).length;
    const total = await counters.get(key);
    expect(total).toBeLessThanOrEqual(40);
    expect(total).toBeGreaterThanOrEqual(allowed - 20);
    expect(total).toBeLessThanOrEqual(allowed);
  });

  it('GET /api/usage reads the sum of the items: posts this month and scheduled posts as counted', async () => {
    const now = Date.UTC(2026, 10, 24, 12);
    const account: Account = { id: `acc_${++n}`, email: 'u@example.com', plan: 'pro', verified: true, created_at: new Date(now).toISOString(), brand_count: 1 };
    await Promise.all(Array.from({ length: 37 }, () => counters.increment(usageKeys.posts(account.id, now), 1, 10_000, EXP)));
    await Promise.all(Array.from({ length: 12 }, (_, i) => counters.increment(usageKeys.scheduled(account.id), 1, 1_000, EXP, `sch_${i}`)));
    await Promise.all(Array.from({ length: 5 }, (_, i) => counters.release(usageKeys.scheduled(account.id), 1, `sch_${i}`)));
    expect((await items(usageKeys.posts(account.id, now))).filter((c) => c > 0).length).toBeGreaterThan(1);
    const u = await usage({ counters, clock: { now: () => now, sleep: async () => {} } }, account);
    expect(u.posts_per_month).toMatchObject({ limit: 10_000, used: 37, remaining: 9_963 });
    expect(u.scheduled_at_a_time).toMatchObject({ limit: 1_000, used: 7, remaining: 993 });
  });

  it('a single-item counter keeps its exact conditional behaviour and expiry', async () => {
    const key = usageKeys.webhooks(`acc_${++n}`);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => counters.increment(key, 1, 3, EXP)));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(3);
    expect(await counters.get(key)).toBe(3);
    await counters.release(key, 5);
    expect(await counters.get(key)).toBe(3);
    await counters.release(key, 3);
    expect(await counters.get(key)).toBe(0);
    const expired = `rl#x${n}#60#0`;
    await counters.increment(expired, 2, 10, 1);
    expect(await counters.get(expired)).toBe(0);
  });
});

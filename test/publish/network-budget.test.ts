import { networkLimits } from '../../shared/networks/descriptor-limits';
import { startTestTable, ManualClock } from '../support/deps';
import { publishingWorld } from '../support/publishing';
import { DynamoCounterStore } from '../../shared/adapters/dynamodb/counters';
import { takeBudget, giveBackBudget, type BudgetTaken } from '../../shared/app/publish/network-budget';
import { freesAt, NETWORK_BUDGETS, type NetworkBudget } from '../../shared/domain/network-budgets';
import { publishPost } from '../../shared/app/publish/create-post';
import { validatePost } from '../../shared/app/publish/request';
import type { TableRef } from '../../shared/adapters/dynamodb/client';

// real concurrency against the embedded engine: slow on a loaded machine, never asserted on time
jest.setTimeout(120_000);

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);
const none = { thread: [] as string[] };

describe('rolling windows of a network budget (pure)', () => {
  const w = { name: '1m', windowMs: MIN, limit: 6, buckets: 6 };
  it('answers now when it fits, else the end of the first part whose leaving makes room', () => {
    // parts of 10 s; the current part is the last count
    expect(freesAt(w, [0, 0, 0, 0, 0, 5], 1, T0)).toBe(T0);
    expect(freesAt(w, [0, 0, 3, 0, 0, 3], 1, T0 + 5_000)).toBe(T0 - 30_000 + MIN);
    expect(freesAt(w, [2, 0, 0, 0, 0, 4], 2, T0)).toBe(T0 - 50_000 + MIN);
    expect(freesAt(w, [0, 0, 0, 0, 0, 6], 1, T0)).toBe(T0 + MIN);
  });
});

describe('network budgets per social account (embedded DynamoDB, manual clock, real concurrency)', () => {
  let table: TableRef;
  let stop: () => Promise<void>;
  let clock: ManualClock;
  let deps: { clock: ManualClock; counters: DynamoCounterStore };
  beforeAll(async () => {
    ({ table, stop } = await startTestTable());
    clock = new ManualClock(T0);
    deps = { clock, counters: new DynamoCounterStore(table, () => Math.floor(clock.now() / 1000)) };
  });
  afterAll(() => stop());

  it('TikTok: 10 concurrent upload inits of one token, exactly 6 go; the refusals name when the minute has room', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => takeBudget(deps, 'tiktok', 'con_tt1', none)));
    expect(results.filter((r) => r.ok)).toHaveLength(6);
    for (const r of results.filter((x) => !x.ok)) expect(r).toMatchObject({ ok: false, frees_at: T0 + MIN, retry_after: 60 });
    // another account's token has its own budget
    expect(await takeBudget(deps, 'tiktok', 'con_tt2', none)).toMatchObject({ ok: true });
    // the window rolls: 59 s later still full, a minute later room again
    clock.ms = T0 + 59_000;
    expect(await takeBudget(deps, 'tiktok', 'con_tt1', none)).toMatchObject({ ok: false, retry_after: 1 });
    clock.ms = T0 + MIN;
    expect(await takeBudget(deps, 'tiktok', 'con_tt1', none)).toMatchObject({ ok: true });
  });

  it('a send the network refused before accepting gives its budget back', async () => {
    clock.ms = T0 + 10 * MIN;
    const taken = await Promise.all(Array.from({ length: 6 }, () => takeBudget(deps, 'tiktok', 'con_tt3', none)));
    expect(await takeBudget(deps, 'tiktok', 'con_tt3', none)).toMatchObject({ ok: false });
    await giveBackBudget(deps, taken[0] as BudgetTaken);
    expect(await takeBudget(deps, 'tiktok', 'con_tt3', none)).toMatchObject({ ok: true });
  });

  /** Posts already counted in the part of `window` at `at` (as earlier sends left them), in one write. */
  const prefill = (platform: string, owner: string, window: string, partMs: number, at: number, n: number) =>
    deps.counters.increment(`budget#${platform}#${owner}#${window}#${Math.floor(at / partMs)}`, n, n, Math.ceil(at / 1000) + 86_400);

  it('Threads: 250 posts in a rolling 24 h; the 251st waits for the hour the first ones leave', async () => {
    await prefill('threads', 'con_th', '24h', 3_600_000, T0, 100);
    await prefill('threads', 'con_th', '24h', 3_600_000, T0 + 5 * 3_600_000, 140);
    clock.ms = T0 + 5 * 3_600_000;
    const later = await Promise.all(Array.from({ length: 20 }, () => takeBudget(deps, 'threads', 'con_th', none)));
    expect(later.filter((r) => r.ok)).toHaveLength(10);
    const refused = later.find((r) => !r.ok)!;
    expect(refused).toMatchObject({ ok: false, frees_at: T0 + 24 * 3_600_000 });
    expect(refused.ok ? '' : refused.error).toMatch(/threads allows 250 posts per 24h per account/);
  });

  it('X: a thread costs one request per post, and the 3-hour window counts next to the 15-minute one', async () => {
    clock.ms = T0;
    await prefill('x', 'con_x', '15m', MIN, T0, 180);
    await prefill('x', 'con_x', '3h', 15 * MIN, T0, 180);
    const thread = { thread: ['2/3', '3/3'] };
    const runs = await Promise.all(Array.from({ length: 10 }, () => takeBudget(deps, 'x', 'con_x', thread)));
    expect(runs.filter((r) => r.ok)).toHaveLength(6); // 198 of 200 in 15 minutes
    clock.ms = T0 + 20 * MIN;
    // 300 in 3 hours: 102 left after 198, so the 15-minute window's fresh 200 are not all usable
    await prefill('x', 'con_x', '15m', MIN, T0 + 20 * MIN, 90);
    await prefill('x', 'con_x', '3h', 15 * MIN, T0 + 20 * MIN, 90);
    const rest = await Promise.all(Array.from({ length: 20 }, () => takeBudget(deps, 'x', 'con_x', none)));
    expect(rest.filter((r) => r.ok)).toHaveLength(12);
    const refused = rest.find((r) => !r.ok)!;
    expect(refused.ok ? '' : refused.error).toMatch(/per 3h/);
  });
});

describe('the worker holds a post the network budget has no room for (deferral, not failure)', () => {
  let w: Awaited<ReturnType<typeof publishingWorld>>;
  const saved = NETWORK_BUDGETS.telegram;
  beforeAll(async () => {
    w = await publishingWorld();
    // a budget on the simulated network of the publishing world: 1 post a minute per account
    NETWORK_BUDGETS.telegram = { scope: 'connection', cost: () => 1, unit: 'posts', windows: [{ name: '1m', windowMs: MIN, limit: 1, buckets: 6 }] } satisfies NetworkBudget;
  });
  afterAll(async () => { NETWORK_BUDGETS.telegram = saved; await w.stop(); });

  it('the second post within the minute is scheduled for when the budget has room, and nothing is sent for it', async () => {
    const acc = await w.newAccount('pro');
    await w.connectTelegram(w.deps, acc);
    const first = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'first within the minute' }, networkLimits()), { source: 'api', wait: true });
    expect(first.results[0]).toMatchObject({ ok: true, status: 'published' });
    const sends = w.telegramSends();
    const second = await publishPost(w.deps, acc, validatePost({ platform: 'telegram', text: 'second within the minute' }, networkLimits()), { source: 'api', wait: true });
    expect(second.results[0]).toMatchObject({ ok: true, status: 'scheduled', code: 'network_budget_deferred', deferred: true });
    const runAt = Date.parse(second.results[0].run_at!);
    expect(runAt).toBeGreaterThan(w.deps.clock.now());
    expect(runAt).toBeLessThanOrEqual(w.deps.clock.now() + MIN + 1_000);
    expect(w.telegramSends()).toBe(sends);
    expect([...w.scheduler.scheduled.values()].some((t) => t.input.kind === 'deferred' && t.input.post_id === second.post_id)).toBe(true);
  });
});

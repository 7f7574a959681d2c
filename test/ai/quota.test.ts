import { startTestTable, testDeps, ManualClock, type TestTable } from '../support/deps';
import { generateDrafts } from '../../shared/app/ai/generate';
import { LocalDrafter } from '../../shared/adapters/local/local-drafter';
import { AiUnavailableError, type DraftJob, type DraftProvider } from '../../shared/ports/ai';
import { usageKeys } from '../../shared/domain/usage';
import { usage } from '../../shared/app/usage';
import { AppError } from '../../shared/domain/errors';
import type { Account } from '../../shared/ports/store';
import { networkLimits } from '../../shared/networks/descriptor-limits';

let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => { ({ table, stop } = await startTestTable()); });
afterAll(async () => { await stop(); });

let n = 0;
const account = (plan: Account['plan']): Account => ({ id: `acc_quota${++n}`, email: `q${n}@example.com`, plan, brand_count: 1 } as Account);
const input = { prompt: 'Launch day: the new rocket flies.', platforms: ['x', 'bluesky'] };

/** Fails every call whose number `fails` picks (a throttle), otherwise drafts locally. */
class FlakyProvider implements DraftProvider {
  readonly name = 'bedrock' as const;
  readonly model = 'flaky';
  private calls = 0;
  private readonly local = new LocalDrafter(networkLimits());
  constructor(private readonly fails: (call: number) => boolean) {}
  async draft(job: DraftJob) {
    if (this.fails(++this.calls)) throw new AiUnavailableError('throttled', 'throttled');
    return this.local.draft(job);
  }
}

function codes(results: PromiseSettledResult<unknown>[]) {
  const out: Record<string, number> = {};
  for (const r of results) {
    const code = r.status === 'fulfilled' ? 'ok' : r.reason instanceof AppError ? r.reason.code : String(r.reason);
    out[code] = (out[code] ?? 0) + 1;
  }
  return out;
}

describe('AI drafts a day: a conditional counter in the table (embedded DynamoDB, real concurrency)', () => {
  it('20 concurrent generate calls on Free (5 a day) → exactly 5 drafts, 15 × 429 ai_drafts_limit_reached', async () => {
    const { deps } = testDeps(table, (chosen) => ({ settings: { ...chosen.settings, rateLimitsOff: true } }), { frozenClock: true });
    const a = account('free');
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => generateDrafts(deps, a, input)));
    expect(codes(results)).toEqual({ ok: 5, ai_drafts_limit_reached: 15 });
    expect(await deps.counters.get(usageKeys.aiDrafts(a.id, deps.clock.now()))).toBe(5);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 429, details: { limit: 5, upgrade_url: expect.stringContaining('plan=starter') } });
    expect((await usage(deps, a)).ai_drafts_per_day).toMatchObject({ limit: 5, used: 5, remaining: 0 });
  });

  it('with the request rate on, 20 concurrent calls on Starter → 8 drafts (8 a minute), 12 × 429 rate_limited', async () => {
    const { deps } = testDeps(table, {}, { frozenClock: true });
    const a = account('starter');
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => generateDrafts(deps, a, input)));
    expect(codes(results)).toEqual({ ok: 8, rate_limited: 12 });
    expect(await deps.counters.get(usageKeys.aiDrafts(a.id, deps.clock.now()))).toBe(8);
  });

  it('provider failures give the draft back: 20 concurrent calls, every other one throttled → used equals the successes', async () => {
    const { deps } = testDeps(table, (chosen) => ({ settings: { ...chosen.settings, rateLimitsOff: true }, ai: new FlakyProvider((call) => call % 2 === 0) }), { frozenClock: true });
    const a = account('starter');
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => generateDrafts(deps, a, input)));
    const c = codes(results);
    expect(c).toEqual({ ok: 10, ai_unavailable: 10 });
    expect(await deps.counters.get(usageKeys.aiDrafts(a.id, deps.clock.now()))).toBe(10);
  });

  it('a provider that always fails spends nothing, even at the limit', async () => {
    const { deps } = testDeps(table, (chosen) => ({ settings: { ...chosen.settings, rateLimitsOff: true }, ai: new FlakyProvider(() => true) }), { frozenClock: true });
    const a = account('free');
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => generateDrafts(deps, a, input)));
    // while the first five hold a reservation, the others may be refused at the limit; every reservation comes back
    const c = codes(results);
    expect(Object.keys(c).filter((k) => k !== 'ai_unavailable' && k !== 'ai_drafts_limit_reached')).toEqual([]);
    expect(c.ai_unavailable).toBeGreaterThanOrEqual(5);
    expect(await deps.counters.get(usageKeys.aiDrafts(a.id, deps.clock.now()))).toBe(0);
    for (let i = 0; i < 6; i++) await expect(generateDrafts(deps, a, input)).rejects.toMatchObject({ code: 'ai_unavailable' });
    expect(await deps.counters.get(usageKeys.aiDrafts(a.id, deps.clock.now()))).toBe(0);
  });

  it('8 a minute per account (fixed window on the injected clock); the day resets at 00:00 UTC', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 24, 23, 58, 30));
    const { deps } = testDeps(table, { clock, ai: new LocalDrafter(networkLimits()) }, { frozenClock: true });
    const a = account('starter');
    for (let i = 0; i < 8; i++) await generateDrafts(deps, a, input);
    const ninth = await generateDrafts(deps, a, input).catch((e: unknown) => e);
    expect(ninth).toMatchObject({ status: 429, code: 'rate_limited', details: { retry_after: 30 } });
    clock.advance(30_000);
    const next = await generateDrafts(deps, a, input);
    expect(next.usage.ai_drafts_per_day).toEqual({ limit: 25, used: 9, remaining: 16, resets_at: '2026-11-25T00:00:00.000Z' });
    clock.advance(60_000); // 00:00:30 the next day: a new day's allowance
    const tomorrow = await generateDrafts(deps, a, input);
    expect(tomorrow.usage.ai_drafts_per_day).toMatchObject({ used: 1, resets_at: '2026-11-26T00:00:00.000Z' });
  });
});

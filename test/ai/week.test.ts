import { publishingWorld } from '../support/publishing';
import { planWeek } from '../../shared/app/ai/week';
import { createSchedule } from '../../shared/app/schedule/create';
import { updateBrand } from '../../shared/app/brands';
import { textProblems } from '../../shared/domain/text-length';
import { usageKeys } from '../../shared/domain/usage';
import type { Account } from '../../shared/ports/store';
import { networkLimits } from '../../shared/networks/descriptor-limits';

/** Each network's text rule, from the registry (its folder's limits.ts). */
const rule = networkLimits().textRule;

let w: Awaited<ReturnType<typeof publishingWorld>>;
beforeAll(async () => { w = await publishingWorld(); });
afterAll(async () => { await w.stop(); });

/** Thursday 2027-03-25 13:00 in Berlin; Berlin moves to summer time on Sunday the 28th. */
const NOW = Date.UTC(2027, 2, 25, 12, 0, 0);

async function berlinAccount(plan: Account['plan'] = 'pro') {
  w.clock.ms = NOW;
  const account = await w.newAccount(plan);
  await w.connectDiscord(w.deps, account);
  const brand = (await w.deps.brands.list(account.id))[0];
  await updateBrand(w.deps, account.id, brand.id, { timezone: 'Europe/Berlin', slots: ['09:00', '18:00'] });
  return { account, brand };
}

const prompt = 'Our bakery opens a second shop in Kreuzberg. Fresh sourdough every morning from seven.';

describe('POST /api/week use case (planWeek)', () => {
  it("seven days of drafts on the brand's first free slot each day, in its timezone across the DST change; one AI draft", async () => {
    const { account, brand } = await berlinAccount();
    const res = await planWeek(w.deps, account, { prompt, platforms: ['discord', 'x'] });
    expect(res).toMatchObject({ brand_id: brand.id, timezone: 'Europe/Berlin', provider: 'local' });
    expect(res.days.map((d) => [d.date, d.run_at])).toEqual([
      ['2027-03-25', '2027-03-25T17:00:00.000Z'], // 18:00 CET (09:00 has passed)
      ['2027-03-26', '2027-03-26T08:00:00.000Z'],
      ['2027-03-27', '2027-03-27T08:00:00.000Z'],
      ['2027-03-28', '2027-03-28T07:00:00.000Z'], // 09:00 CEST
      ['2027-03-29', '2027-03-29T07:00:00.000Z'],
      ['2027-03-30', '2027-03-30T07:00:00.000Z'],
      ['2027-03-31', '2027-03-31T07:00:00.000Z'],
    ]);
    expect(new Set(res.days.map((d) => d.drafts.discord.text)).size).toBe(7); // a different angle each day
    for (const d of res.days) {
      expect(textProblems('x', rule('x'), d.drafts.x)).toEqual([]);
      expect(d.schedule).toBeUndefined();
    }
    expect(res.scheduled).toBeUndefined();
    expect(res.usage.ai_drafts_per_day).toMatchObject({ used: 1 });
    expect(await w.deps.schedules.list(account.id, {} as never).then((r) => r.items.length)).toBe(0);
  });

  it('skips a slot already held by a scheduled post, and starts on `start` (a date in the brand timezone)', async () => {
    const { account } = await berlinAccount();
    await createSchedule(w.deps, account, { platforms: ['discord'], text: 'already planned', run_at: '2027-03-26T09:00:00+01:00' });
    const res = await planWeek(w.deps, account, { prompt, platforms: ['discord'] });
    expect(res.days[1].run_at).toBe('2027-03-26T17:00:00.000Z');
    const later = await planWeek(w.deps, account, { prompt, platforms: ['discord'], start: '2027-04-10' });
    expect(later.days.map((d) => d.date)).toEqual(['2027-04-10', '2027-04-11', '2027-04-12', '2027-04-13', '2027-04-14', '2027-04-15', '2027-04-16']);
    expect(later.days[0].run_at).toBe('2027-04-10T07:00:00.000Z');
    await expect(planWeek(w.deps, account, { prompt, platforms: ['discord'], start: 'next tuesday' })).rejects.toMatchObject({ status: 400, code: 'invalid_start' });
  });

  it('schedule: true creates the seven scheduled posts with the drafts as per_platform; plan caps answer per day', async () => {
    const { account } = await berlinAccount('free'); // Free holds 10 scheduled posts at a time
    for (let i = 0; i < 5; i++) await createSchedule(w.deps, account, { platforms: ['discord'], text: `filler ${i}`, run_at: `2027-05-0${i + 1}T10:00:00Z` });
    const res = await planWeek(w.deps, account, { prompt, platforms: ['discord'], schedule: true });
    expect(res.scheduled).toEqual({ accepted: 5, rejected: 2 });
    expect(res.days.slice(0, 5).every((d) => d.schedule?.ok === true)).toBe(true);
    expect(res.days.slice(5).map((d) => d.schedule)).toEqual([
      expect.objectContaining({ ok: false, code: 'scheduled_limit_reached', upgrade_url: expect.stringContaining('plan=starter') }),
      expect.objectContaining({ ok: false, code: 'scheduled_limit_reached' }),
    ]);
    const first = res.days[0].schedule as { schedule_id: string; run_at: string };
    expect(first.run_at).toBe(res.days[0].run_at);
    const stored = await w.deps.schedules.get(first.schedule_id);
    expect(stored?.request).toMatchObject({ platforms: ['discord'], per_platform: { discord: { text: res.days[0].drafts.discord.text } } });
    expect((stored?.request as { per_platform: { discord: Record<string, unknown> } }).per_platform.discord).not.toHaveProperty('chars');
  });

  it('3 an hour per account, each counting one AI draft', async () => {
    const { account } = await berlinAccount();
    for (let i = 0; i < 3; i++) await planWeek(w.deps, account, { prompt, platforms: ['discord'] });
    await expect(planWeek(w.deps, account, { prompt, platforms: ['discord'] })).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect(await w.deps.counters.get(usageKeys.aiDrafts(account.id, w.clock.now()))).toBe(3);
  });

  it('a brand without slots answers 400 no_free_slot before anything is spent', async () => {
    const { account, brand } = await berlinAccount();
    await updateBrand(w.deps, account.id, brand.id, { slots: [] });
    await expect(planWeek(w.deps, account, { prompt, platforms: ['discord'] })).rejects.toMatchObject({ status: 400, code: 'no_free_slot' });
    expect(await w.deps.counters.get(usageKeys.aiDrafts(account.id, w.clock.now()))).toBe(0);
  });

  it("schedule: true applies the calling key's guardrails: a brand it may not post to is 403 before anything is spent", async () => {
    const { account, brand } = await berlinAccount('pro');
    const actor = { kind: 'key' as const, id: 'key_week_guard' };
    const put = (allowed_brands: string[] | null, allowed_platforms: Array<'discord' | 'x'> | null) => w.deps.guardrails.put({
      account_id: account.id, kind: 'key', id: actor.id, monthly_post_cap: null, allowed_platforms, allowed_brands, always_require_approval: false, updated_at: new Date(NOW).toISOString(),
    });
    await put(['brd_someotherbrand'], null);
    await expect(planWeek(w.deps, account, { prompt, platforms: ['discord'], schedule: true }, actor)).rejects.toMatchObject({ status: 403, code: 'brand_not_allowed' });
    expect(await w.deps.counters.get(usageKeys.aiDrafts(account.id, w.clock.now()))).toBe(0);
    // without schedule nothing is posted: drafting is allowed
    expect((await planWeek(w.deps, account, { prompt, platforms: ['discord'] }, actor)).days).toHaveLength(7);
    await put([brand.id], null);
    const res = await planWeek(w.deps, account, { prompt, platforms: ['discord'], schedule: true }, actor);
    expect(res.scheduled).toEqual({ accepted: 7, rejected: 0 });
  });
});


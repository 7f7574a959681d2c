import type { Deps } from '../deps';
import type { EngagementDay } from '../../ports/day-summaries';
import type { PostAnalytics } from '../../domain/analytics';
import { emptyMetrics } from '../../domain/analytics';
import { addMetrics } from './query-analytics';

const DAY_MS = 86_400_000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The engagement days of `days` from the analytics items published on them (a day without items: zeros, nulls). */
function summariseDays(items: PostAnalytics[], days: string[]): EngagementDay[] {
  const out = new Map(days.map((day) => [day, { day, publications: 0, metrics: emptyMetrics() }]));
  for (const a of items) {
    const d = out.get(a.published_at.slice(0, 10));
    if (!d) continue;
    d.publications += 1;
    addMetrics(d.metrics, a.metrics);
  }
  return [...out.values()];
}

/**
 * Sums up and stores the engagement days of `days` (YYYY-MM-DD) of one account: one range read of their analytics
 * items (first … last day), one batch of writes. Called by the analytics sweep for the publishing days of the posts
 * it read, and by the Overview for days it finds no summary of.
 */
export async function storeEngagementDays(deps: Pick<Deps, 'analytics' | 'daySummaries'>, accountId: string, days: string[]): Promise<EngagementDay[]> {
  if (!days.length) return [];
  const sorted = [...new Set(days)].sort();
  const items = await deps.analytics.listPublished(accountId, dayStart(sorted[0]!), dayStart(sorted[sorted.length - 1]!) + DAY_MS - 1);
  const summaries = summariseDays(items, sorted);
  await deps.daySummaries.putEngagement(accountId, summaries);
  return summaries;
}

/**
 * After a sweep run: each account's publishing days of the items read are summed up again (figures only change
 * through a fetch, so these are the only days whose engagement moved).
 */
export async function refreshEngagementDays(deps: Pick<Deps, 'analytics' | 'daySummaries'>, read: Array<Pick<PostAnalytics, 'account_id' | 'published_at'>>): Promise<void> {
  const byAccount = new Map<string, Set<string>>();
  for (const a of read) {
    const days = byAccount.get(a.account_id) ?? new Set<string>();
    days.add(a.published_at.slice(0, 10));
    byAccount.set(a.account_id, days);
  }
  for (const [accountId, days] of byAccount) {
    // far-apart days are read as separate ranges (a post of today and one of 30 days ago are not 30 days of reads)
    for (const run of runs([...days].sort())) await storeEngagementDays(deps, accountId, run);
  }
}

/**
 * The engagement of each day `from` … `to` for the Overview: the stored days in one query; days never stored are
 * summed up from their analytics items once and stored.
 */
export async function engagementDays(deps: Pick<Deps, 'analytics' | 'daySummaries'>, accountId: string, from: string, to: string): Promise<EngagementDay[]> {
  const stored = new Map((await deps.daySummaries.listEngagement(accountId, from, to)).map((d) => [d.day, d]));
  const all: string[] = [];
  for (let t = dayStart(from); t <= dayStart(to); t += DAY_MS) all.push(isoDay(t));
  const missing = all.filter((d) => !stored.has(d));
  for (const run of runs(missing)) for (const d of await storeEngagementDays(deps, accountId, run)) stored.set(d.day, d);
  return all.map((d) => stored.get(d)!);
}

/** Ascending days cut into runs of consecutive days. */
function runs(days: string[]): string[][] {
  const out: string[][] = [];
  for (const d of days) {
    const last = out[out.length - 1];
    if (last && dayStart(d) - dayStart(last[last.length - 1]!) === DAY_MS) last.push(d);
    else out.push([d]);
  }
  return out;
}

import type { Deps } from '../deps';
import type { DaySummary } from '../../ports/day-summaries';
import type { NetworkRecord, PostRecord } from '../../ports/publishing';
import { PLATFORM_NAMES, type PlatformName } from '../../domain/platforms';
import { ulid } from '../../domain/ids';
import { engagementDays } from '../analytics/engagement-days';

/** The ranges the Overview's charts offer (days, ending today). */
export const CHART_RANGES = [7, 30, 90] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

const DAY_MS = 86_400_000;
/** Posts are read in pages growing from FIRST_PAGE to PAGE while days are summed up (today alone is often a short page). */
const FIRST_PAGE = 25;
const PAGE = 100;

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

export interface OverviewCharts {
  /** First and last day shown (YYYY-MM-DD, UTC), the last being today. */
  from: string;
  to: string;
  /** One summary per day of the range, oldest first (a day without posts has zeros). */
  days: DaySummary[];
  /** The networks that had results in the range, in the catalogue's order. */
  networks: PlatformName[];
  totals: { posts: number; published: number; failed: number; pending: number };
  /** Failed results by code over the range, most frequent first. */
  failures: Array<{ code: string; count: number }>;
  /** How many days were summed up from the posts for this answer (the rest were stored summaries). */
  computedDays: number;
}

const emptyDay = (day: string): DaySummary => ({ day, posts: 0, networks: {}, failures: {} });

/** Adds one post and its networks to its day's summary. */
function tally(s: DaySummary, networks: NetworkRecord[]) {
  s.posts += 1;
  for (const n of networks) {
    const line = (s.networks[n.platform] ??= { published: 0, failed: 0, pending: 0 });
    if (n.state !== 'done' || !n.result) line.pending += 1;
    else if (n.result.ok) line.published += 1;
    else {
      line.failed += 1;
      const code = n.result.code ?? 'unknown';
      s.failures[code] = (s.failures[code] ?? 0) + 1;
    }
  }
}

const settled = (s: DaySummary) => Object.values(s.networks).every((n) => n.pending === 0);

/** Consecutive runs of days (ascending ISO days) as [first, last] pairs. */
function runsOf(days: string[]): Array<[string, string]> {
  const runs: Array<[string, string]> = [];
  for (const d of days) {
    const last = runs[runs.length - 1];
    if (last && dayStart(d) - dayStart(last[1]) === DAY_MS) last[1] = d;
    else runs.push([d, d]);
  }
  return runs;
}

/**
 * Sums up the posts created on the days first … last (newest first, page by page, from the first post id after
 * `last`'s end down to `first`'s start) into `into`, by created_at day.
 */
async function sumDays(deps: Pick<Deps, 'posts'>, accountId: string, first: string, last: string, into: Map<string, DaySummary>) {
  const floor = dayStart(first);
  // ids are ULIDs of the creation time; a minute of margin covers an id made a moment before its created_at
  let before: string | undefined = `pst_${ulid(dayStart(last) + DAY_MS + 60_000).slice(0, 10)}${'0'.repeat(16)}`;
  for (let size = FIRST_PAGE; ; size = Math.min(PAGE, size * 2)) {
    const page: PostRecord[] = await deps.posts.list(accountId, size, before);
    if (page.length === 0) return;
    const wanted = page.filter((p) => into.has(p.created_at.slice(0, 10)));
    const networks = wanted.length ? await deps.posts.networksOf(wanted) : new Map<string, NetworkRecord[]>();
    for (const p of wanted) tally(into.get(p.created_at.slice(0, 10))!, networks.get(p.id) ?? []);
    before = page[page.length - 1].id;
    if (page.length < size || Date.parse(page[page.length - 1].created_at) < floor - 60_000) return;
  }
}

/**
 * The Overview's chart data for the last `range` days (UTC): posts and results by day and network, and failures
 * by code. Days already summed up are read as stored summaries (one small item per day); the others — today, and
 * any day not yet final — are summed up from that day's posts only. A day summed up here is stored once it is over
 * and every network of its posts has settled (from then on its figures cannot change), so an account with 10,000
 * posts reads about one day's posts per view instead of all of them.
 */
export async function overviewCharts(deps: Pick<Deps, 'posts' | 'daySummaries' | 'clock'>, accountId: string, range: ChartRange = 30): Promise<OverviewCharts> {
  const now = deps.clock.now();
  const to = isoDay(now);
  const from = isoDay(dayStart(to) - (range - 1) * DAY_MS);
  const allDays = Array.from({ length: range }, (_, i) => isoDay(dayStart(from) + i * DAY_MS));
  const stored = new Map((await deps.daySummaries.list(accountId, from, to)).filter((s) => s.day < to).map((s) => [s.day, s]));
  const missing = allDays.filter((d) => !stored.has(d));
  const computed = new Map(missing.map((d) => [d, emptyDay(d)]));
  for (const [first, last] of runsOf(missing).reverse()) await sumDays(deps, accountId, first, last, computed);
  const final = [...computed.values()].filter((s) => s.day < to && settled(s));
  if (final.length) await deps.daySummaries.putAll(accountId, final);

  const days = allDays.map((d) => stored.get(d) ?? computed.get(d)!);
  const totals = { posts: 0, published: 0, failed: 0, pending: 0 };
  const failures = new Map<string, number>();
  const seen = new Set<PlatformName>();
  for (const s of days) {
    totals.posts += s.posts;
    for (const [platform, n] of Object.entries(s.networks) as Array<[PlatformName, { published: number; failed: number; pending: number }]>) {
      seen.add(platform);
      totals.published += n.published;
      totals.failed += n.failed;
      totals.pending += n.pending;
    }
    for (const [code, count] of Object.entries(s.failures)) failures.set(code, (failures.get(code) ?? 0) + count);
  }
  return {
    from, to, days,
    networks: PLATFORM_NAMES.filter((p) => seen.has(p)),
    totals,
    failures: [...failures].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
    computedDays: missing.length,
  };
}

/** Engagement per day: one series per figure, one value per day of the charts' range. */
export interface EngagementSeries {
  days: string[];
  series: Array<{ name: string; values: number[] }>;
}

const ENGAGEMENT_SERIES: Array<[string, Array<'likes' | 'comments' | 'shares' | 'quotes' | 'saves'>]> = [
  ['Likes', ['likes']], ['Comments', ['comments']], ['Shares and quotes', ['shares', 'quotes']], ['Saves', ['saves']],
];

/**
 * Engagement over the charts' days from the collected analytics: each day's likes, comments, shares and quotes, and
 * saves of the posts published that day (their latest figures, summed over networks; a figure a network does not
 * offer adds nothing), read from the stored engagement days (one query: engagement-days.ts), the same sums as
 * GET /api/analytics's daily series. Series that are zero every day are left out.
 */
export async function engagementSeries(deps: Pick<Deps, 'analytics' | 'daySummaries'>, accountId: string, charts: Pick<OverviewCharts, 'from' | 'to' | 'days'>): Promise<EngagementSeries> {
  const byDay = new Map((await engagementDays(deps, accountId, charts.from, charts.to)).map((d) => [d.day, d.metrics]));
  const days = charts.days.map((d) => d.day);
  const series = ENGAGEMENT_SERIES.map(([name, figures]) => ({
    name, values: days.map((d) => figures.reduce((sum, f) => sum + (byDay.get(d)?.[f] ?? 0), 0)),
  }));
  return { days, series: series.filter((s) => s.values.some((v) => v > 0)) };
}

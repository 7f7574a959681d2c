import { formatVersion } from '../../ports/format-version';
import * as z from 'zod';
import { mapLimit } from '../../domain/map-limit';
import { errorFields, log } from '../../log';
import { REFRESH_MIN_INTERVAL_MS, type PostAnalytics } from '../../domain/analytics';
import type { AnalyticsDue } from '../../ports/analytics';
import { readBatch, type CollectDeps } from './collect-metrics';
import { refreshEngagementDays } from './engagement-days';
import type { Deps } from '../deps';

/**
 * The analytics sweep: every minute (EventBridge Scheduler in AWS, the local timer poller locally) it reads the
 * published posts whose next_sync_at has come (hourly in a post's first 48 hours, then daily until 30 days, then
 * never: shared/domain/analytics.ts nextSyncAt) and fetches their figures:
 * 1. the due entries are grouped by connection (account, brand, network: one token) and cut into the network's batch size;
 * 2. each item of a batch is claimed (a conditional write: no other sweep or refresh=1 fetched it in the last
 *    15 minutes), then the batch is read in one request after the connection's pacing slot (the network's limit);
 * 3. connections run side by side (CONCURRENCY: the work is mostly waiting for pacing slots), one connection's
 *    batches one after another; the sweep starts no new batch once its time budget is spent: what is left stays due
 *    for the next run, and the pacing slots (in the table) keep each connection within its limit across runs.
 */
export const ANALYTICS_SWEEP = { name: 'analytics-sweep', cron: '* * * * *', timezone: 'UTC' } as const;
export const AnalyticsSweepInput = z.object({ v: formatVersion, kind: z.literal('analytics-sweep') });
/** Due entries read per run. */
export const ANALYTICS_SWEEP_LIMIT = 5000;
/** New batches start only within this time of the run's start (the dispatcher's timeout is 60 s). */
export const ANALYTICS_SWEEP_BUDGET_MS = 50_000;
export const ANALYTICS_SWEEP_CONCURRENCY = 32;

export interface AnalyticsSweepTotals { due: number; read: number; failed: number; busy: number; skipped: number; batches: number }

/** The sweep reads with the collect deps and rewrites the Overview's engagement days of what it read. */
export type AnalyticsSweepDeps = CollectDeps & Pick<Deps, 'daySummaries'>;

export async function sweepAnalytics(deps: AnalyticsSweepDeps, opts: { limit?: number; budgetMs?: number } = {}): Promise<AnalyticsSweepTotals> {
  const start = deps.clock.now();
  const budget = opts.budgetMs ?? ANALYTICS_SWEEP_BUDGET_MS;
  const due = await deps.analytics.due(start, opts.limit ?? ANALYTICS_SWEEP_LIMIT);
  const totals: AnalyticsSweepTotals = { due: due.length, read: 0, failed: 0, busy: 0, skipped: 0, batches: 0 };
  const read: PostAnalytics[] = [];
  const groups = new Map<string, AnalyticsDue[]>();
  for (const d of due) {
    const key = `${d.account_id}|${d.brand_id}|${d.platform}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  await mapLimit([...groups.values()], ANALYTICS_SWEEP_CONCURRENCY, async (group) => {
    const batch = deps.networks[group[0].platform]?.metrics?.batch ?? 25;
    for (let i = 0; i < group.length; i += batch) {
      if (deps.clock.now() - start >= budget) { totals.skipped += group.length - i; return; }
      try {
        const now = deps.clock.now();
        const claimed = (await Promise.all(group.slice(i, i + batch).map((d) =>
          deps.analytics.claimFetch(d.account_id, d.post_id, d.platform, now, now - REFRESH_MIN_INTERVAL_MS)))).filter((a): a is PostAnalytics => !!a);
        if (!claimed.length) continue;
        totals.batches++;
        const outcome = await readBatch(deps, claimed);
        totals[outcome === 'read' ? 'read' : outcome === 'failed' ? 'failed' : 'busy'] += claimed.length;
        if (outcome === 'read') read.push(...claimed);
      } catch (err) {
        totals.failed += Math.min(batch, group.length - i);
        log.error('analytics sweep: batch failed', { platform: group[0].platform, account_id: group[0].account_id, ...errorFields(err) });
      }
    }
  });
  try {
    // the Overview's engagement days of the posts read now hold stale sums: summed up again from the items
    await refreshEngagementDays(deps, read);
  } catch (err) {
    log.error('analytics sweep: engagement days not refreshed', errorFields(err));
  }
  log.info('analytics sweep', { ...totals });
  return totals;
}

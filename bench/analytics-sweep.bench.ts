import { buildRegistry } from '../shared/networks/registry';
import { parseConfig } from '../shared/config';
import { ANALYTICS_SWEEP_BUDGET_MS, ANALYTICS_SWEEP_CONCURRENCY, ANALYTICS_SWEEP_LIMIT } from '../shared/app/analytics/analytics-sweep';
import type { PlatformName } from '../shared/domain/platforms';

/**
 * The analytics sweep for 10,000 posts, modelled (no network, no table): 10,000 published post × network items all
 * due at once (the worst case: e.g. the first run after an outage), spread evenly over the networks that offer
 * analytics and 10 brands (one connection per brand and network). The model follows the sweep's own rules
 * (shared/app/analytics/analytics-sweep.ts): a run every minute; connections side by side (ANALYTICS_SWEEP_CONCURRENCY);
 * one connection's batches one after another, each after its pacing slot (the network's `spacingMs`, from its
 * analytics.ts) and a simulated answer time; no new batch after the run's budget. It prints, per network, the
 * requests, the busiest connection's time and its request rate against the limit its spacing encodes, and when the
 * last item was read. Target (issue 28): all 10,000 within a 5-minute run, within each network's limits.
 */
const POSTS = 10_000;
const BRANDS = 10;
/** Simulated answer time of one metrics request (the simulators answer in under 5 ms; real networks 100–400 ms). */
const ANSWER_MS = 300;
const RUN_EVERY_MS = 60_000;

export async function run(): Promise<void> {
  const registry = buildRegistry(parseConfig({}));
  const networks = (Object.entries(registry) as Array<[PlatformName, NonNullable<(typeof registry)[PlatformName]>]>).filter(([, a]) => a.metrics);
  console.log(`\n## Analytics sweep — ${POSTS.toLocaleString('en')} post × network items due at once, ${networks.length} networks × ${BRANDS} brands (modelled)`);
  // the connections and their queues of due items
  const groups = networks.flatMap(([name, a]) => Array.from({ length: BRANDS }, (_, b) => ({ name, batch: a.metrics!.batch, spacing: a.metrics!.spacingMs, left: 0, requests: 0, nextSlot: 0, doneAt: 0, brand: b })));
  for (let i = 0; i < POSTS; i++) groups[i % groups.length].left++;
  let t = 0;
  let runs = 0;
  while (groups.some((g) => g.left > 0) && runs < 100) {
    const start = runs * RUN_EVERY_MS;
    runs++;
    // due entries read this run (the oldest ANALYTICS_SWEEP_LIMIT), grouped by connection
    let budgetItems = ANALYTICS_SWEEP_LIMIT;
    const active = groups.filter((g) => g.left > 0).map((g) => ({ g, take: 0 }));
    for (const a of active) { a.take = Math.min(a.g.left, budgetItems); budgetItems -= a.take; }
    // list scheduling over ANALYTICS_SWEEP_CONCURRENCY workers: a worker takes the next connection when free
    const workers = Array.from({ length: ANALYTICS_SWEEP_CONCURRENCY }, () => start);
    for (const a of active.filter((x) => x.take > 0)) {
      const w = workers.indexOf(Math.min(...workers));
      let now = workers[w];
      while (a.take > 0 && now - start < ANALYTICS_SWEEP_BUDGET_MS) {
        const slot = Math.max(now, a.g.nextSlot);
        a.g.nextSlot = slot + a.g.spacing;
        now = slot + ANSWER_MS;
        const n = Math.min(a.g.batch, a.take);
        a.take -= n; a.g.left -= n; a.g.requests++;
        if (a.g.left === 0) a.g.doneAt = now;
      }
      workers[w] = now;
    }
    t = Math.max(t, ...workers);
  }
  const rows = networks.map(([name, a]) => {
    const gs = groups.filter((g) => g.name === name);
    const busiest = gs.reduce((x, y) => (y.doneAt > x.doneAt ? y : x));
    const per15 = Math.round((15 * 60_000) / a.metrics!.spacingMs);
    return `| ${name} | ${a.metrics!.batch} | ${a.metrics!.spacingMs} | ${gs.reduce((s, g) => s + g.requests, 0)} | ${busiest.requests} | ${(busiest.doneAt / 1000).toFixed(0)} s | ≤ ${per15} |`;
  });
  console.log('| network | batch | spacing (ms) | requests | busiest connection: requests | its last read | requests / 15 min / connection |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  const last = Math.max(...groups.map((g) => g.doneAt));
  console.log(`\nall ${POSTS.toLocaleString('en')} items read after ${(last / 1000).toFixed(0)} s in ${runs} sweep run(s) (one a minute, ${ANALYTICS_SWEEP_BUDGET_MS / 1000} s budget each, ${ANALYTICS_SWEEP_CONCURRENCY} connections at a time, ${ANSWER_MS} ms per answer): ${last <= 300_000 ? 'within' : 'OVER'} the 5-minute target`);
}

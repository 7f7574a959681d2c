import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { Sandbox } from '../infra/local/sandbox';
import { ANALYTICS_SWEEP_BUDGET_MS, ANALYTICS_SWEEP_CONCURRENCY, ANALYTICS_SWEEP_LIMIT } from '../shared/app/analytics/analytics-sweep';
import type { NetworkAdapter, PublishedRef } from '../shared/ports/networks';
import { testContext } from '../test/networks/context';
import { ManualClock } from '../test/support/clock';
import { analyticsSimulators, sandboxNetworkCases } from '../test/support/sandbox-analytics';
import { fmt } from './support/stats';

/**
 * The analytics sweep for 10,000 posts, read through the sandbox's simulators: 10,000 published post × network
 * items all due at once (the worst case: the first run after an outage), spread evenly over the 13 networks with
 * analytics and 10 brands (one connection per brand and network). Each network gets real posts published through
 * its adapter to its simulator; every read of the sweep is then made for real (the adapter's `metrics.read` against
 * the simulator, over loopback HTTP), and the simulator's request count says how many calls it cost.
 *
 * Time is virtual, following the sweep's own rules (shared/app/analytics/analytics-sweep.ts): a run every minute;
 * ANALYTICS_SWEEP_CONCURRENCY connections side by side; one connection's batches one after another, each at its
 * pacing slot (the network's `spacingMs`, and `appSpacingMs` shared by all connections where the limit is per app) and taking max(the measured answer, ANSWER_MS) — real networks answer in
 * 100–400 ms, the simulators in a few; no new batch after the run's budget. Every call is stamped with its virtual
 * time, and the busiest window of each network's published limit is counted: per connection (per user/token) or
 * for the whole app, as the network counts it. Target: all 10,000 within a 5-minute run, within each
 * network's limits.
 */
const POSTS = 10_000;
const BRANDS = 10;
const ANSWER_MS = 300;
const RUN_EVERY_MS = 60_000;
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/** A network's published limit: `calls` per `windowMs`, counted per connection (user token) or per app. */
interface Limit { calls: number; windowMs: number; per: 'connection' | 'app'; what: string }
const LIMITS: Record<string, Limit | undefined> = {
  x: { calls: 900, windowMs: 15 * MIN, per: 'connection', what: 'tweet lookup 900 / 15 min per user' },
  bluesky: { calls: 3000, windowMs: 5 * MIN, per: 'connection', what: '3,000 / 5 min per account' },
  mastodon: { calls: 300, windowMs: 5 * MIN, per: 'connection', what: '300 / 5 min per account' },
  threads: { calls: 86_400, windowMs: DAY, per: 'connection', what: 'Meta: 4,800 × daily engaged users / 24 h (at 18)' },
  instagram: { calls: 86_400, windowMs: DAY, per: 'connection', what: 'Meta BUC: 4,800 × daily engaged users / 24 h (at 18)' },
  facebook: { calls: 86_400, windowMs: DAY, per: 'connection', what: 'Meta BUC: 4,800 × daily engaged users / 24 h (at 18)' },
  youtube: { calls: 10_000, windowMs: DAY, per: 'app', what: '10,000 quota units / day per project (1 a call)' },
  reddit: { calls: 100, windowMs: MIN, per: 'app', what: '100 / min per OAuth client' },
  devto: { calls: 30, windowMs: 30_000, per: 'connection', what: '~30 / 30 s per API key' },
  linkedin: undefined,
  tiktok: { calls: 600, windowMs: MIN, per: 'app', what: '/v2/video/query/ 600 / min (sliding)' },
  pinterest: { calls: 6000, windowMs: MIN, per: 'connection', what: 'universal 100 / s per user per app' },
  hashnode: { calls: 20_000, windowMs: MIN, per: 'app', what: '20,000 queries / min (advisory)' },
};

/** The most calls in any window of `windowMs` among sorted call times. */
function busiestWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

export async function run(): Promise<void> {
  const sandbox = new Sandbox();
  const calls = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const segment = (req.url ?? '').split('/')[2] ?? '';
      calls.set(segment, (calls.get(segment) ?? 0) + 1);
      void sandbox.handle(req, res, Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sandbox.mount(origin);
  const clock = new ManualClock(Date.now(), { sleeps: 'instant' });
  for (const s of analyticsSimulators(sandbox)) s.figures.now = () => clock.now();
  const total = () => [...calls.values()].reduce((a, b) => a + b, 0);

  try {
    // real posts on each simulator (as many as one read takes, up to 50): the reads cycle through them
    const networks: Array<{ name: string; adapter: NetworkAdapter; creds: Record<string, string>; refs: PublishedRef[] }> = [];
    for (const [name, adapter, creds, over] of sandboxNetworkCases(sandbox)) {
      const refs: PublishedRef[] = [];
      const want = Math.min(adapter.metrics!.batch, 50);
      for (let i = 0; i < want; i++) {
        const sent = await adapter.publish({ text: `Sweep bench post ${i} on ${name}`, media: [], thread: [], send_key: `bench-${name}-${i}`, ...over }, testContext(creds, { timeoutMs: 30_000, clock }).ctx);
        if (!sent.ok || sent.status !== 'published' || !sent.id) throw new Error(`${name}: publish failed: ${JSON.stringify(sent)}`);
        refs.push({ id: sent.id, url: sent.url });
      }
      networks.push({ name, adapter, creds, refs });
    }
    clock.advance(3600_000);

    console.log(`\n## Analytics sweep — ${POSTS.toLocaleString('en')} post × network items due at once, ${networks.length} networks × ${BRANDS} brands, read through the simulators`);
    console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (1/5/15 min)`);
    const groups = networks.flatMap((n) => Array.from({ length: BRANDS }, (_, brand) => ({
      n, brand, batch: n.adapter.metrics!.batch, spacing: n.adapter.metrics!.spacingMs, left: 0, reads: 0, nextSlot: 0, doneAt: 0, callTimes: [] as number[],
    })));
    for (let i = 0; i < POSTS; i++) groups[i % groups.length].left++;
    // the next free slot of each network limited per app (appSpacingMs), shared by all its connections
    const appSlot = new Map<string, number>();
    const answers: number[] = [];
    let failures = 0;
    let withFigures = 0;
    let runs = 0;
    const wallStart = Date.now();
    while (groups.some((g) => g.left > 0) && runs < 100) {
      const start = runs * RUN_EVERY_MS;
      runs++;
      let budgetItems = ANALYTICS_SWEEP_LIMIT;
      const active = groups.filter((g) => g.left > 0).map((g) => ({ g, take: 0 }));
      for (const a of active) { a.take = Math.min(a.g.left, budgetItems); budgetItems -= a.take; }
      // list scheduling over the sweep's workers: a worker takes the next connection when free
      const workers = Array.from({ length: ANALYTICS_SWEEP_CONCURRENCY }, () => start);
      for (const a of active.filter((x) => x.take > 0)) {
        const w = workers.indexOf(Math.min(...workers));
        let now = workers[w];
        while (a.take > 0 && now - start < ANALYTICS_SWEEP_BUDGET_MS) {
          const appSpacing = a.g.n.adapter.metrics!.appSpacingMs ?? 0;
          const slot = Math.max(now, a.g.nextSlot, appSpacing ? appSlot.get(a.g.n.name) ?? 0 : 0);
          a.g.nextSlot = slot + a.g.spacing;
          if (appSpacing) appSlot.set(a.g.n.name, slot + appSpacing);
          const n = Math.min(a.g.batch, a.take);
          const refs = a.g.n.refs.slice(0, Math.min(n, a.g.n.refs.length));
          const before = total();
          const t = performance.now();
          const answer = await a.g.n.adapter.metrics!.read(refs, testContext(a.g.n.creds, { timeoutMs: 30_000, clock }).ctx);
          const took = performance.now() - t;
          answers.push(took);
          if (!answer.ok) failures++;
          else withFigures += refs.filter((r) => { const x = answer.readings[r.id]; return typeof x === 'object' && Object.keys(x.metrics).length > 0; }).length;
          const cost = total() - before;
          for (let c = 0; c < cost; c++) a.g.callTimes.push(slot);
          now = slot + Math.max(took, ANSWER_MS);
          a.take -= n; a.g.left -= n; a.g.reads++;
          if (a.g.left === 0) a.g.doneAt = now;
        }
        workers[w] = now;
      }
    }
    const wall = Date.now() - wallStart;

    console.log('| network | batch | spacing (ms) | app spacing (ms) | reads | calls | last item read | busiest window: calls (limit) | limit counted |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    let within = true;
    for (const n of networks) {
      const gs = groups.filter((g) => g.n === n);
      const limit = LIMITS[n.name];
      const callsOf = gs.reduce((s, g) => s + g.callTimes.length, 0);
      let windowCell = 'no published figure';
      if (limit) {
        const busiest = limit.per === 'app'
          ? busiestWindow(gs.flatMap((g) => g.callTimes).sort((a, b) => a - b), limit.windowMs)
          : Math.max(...gs.map((g) => busiestWindow(g.callTimes, limit.windowMs)));
        if (busiest > limit.calls) within = false;
        windowCell = `${busiest.toLocaleString('en')} (≤ ${limit.calls.toLocaleString('en')} / ${limit.windowMs >= DAY ? '24 h' : limit.windowMs >= MIN ? `${limit.windowMs / MIN} min` : `${limit.windowMs / 1000} s`})`;
      }
      const last = Math.max(...gs.map((g) => g.doneAt));
      console.log(`| ${n.name} | ${n.adapter.metrics!.batch} | ${n.adapter.metrics!.spacingMs} | ${n.adapter.metrics!.appSpacingMs ?? '–'} | ${gs.reduce((s, g) => s + g.reads, 0)} | ${callsOf.toLocaleString('en')} | ${(last / 1000).toFixed(0)} s | ${windowCell} | ${limit ? `${limit.per}: ${limit.what}` : 'LinkedIn shows each app its daily quota in the developer portal'} |`);
    }
    const last = Math.max(...groups.map((g) => g.doneAt));
    const sorted = [...answers].sort((a, b) => a - b);
    console.log(`\nall ${POSTS.toLocaleString('en')} items read after ${(last / 1000).toFixed(0)} s of sweep time in ${runs} run(s) (one a minute, ${ANALYTICS_SWEEP_BUDGET_MS / 1000} s budget each, ${ANALYTICS_SWEEP_CONCURRENCY} connections at a time, ≥ ${ANSWER_MS} ms an answer): ${last <= 300_000 ? 'within' : 'OVER'} the 5-minute target; ${within ? 'every' : 'NOT every'} busiest window within its limit`);
    console.log(`reads through the simulators: ${answers.length.toLocaleString('en')} (${failures} failed), ${withFigures.toLocaleString('en')} post readings with figures; simulator answer p50 ${fmt(sorted[Math.floor(sorted.length / 2)] ?? 0)} ms, p95 ${fmt(sorted[Math.floor(sorted.length * 0.95)] ?? 0)} ms; ${(wall / 1000).toFixed(1)} s wall time`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startLocalRuntime, type LocalRuntime } from '../infra/local/runtime';
import { workers } from '../functions/workers';
import { client, must, signup } from './support/api';
import { BenchNetworks, NETWORKS, postTag, type BenchNetwork } from './support/networks';
import { fmt, percentile, printRows } from './support/stats';

/**
 * POST /api/post through the whole local runtime (HTTP → post-post handler → SQS (fauxqs) → publish-worker poller →
 * network adapters → loopback fakes → the handler's wait for the results), against the nine credential networks'
 * fakes, each answering its publishing call after a fixed delay D.
 *
 * 1. Fan-out: 20 sequential posts to 1 network (Discord) and 20 to all 9, D = 200 ms; p50/p99 and the 9/1 ratio.
 *    Also 10 posts to 5 unpaced networks (one worker batch), and how the 9 publishing calls of a post reach the
 *    fakes: in how many "waves" (a gap ≥ D/2 between consecutive calls starts a new one).
 *    Telegram spaces posts to one chat by 1 s (decisions.md), so 9-network posts start ≥ 1.2 s apart: none waits
 *    for Telegram's slot (checked: each post's Telegram call must arrive with the others).
 * 2. The service's own overhead over D for 1 network: latency − D, split into "before" (request sent → the
 *    network's publishing call arrives at the fake) and "after" (the fake answers → the HTTP answer is received).
 *    Then 5 posts at each of a few other D values: locally the worker's result signal wakes the handler's wait
 *    (shared/ports/result-signal.ts), so latency − D should not depend on D (in AWS it is the next 20 ms read).
 * 3. Sustained throughput, D = 0: 20 concurrent closed-loop clients for 10 s (after a 1 s warm-up), 1 network per
 *    post (Discord: no pacing), then 3 networks (Discord, Slack, Mastodon: none paced). Also the main event loop's
 *    busy share and the process CPU per post (every thread: dynalite runs in a worker thread of its own): the
 *    whole stack is one Node process, so it is CPU-bound here.
 *
 * 4. The local runtime's speed: 20 sequential posts to 1
 *    network (Discord) and 20 to 4 (Bluesky, Mastodon, Discord, WordPress: no pacing) at D = 300 ms, their p50 ratio
 *    (goal ≤ 1.10); then 40 sequential posts to Discord answering at once (D = 0): the service's own overhead, p50 / p99
 *    (goal ≤ 25 / ≤ 60 ms). `PUBLISH_ONLY=speed` runs this part alone (it runs first otherwise).
 *
 * Every post has a unique text (identical posts within 2 minutes are refused) and no media. The runtime runs with
 * DISABLE_RATE_LIMITS=1 (POST /api/post allows 60 a minute per account).
 */
const D = 200;
const FANOUT_POSTS = 20;
const TELEGRAM_GAP_MS = 1_200; // > the 1 s Telegram spacing per chat (channel)
const CLIENTS = 20;
const WARMUP_SECONDS = 1;
const DURATION_SECONDS = 10;
const QUANT_DELAYS = [100, 150, 250, 300];
const QUANT_POSTS = 5;
const ONE: BenchNetwork[] = ['discord'];
/** Five networks without pacing: exactly one worker batch (batchSize 5). */
const FIVE: BenchNetwork[] = ['bluesky', 'mastodon', 'discord', 'wordpress', 'devto'];
const FIVE_POSTS = 10;
const THREE: BenchNetwork[] = ['discord', 'slack', 'mastodon'];
const FOUR: BenchNetwork[] = ['bluesky', 'mastodon', 'discord', 'wordpress'];
const SPEED_D = 300;
const SPEED_POSTS = 20;
const INSTANT_POSTS = 40;

type Api = ReturnType<typeof client>;
interface Sample { ms: number; start: number; end: number; post: number }

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
let seq = 0;
const RUN = Date.now().toString(36);
/** A unique text carrying the post's number (postTag) so that the fakes' records can be matched to it. */
const nextPost = (what: string) => { const post = ++seq; return { post, text: `Bench ${what} ${RUN} ${postTag(post)}` }; };

/** One POST /api/post; throws unless HTTP 200 with every network published. */
async function postOnce(api: Api, platforms: readonly BenchNetwork[], what: string): Promise<Sample> {
  const { post, text } = nextPost(what);
  const start = Date.now();
  const t = performance.now();
  const r = await api('POST', '/api/post', { platforms, text });
  const ms = performance.now() - t;
  const end = Date.now();
  must(r, 'POST /api/post');
  const bad = (r.body.results as Array<{ platform: string; status: string; code?: string }>).filter((x) => x.status !== 'published');
  if (bad.length) throw new Error(`not published: ${bad.map((b) => `${b.platform} ${b.status} ${b.code ?? ''}`).join(', ')}`);
  return { ms, start, end, post };
}

function latencyRows(label: string, ms: number[]): Array<[string, string]> {
  return [[label, `p50 ${fmt(percentile(ms, 50))} ms, p99 ${fmt(percentile(ms, 99))} ms, min ${fmt(Math.min(...ms))}, max ${fmt(Math.max(...ms))} (n=${ms.length})`]];
}

/** Part 1 and 2: sequential posts with D = 200 ms. */
async function fanout(api: Api, nets: BenchNetworks): Promise<void> {
  nets.setDelay(D);
  console.log(`\n### Fan-out, D = ${D} ms, ${FANOUT_POSTS} sequential posts each`);

  const one: Sample[] = [];
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < FANOUT_POSTS; i++) {
    const s = await postOnce(api, ONE, 'one');
    one.push(s);
    const [a] = nets.arrivalsOf(s.post);
    if (a) { before.push(a.at - s.start); after.push(s.end - (a.at + D)); }
  }

  const five: Sample[] = [];
  for (let i = 0; i < FIVE_POSTS; i++) five.push(await postOnce(api, FIVE, 'five'));

  const nine: Sample[] = [];
  const spread: number[] = [];
  const waves: number[] = [];
  let telegramWaited = 0;
  let lastStart = 0;
  for (let i = 0; i < FANOUT_POSTS; i++) {
    const gap = lastStart + TELEGRAM_GAP_MS - Date.now();
    if (gap > 0) await sleep(gap);
    lastStart = Date.now();
    const s = await postOnce(api, NETWORKS, 'nine');
    nine.push(s);
    const arr = nets.arrivalsOf(s.post);
    if (arr.length !== NETWORKS.length) throw new Error(`expected ${NETWORKS.length} publishing calls, saw ${arr.length}`);
    spread.push(arr[arr.length - 1].at - arr[0].at);
    // A "wave" starts when a call arrives ≥ D/2 after the previous one: the calls of one worker batch arrive together.
    waves.push(1 + arr.slice(1).filter((x, k) => x.at - arr[k].at >= D / 2).length);
    const tg = arr.find((x) => x.network === 'telegram')!;
    const others = arr.filter((x) => x.network !== 'telegram');
    if (tg.at - Math.max(...others.map((x) => x.at)) >= 500) telegramWaited++;
  }

  const oneMs = one.map((s) => s.ms);
  const nineMs = nine.map((s) => s.ms);
  const waveCount = new Map<number, number>();
  for (const w of waves) waveCount.set(w, (waveCount.get(w) ?? 0) + 1);
  printRows([
    ...latencyRows('1 network (discord)', oneMs),
    ...latencyRows(`${FIVE.length} networks (1 batch)`, five.map((s) => s.ms)),
    ...latencyRows(`${NETWORKS.length} networks`, nineMs),
    ['ratio 9 / 1', `p50 ${fmt(percentile(nineMs, 50) / percentile(oneMs, 50), 2)}, p99 ${fmt(percentile(nineMs, 99) / percentile(oneMs, 99), 2)}`],
    ['ratio 5 / 1', `p50 ${fmt(percentile(five.map((s) => s.ms), 50) / percentile(oneMs, 50), 2)}`],
    ['9-network calls spread', `first → last publishing call at the fakes: p50 ${fmt(percentile(spread, 50), 0)} ms, max ${fmt(Math.max(...spread), 0)} ms`],
    ['9-network waves', `${[...waveCount].sort(([a], [b]) => a - b).map(([w, n]) => `${w} wave(s) × ${n} posts`).join(', ')} (worker batch size ${workers[0].batchSize})`],
    ['telegram paced waits', `${telegramWaited} of ${FANOUT_POSTS} (posts started ≥ ${TELEGRAM_GAP_MS} ms apart)`],
  ]);

  console.log(`\n### Service overhead over D, 1 network (discord), D = ${D} ms`);
  printRows([
    ...latencyRows('latency − D', oneMs.map((m) => m - D)),
    ...latencyRows('before: sent → call at fake', before),
    ...latencyRows('after: fake answers → reply', after),
  ]);

  // The handler reads the post's networks at once when the worker rings after settling, with a read every 200 ms
  // as a backstop (create-post.ts waitForResults; in AWS a read every 20 ms): latency − D should stay flat across D.
  const steps: Array<[string, string]> = [];
  for (const d of QUANT_DELAYS) {
    nets.setDelay(d);
    const ms: number[] = [];
    for (let i = 0; i < QUANT_POSTS; i++) ms.push((await postOnce(api, ONE, 'step')).ms);
    steps.push([`D = ${d} ms`, `latency p50 ${fmt(percentile(ms, 50), 0)} ms → latency − D p50 ${fmt(percentile(ms, 50) - d, 0)} ms (n=${ms.length})`]);
  }
  console.log(`\n### Latency against D, 1 network (discord): the wait for the result`);
  printRows(steps);
}

/** Part 4: the fan-out ratio 4 / 1 at D = 300 ms and the overhead with networks answering at once. */
async function localSpeed(api: Api, nets: BenchNetworks): Promise<void> {
  nets.setDelay(SPEED_D);
  const one: number[] = [];
  const four: number[] = [];
  // interleaved, so that a change of load on the machine weighs on both sides alike
  for (let i = 0; i < SPEED_POSTS; i++) {
    one.push((await postOnce(api, ONE, 'speed1')).ms);
    four.push((await postOnce(api, FOUR, 'speed4')).ms);
  }
  nets.setDelay(0);
  const instant: number[] = [];
  for (let i = 0; i < INSTANT_POSTS; i++) instant.push((await postOnce(api, ONE, 'instant')).ms);
  console.log(`\n### Local speed: fan-out 4 / 1 at D = ${SPEED_D} ms, overhead with networks answering at once`);
  printRows([
    ...latencyRows('1 network (discord), D = 300', one),
    ...latencyRows(`${FOUR.length} networks (${FOUR.join(', ')}), D = 300`, four),
    ['ratio 4 / 1', `p50 ${fmt(percentile(four, 50) / percentile(one, 50), 2)} (goal ≤ 1.10), p99 ${fmt(percentile(four, 99) / percentile(one, 99), 2)}`],
    ...latencyRows('overhead, D = 0, 1 network', instant),
    ['overhead goal', 'p50 ≤ 25 ms, p99 ≤ 60 ms'],
  ]);
}

/** Part 3: closed-loop clients, D = 0. */
async function throughput(api: Api, nets: BenchNetworks, platforms: BenchNetwork[]): Promise<void> {
  nets.setDelay(0);
  const statuses = new Map<string, number>();
  const notPublished = new Map<string, number>();
  const latencies: number[] = [];
  const starts = new Map<number, number>();
  let measuring = false;
  let done = 0;
  let stopAt = Date.now() + WARMUP_SECONDS * 1000;
  const loop = async () => {
    while (Date.now() < stopAt) {
      const { post, text } = nextPost(`tp${platforms.length}`);
      const t = performance.now();
      if (measuring) starts.set(post, Date.now());
      let status = 'error';
      let results: Array<{ platform: string; status: string; code?: string }> = [];
      try {
        const r = await api('POST', '/api/post', { platforms, text });
        status = String(r.status);
        results = (r.body.results as typeof results | undefined) ?? [];
      } catch (err) {
        status = `error ${(err as Error).message}`;
      }
      if (!measuring) continue;
      latencies.push(performance.now() - t);
      done++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      for (const x of results) if (x.status !== 'published') notPublished.set(`${x.platform} ${x.code ?? x.status}`, (notPublished.get(`${x.platform} ${x.code ?? x.status}`) ?? 0) + 1);
    }
  };
  // Warm-up: the same clients, figures discarded; then the measured window.
  await Promise.all(Array.from({ length: CLIENTS }, loop));
  measuring = true;
  const t0 = performance.now();
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  stopAt = Date.now() + DURATION_SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, loop));
  const seconds = (performance.now() - t0) / 1000;
  const elu = performance.eventLoopUtilization(elu0).utilization;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  // Request sent → the post's first / last publishing call at the fakes (queue wait + handler + worker pick-up).
  const firstCall: number[] = [];
  const lastCall: number[] = [];
  const byPost = new Map<number, number[]>();
  for (const a of nets.allArrivals()) if (a.post !== undefined && starts.has(a.post)) byPost.set(a.post, [...(byPost.get(a.post) ?? []), a.at]);
  for (const [post, ats] of byPost) { firstCall.push(Math.min(...ats) - starts.get(post)!); lastCall.push(Math.max(...ats) - starts.get(post)!); }
  const non200 = [...statuses].filter(([s]) => s !== '200').reduce((n, [, c]) => n + c, 0);

  console.log(`\n### Sustained, D = 0, ${CLIENTS} concurrent clients, ${platforms.length} network(s) per post (${platforms.join(', ')}), ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s`);
  printRows([
    ['posts/s', `${fmt(done / seconds)} (${done} posts in ${fmt(seconds, 2)} s; ${fmt((done * platforms.length) / seconds)} network sends/s)`],
    ...latencyRows('latency', latencies),
    ...latencyRows('sent → first call at fake', firstCall),
    ...(platforms.length > 1 ? latencyRows('sent → last call at fake', lastCall) : []),
    ['event loop busy', `${fmt(elu * 100, 0)} % (main thread: HTTP, handlers, worker, fauxqs and the fakes; dynalite has its own thread)`],
    ['process CPU per post', `${fmt(cpuMs / done)} ms (user + system of the whole process ÷ posts; ${fmt(cpuMs / 1000 / seconds, 2)} CPU-s per s)`],
    ['non-200 answers', `${non200}${non200 ? ` (${[...statuses].map(([s, c]) => `${s}×${c}`).join(', ')})` : ''}`],
    ['networks not published', notPublished.size ? [...notPublished].map(([k, c]) => `${k}×${c}`).join(', ') : '0'],
  ]);
  if (non200 > 0 || notPublished.size > 0) process.exitCode = 1;
}

export async function run(): Promise<void> {
  console.log(`\n## POST /api/post — local runtime, fake networks answering after D`);
  const nets = new BenchNetworks();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bench-publish-'));
  let rt: LocalRuntime | undefined;
  try {
    await nets.start();
    rt = await startLocalRuntime({
      port: 0, dataDir,
      env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_TARGETS: '1', DISABLE_RATE_LIMITS: '1', MASTODON_POLL_MS: '50', ...nets.runtimeEnv() },
    });
    const key = await signup(rt.url, `bench-publish-${RUN}@example.com`);
    const api = client(rt.url, key);
    for (const body of nets.connectBodies()) must(await api('POST', '/api/connect', body), `POST /api/connect ${body.platform}`);
    console.log(`scale account, ${NETWORKS.length} networks connected (${NETWORKS.join(', ')}); worker batch size ${workers[0].batchSize}; `
      + 'D applies to each network\'s publishing call only');

    // Warm-up (D = 0): load every handler and adapter once, then let Telegram's 1 s slot pass.
    for (let i = 0; i < 3; i++) await postOnce(api, NETWORKS, 'warm');
    await sleep(TELEGRAM_GAP_MS);
    nets.clearArrivals();

    await localSpeed(api, nets);
    if (process.env.PUBLISH_ONLY === 'speed') return;
    await fanout(api, nets);
    await throughput(api, nets, ONE);
    await throughput(api, nets, THREE);
  } finally {
    await rt?.stop();
    await nets.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

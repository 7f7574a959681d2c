import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { startLocalRuntime, type LocalRuntime } from '../infra/local/runtime';
import { DiscordFake } from '../shared/networks/discord/simulator';
import { logContext } from '../shared/log';
import { client, must, signup } from './support/api';
import { fmt, percentile, printRows } from './support/stats';

/**
 * The tail of POST /api/post with a network answering at once (the overhead of `PUBLISH_ONLY=speed npm run bench --
 * publish`, goal p99 ≤ 60 ms): TAIL_POSTS sequential posts to Discord through the whole local runtime, and for each
 * what else happened while it ran, to tell what makes the slowest posts slow:
 * - GC pauses (node:perf_hooks 'gc' entries: scavenges and mark-sweeps) inside the post;
 * - table and queue requests that were not the post's own (timed at the runtime's in-process transports): the local
 *   scheduler's poll of due timers, the minute sweeps, other queues' receives;
 * - the post's own path: request → first table request, SendMessageBatch → the worker's claim, the ring → the answer.
 * Printed: the distribution, then the slowest 5 % against the rest (how many had a GC pause or background work, and
 * how much), then the ten slowest posts one by one. Process CPU per post (every thread) beside wall time: at high
 * load wall time is mostly waiting for a CPU, which none of the causes above explains.
 */
const POSTS = Number(process.env.TAIL_POSTS ?? 300);
const WARM_UP = 15;

interface Request { what: string; own: boolean; start: number; end: number }
interface Sample { ms: number; cpu: number; gcMs: number; gcs: number; background: string[]; toFirst: number; sendToClaim: number; ringToAnswer: number }

export async function run(): Promise<void> {
  const discord = new DiscordFake();
  await discord.start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tail-'));
  let rt: LocalRuntime | undefined;
  const pauses: Array<{ start: number; ms: number }> = [];
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) pauses.push({ start: e.startTime, ms: e.duration }); });
  try {
    rt = await startLocalRuntime({ port: 0, dataDir, env: { LOG_LEVEL: 'silent', POWERTOOLS_METRICS_DISABLED: 'true', ALLOW_PRIVATE_TARGETS: '1', DISABLE_RATE_LIMITS: '1' } });
    const api = client(rt.url, await signup(rt.url, `bench-tail-${Date.now().toString(36)}@example.com`));
    must(await api('POST', '/api/connect', { platform: 'discord', credentials: { webhook_url: discord.webhookUrl } }), 'connect discord');
    for (let i = 0; i < WARM_UP; i++) must(await api('POST', '/api/post', { platforms: ['discord'], text: `tail warm-up ${i} ${Date.now()}` }), 'post');

    let requests: Request[] = [];
    for (const [engine, transport] of Object.entries(rt.transports)) {
      const handle = transport.handle;
      transport.handle = function timed(this: typeof transport, ...args: Parameters<typeof handle>) {
        const out = handle.apply(this, args);
        const ctx = logContext();
        const kind = String(ctx.dispatch_kind ?? '');
        const target = String(args[0].headers['x-amz-target'] ?? '').split('.').pop();
        let queue = '';
        if (engine === 'sqs') {
          try { queue = String((JSON.parse(new TextDecoder().decode(args[0].body as Uint8Array)) as { QueueUrl?: string }).QueueUrl ?? '').split('/').pop() ?? ''; } catch { /* no body */ }
        }
        const sweep = /-sweep$|^schedule-fan-out$/.test(kind);
        // the post's own: a request or queue message's work (a correlation id), and the publish queue's poller
        const own = (!!ctx.correlation_id && !sweep) || queue === 'publish';
        const what = sweep ? kind : engine === 'sqs' ? `SQS ${target} ${queue}` : ctx.correlation_id ? `DynamoDB ${target}` : `DynamoDB ${target} (scheduler poll)`;
        const r: Request = { what, own, start: performance.now(), end: NaN };
        requests.push(r);
        void out.then(() => { r.end = performance.now(); }, () => { r.end = performance.now(); });
        return out;
      };
    }
    const signal = rt.deps.resultSignal;
    const ring = signal.ring.bind(signal);
    let rungAt: number | undefined;
    signal.ring = (...args: Parameters<typeof ring>) => { rungAt ??= performance.now(); return ring(...args); };
    observer.observe({ entryTypes: ['gc'] });

    const samples: Sample[] = [];
    for (let i = 0; i < POSTS; i++) {
      requests = [];
      rungAt = undefined;
      const c0 = process.cpuUsage();
      const t = performance.now();
      must(await api('POST', '/api/post', { platforms: ['discord'], text: `tail ${i} ${Date.now()}` }), 'post');
      const end = performance.now();
      const c = process.cpuUsage(c0);
      const inPost = pauses.filter((p) => p.start >= t && p.start <= end);
      const own = requests.filter((r) => r.own);
      const send = own.find((r) => r.what === 'SQS SendMessageBatch publish');
      const claim = own.find((r) => send && r.what === 'DynamoDB UpdateItem' && r.start > send.start);
      samples.push({
        ms: end - t, cpu: (c.user + c.system) / 1000, gcMs: inPost.reduce((a, p) => a + p.ms, 0), gcs: inPost.length,
        background: requests.filter((r) => !r.own && r.start < end).map((r) => r.what),
        toFirst: (own[0]?.start ?? NaN) - t, sendToClaim: claim && send ? claim.start - send.start : NaN, ringToAnswer: rungAt !== undefined ? end - rungAt : NaN,
      });
    }

    const ms = samples.map((s) => s.ms);
    const cut = percentile(ms, 95);
    const slow = samples.filter((s) => s.ms >= cut);
    const rest = samples.filter((s) => s.ms < cut);
    const share = (xs: Sample[], f: (s: Sample) => boolean) => `${xs.filter(f).length}/${xs.length}`;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const dist = (label: string, xs: number[]): [string, string] => [label, `p50 ${fmt(percentile(xs, 50))}, p90 ${fmt(percentile(xs, 90))}, p99 ${fmt(percentile(xs, 99))}, max ${fmt(Math.max(...xs))} ms`];
    console.log(`\n## The tail of POST /api/post, 1 network answering at once (${POSTS} sequential posts after ${WARM_UP} warm-up)`);
    printRows([
      dist('latency', ms),
      dist('process CPU per post (every thread)', samples.map((s) => s.cpu)),
      dist('GC pauses inside a post', samples.map((s) => s.gcMs)),
      dist('request sent → first table request', samples.map((s) => s.toFirst)),
      dist('SendMessageBatch → the worker\'s claim', samples.map((s) => s.sendToClaim).filter(Number.isFinite)),
      dist('the ring → the answer received', samples.map((s) => s.ringToAnswer).filter(Number.isFinite)),
    ]);
    console.log(`\n### The slowest 5 % (≥ ${fmt(cut)} ms) against the rest`);
    printRows([
      ['with a GC pause', `${share(slow, (s) => s.gcs > 0)} (mean ${fmt(mean(slow.map((s) => s.gcMs)))} ms) vs ${share(rest, (s) => s.gcs > 0)} (mean ${fmt(mean(rest.map((s) => s.gcMs)))} ms)`],
      ['with background table/queue work', `${share(slow, (s) => s.background.length > 0)} vs ${share(rest, (s) => s.background.length > 0)}`],
      ['process CPU per post, mean', `${fmt(mean(slow.map((s) => s.cpu)))} vs ${fmt(mean(rest.map((s) => s.cpu)))} ms`],
    ]);
    console.log('\n### The ten slowest posts');
    const rows: Array<[string, string]> = [...samples].sort((a, b) => b.ms - a.ms).slice(0, 10).map((s) => [
      `${fmt(s.ms)} ms`,
      `GC ${fmt(s.gcMs)} ms (${s.gcs}), CPU ${fmt(s.cpu)} ms, first request at ${fmt(s.toFirst)}, send → claim ${fmt(s.sendToClaim)}, ring → answer ${fmt(s.ringToAnswer)}; background: ${[...new Set(s.background)].join(', ') || 'none'}`,
    ]);
    printRows(rows);
  } finally {
    observer.disconnect();
    await rt?.stop();
    await discord.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalRuntime } from '../infra/local/runtime';
import type { Deps } from '../shared/app/deps';
import { client, must, signup } from './support/api';
import { fmt, percentile, printRows } from './support/stats';
import { newId } from '../shared/domain/ids';
import type { NetworkRecord, PostRecord } from '../shared/ports/publishing';
import type { PlatformName } from '../shared/domain/platforms';

/**
 * The dashboard through the whole local runtime (HTTP server → v2 event → middy → dynalite): page render times of
 * the Overview and of the Posts page of an account with 1,000 posts (first page, and a filter that scans them all),
 * then Export CSV of 10,000 posts (time to the download link, download, and the process's peak RSS while exporting;
 * the runtime runs in this process). Posts are written straight into the table (seeding is not what is measured).
 * First, the Overview with charts of 10,000 posts over 90 days (`DASHBOARD_BENCH=charts` runs only that part).
 */
const RENDERS = 60;
const NETS: PlatformName[] = ['telegram', 'discord', 'bluesky'];

async function seed(deps: Deps, accountId: string, brandId: string, count: number, startMs: number, spacingMs = 1000) {
  let next = 0;
  const one = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const at = startMs + i * spacingMs;
      const id = newId('pst', at);
      const platforms = NETS.slice(0, 1 + (i % 3));
      const post: PostRecord = {
        id, account_id: accountId, brand_id: brandId, brand_name: 'Default', source: i % 5 ? 'api' : 'schedule', idempotency_key: null, platforms,
        payload: { text: `Bench post ${i}, with "quotes", commas and a formula =SUM(A1)`, media: [], per_platform: {} }, created_at: new Date(at).toISOString(),
      };
      const networks: NetworkRecord[] = platforms.map((platform, k) => ({
        post_id: id, account_id: accountId, platform, state: 'done', deferrals: 0, reserved: true,
        result: (i + k) % 17 ? { platform, ok: true, status: 'published', url: `https://example.com/${id}/${platform}` } : { platform, ok: false, status: 'failed', code: 'rejected', error: 'refused' },
      }));
      await deps.posts.create(post, networks);
    }
  };
  await Promise.all(Array.from({ length: 16 }, one));
}

async function signIn(base: string, email: string): Promise<string> {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  await fetch(`${base}/dashboard/sign-in`, { method: 'POST', headers: form, body: new URLSearchParams({ email }).toString() });
  const outbox = JSON.parse(must(await client(base)('GET', '/dev/outbox'), 'outbox').text) as Array<{ to: string; subject: string; links: string[] }>;
  const token = new URL(outbox.find((m) => m.to === email && m.subject.includes('sign-in'))!.links[0]).searchParams.get('token')!;
  const res = await fetch(`${base}/dashboard/sign-in/link`, { method: 'POST', redirect: 'manual', headers: form, body: `token=${token}` });
  return res.headers.getSetCookie()[0].split(';')[0];
}

async function timed(url: string, cookie: string, n: number) {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    ms.push(performance.now() - t);
    bytes = text.length;
  }
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), bytes };
}

/**
 * The Overview with charts of an account with 10,000 posts over the last 90 days (about 111 a day, up to now): the
 * first view of 90 days (sums up every day from the posts and stores the finished days' summaries), then views of
 * 30 and 90 days (stored summaries + today's posts). Target: p50 ≤ 80 ms.
 */
async function runCharts(): Promise<void> {
  console.log(`\n## Dashboard Overview with charts — 10,000 posts over 90 days, local runtime (${RENDERS} views per range after 5 warm-up)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bench-'));
  const rt = await startLocalRuntime({ port: 0, dataDir, env: { LOG_LEVEL: 'silent', DISABLE_RATE_LIMITS: '1' } });
  try {
    const key = await signup(rt.url, 'dash-charts@example.com', 'scale');
    const me = must(await client(rt.url, key)('GET', '/api/me'), 'me').body as { account: { id: string }; brands: Array<{ id: string }> };
    const cookie = await signIn(rt.url, 'dash-charts@example.com');
    const span = 90 * 86_400_000;
    const t0 = Date.now();
    await seed(rt.deps, me.account.id, me.brands[0].id, 10_000, Date.now() - span + 60_000, Math.floor(span / 10_000) - 10);
    console.log(`seeded 10,000 posts over 90 days in ${fmt((Date.now() - t0) / 1000)} s`);
    const first = performance.now();
    const res = await fetch(`${rt.url}/dashboard?days=90`, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`overview: HTTP ${res.status}`);
    await res.text();
    const rows: Array<[string, string]> = [['first view of 90 days (sums up 10,000 posts, stores 89 daily summaries)', `${fmt(performance.now() - first, 0)} ms`]];
    for (const days of [30, 90]) {
      const url = `${rt.url}/dashboard?days=${days}`;
      await timed(url, cookie, 5);
      const r = await timed(url, cookie, RENDERS);
      rows.push([`overview, ${days} days of charts (stored summaries + today's posts)`, `p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms, ${fmt(r.bytes / 1024)} KiB`]);
    }
    printRows(rows);
  } finally {
    await rt.stop();
  }
}

export async function run(): Promise<void> {
  await runCharts();
  if (process.env.DASHBOARD_BENCH === 'charts') return;
  console.log(`\n## Dashboard — local runtime, sequential requests (${RENDERS} per page after 5 warm-up)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bench-'));
  const rt = await startLocalRuntime({ port: 0, dataDir, env: { LOG_LEVEL: 'silent', DISABLE_RATE_LIMITS: '1' } });
  try {
    const key = await signup(rt.url, 'dash-bench@example.com', 'scale');
    const me = must(await client(rt.url, key)('GET', '/api/me'), 'me').body as { account: { id: string }; brands: Array<{ id: string }> };
    const cookie = await signIn(rt.url, 'dash-bench@example.com');
    const t0 = Date.now();
    await seed(rt.deps, me.account.id, me.brands[0].id, 1_000, Date.UTC(2026, 9, 1));
    console.log(`seeded 1,000 posts in ${fmt((Date.now() - t0) / 1000)} s`);
    const rows: Array<[string, string]> = [];
    for (const [label, p] of [['overview', '/dashboard'], ['posts, 1,000 in the account (first 50)', '/dashboard/posts'], ['posts filtered status=failed (scans all 1,000)', '/dashboard/posts?status=failed&platform=bluesky']]) {
      await timed(rt.url + p, cookie, 5);
      const r = await timed(rt.url + p, cookie, RENDERS);
      rows.push([label, `p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms, ${fmt(r.bytes / 1024)} KiB`]);
    }
    printRows(rows);

    const t1 = Date.now();
    await seed(rt.deps, me.account.id, me.brands[0].id, 9_000, Date.UTC(2026, 9, 20));
    console.log(`\n### Export CSV of 10,000 posts (seeded 9,000 more in ${fmt((Date.now() - t1) / 1000)} s)`);
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
    const t = performance.now();
    const res = await fetch(`${rt.url}/dashboard/posts/export`, { headers: { cookie }, redirect: 'manual' });
    const exported = performance.now() - t;
    clearInterval(sampler);
    if (res.status !== 303) throw new Error(`export: HTTP ${res.status} ${await res.text()}`);
    const d = performance.now();
    const csv = await (await fetch(res.headers.get('location')!)).text();
    const downloaded = performance.now() - d;
    const lines = csv.split('\r\n').length - 2;
    printRows([
      ['export (rows streamed into storage, 303)', `${fmt(exported / 1000, 2)} s`],
      ['download', `${fmt(downloaded, 0)} ms, ${fmt(csv.length / 2 ** 20, 2)} MiB, ${lines.toLocaleString('en-US')} rows (one per network)`],
      ['RSS before / peak while exporting', `${fmt(base / 2 ** 20)} MiB / ${fmt(peak / 2 ** 20)} MiB (+${fmt((peak - base) / 2 ** 20)} MiB; whole process incl. dynalite and s3rver)`],
    ]);
  } finally {
    await rt.stop();
  }
}

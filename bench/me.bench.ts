import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startLocalRuntime } from '../infra/local/runtime';
import { client, must, signup } from './support/api';
import { fmt, printRows } from './support/stats';

/**
 * Authenticated GET /api/me through the whole local runtime (HTTP server → API Gateway v2 event → middy handler →
 * dynalite), 50 concurrent connections, 2 s warm-up then 10 s measured.
 *
 * The scale plan allows 1,200 requests per key per clock minute (a fixed window), so the load is spread over a pool
 * of keys: the Authorization header rotates round-robin per request (autocannon `requests[].setupRequest`). The pool
 * is sized from the warm-up's throughput so that even if warm-up and run fall into the same minute window, no key
 * gets more than ~2/3 of its budget; extra accounts are signed up when one account's 21 keys are not enough.
 */
const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = 10;
const PER_KEY_PER_MINUTE = 1_200; // scale plan: api_requests_per_minute_per_key
const HEADROOM = 1.5;
const KEYS_PER_ACCOUNT = 21; // the confirmation key + 20 POST /api/keys a day
const INITIAL_KEYS = 8; // enough for the warm-up on a fast machine (8 × 1,200 in 2 s = 4,800 req/s)

/** API keys spread over as many scale accounts as needed. */
class KeyPool {
  readonly keys: string[] = [];
  private accounts: Array<{ first: string; count: number }> = [];

  constructor(private readonly base: string) {}

  get accountCount(): number { return this.accounts.length; }

  async grow(target: number): Promise<void> {
    while (this.keys.length < target) {
      let acc = this.accounts.find((a) => a.count < KEYS_PER_ACCOUNT);
      if (!acc) {
        const first = await signup(this.base, `bench-${this.accounts.length + 1}-${Date.now()}@example.com`);
        acc = { first, count: 1 };
        this.accounts.push(acc);
        this.keys.push(first);
        continue;
      }
      const r = must(await client(this.base, acc.first)('POST', '/api/keys', { name: `bench ${acc.count}` }), 'POST /api/keys');
      this.keys.push(r.body.api_key as string);
      acc.count++;
    }
  }
}

function cannon(url: string, pool: KeyPool, seconds: number): Promise<autocannon.Result> {
  let next = 0;
  return Promise.resolve(autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    requests: [{
      method: 'GET',
      path: '/api/me',
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${pool.keys[next++ % pool.keys.length]}` } }),
    }],
  }));
}

function codes(r: autocannon.Result): string {
  return Object.entries(r.statusCodeStats).map(([code, s]) => `${code}×${s.count}`).join(', ') || 'none';
}

export async function run(): Promise<void> {
  console.log(`\n## GET /api/me — local runtime, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-bench-'));
  const rt = await startLocalRuntime({ port: 0, dataDir, env: { LOG_LEVEL: 'silent' } });
  try {
    const url = rt.url;
    const pool = new KeyPool(url);
    await pool.grow(INITIAL_KEYS);
    const probe = must(await client(url, pool.keys[0])('GET', '/api/me'), 'GET /api/me');
    console.log(`response: ${probe.text.length} bytes, plan ${String(probe.body.plan)}`);

    const warm = await cannon(url, pool, WARMUP_SECONDS);
    // Worst case: the warm-up and the whole run land in one per-key minute window.
    const expected = warm.requests.total + (warm.requests.total / warm.duration) * DURATION_SECONDS;
    await pool.grow(Math.ceil((expected * HEADROOM) / PER_KEY_PER_MINUTE));
    console.log(`warm-up: ${warm.requests.total} requests (${codes(warm)}); key pool: ${pool.keys.length} scale keys over ${pool.accountCount} account(s), `
      + `rotated per request → ≤ ${Math.ceil(expected / pool.keys.length)} requests per key per minute expected (limit ${PER_KEY_PER_MINUTE})`);

    const r = await cannon(url, pool, DURATION_SECONDS);
    const rows: Array<[string, string]> = [
      ['requests/s (mean)', fmt(r.requests.mean)],
      ['latency p50', `${fmt(r.latency.p50)} ms`],
      ['latency p97.5', `${fmt(r.latency.p97_5)} ms`],
      ['latency p99', `${fmt(r.latency.p99)} ms`],
      ['latency mean', `${fmt(r.latency.mean, 2)} ms`],
      ['requests', `${r.requests.total} in ${fmt(r.duration, 2)} s`],
      ['non-2xx', String(r.non2xx)],
      ['errors / timeouts', `${r.errors} / ${r.timeouts}`],
      ['status codes', codes(r)],
    ];
    printRows(rows);
    if (r.non2xx > 0 || r.errors > 0) {
      console.log(`  WARNING: ${r.non2xx} non-2xx and ${r.errors} errors${r['4xx'] ? ' (429s mean the per-key limit was exceeded: add keys)' : ''}`);
      process.exitCode = 1;
    }
  } finally {
    await rt.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

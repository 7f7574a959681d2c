import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector';
import { startLocalRuntime } from '../infra/local/runtime';
import { client, must, signup } from './support/api';
import { BenchNetworks } from './support/networks';

async function main() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const nets = new BenchNetworks();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-prof-'));
  await nets.start();
  const rt = await startLocalRuntime({ port: 0, dataDir, env: { LOG_LEVEL: 'silent', ALLOW_PRIVATE_TARGETS: '1', DISABLE_RATE_LIMITS: '1', MASTODON_POLL_MS: '50', ...nets.runtimeEnv() } });
  const key = await signup(rt.url, `prof-${Date.now()}@example.com`);
  const api = client(rt.url, key);
  for (const body of nets.connectBodies()) must(await api('POST', '/api/connect', body), 'connect');
  nets.setDelay(0);
  const n = Number(process.env.N ?? 150);
  const ms: number[] = [];
  const session = new Session(); session.connect();
  const post = (m: string, params?: object) => new Promise<any>((res, rej) => session.post(m, params ?? {}, (e, r) => (e ? rej(e) : res(r))));
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n + 10; i++) {
    if (i === 10) { await post('Profiler.enable'); await post('Profiler.setSamplingInterval', { interval: 200 }); await post('Profiler.start'); }
    const t = performance.now();
    must(await api('POST', '/api/post', { platforms: ['discord'], text: `prof ${Date.now()} post${i}` }), 'post');
    if (i >= 10) ms.push(performance.now() - t);
  }
  const { profile } = await post('Profiler.stop');
  fs.writeFileSync(process.env.PROF_OUT ?? '/tmp/lsprof/main.cpuprofile', JSON.stringify(profile));
  ms.sort((a, b) => a - b);
  const cpu = process.cpuUsage(cpu0);
  console.log(`p50 ${ms[Math.floor(n / 2)].toFixed(1)} p99 ${ms[Math.floor(n * 0.99)].toFixed(1)} cpu per post (all threads) ${((cpu.user + cpu.system) / 1000 / (n + 10)).toFixed(1)} ms`);
  await rt.stop(); await nets.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
void main();

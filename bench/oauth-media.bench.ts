import { performance } from 'node:perf_hooks';
import type { NetworkContext } from '../shared/ports/networks';
import { createYouTubeAdapter } from '../shared/networks/youtube';
import { weightedLength } from '../shared/networks/x';
import { YouTubeFake } from '../shared/networks/youtube/simulator';
import { fmt, printRows } from './support/stats';

/**
 * 1. YouTube resumable upload through the adapter to a loopback fake (the fake copies every chunk into its session
 *    buffer, as a server would store it): 64 MiB in 1, 8 and 32 MiB chunks; then the same upload cut after 40 % and
 *    finished by resume() (probe + the rest). MiB/s is bytes sent over wall time, media already in memory.
 * 2. X weighted length (twitter-text weighting): µs per 280-character post, Latin / CJK + emoji / with links.
 */
const MIB = 1024 * 1024;
const SIZE = 64 * MIB;

function context(credentials: Record<string, string>, bytes: Uint8Array): NetworkContext {
  const timeoutMs = 120_000;
  return {
    credentials, deadline: Date.now() + timeoutMs, signal: AbortSignal.timeout(timeoutMs), fetch: globalThis.fetch,
    fetchMedia: async () => ({ bytes, content_type: 'video/mp4', filename: 'clip.mp4' }),
    pace: async () => 0, now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
}

async function youtube(): Promise<void> {
  const fake = new YouTubeFake();
  await fake.start();
  const bytes = new Uint8Array(SIZE).map((_, i) => i % 251);
  const creds = { access_token: fake.token, channel_id: 'UCbench' };
  const content = { text: 'bench', title: 'bench', media: [{ url: 'https://media.example/clip.mp4', kind: 'video' as const }], thread: [], send_key: 'b' };
  const rows: Array<[string, string]> = [];
  try {
    for (const chunk of [1, 8, 32]) {
      fake.reset();
      const adapter = createYouTubeAdapter({ apiBase: fake.url, uploadBase: fake.url, chunkSize: chunk * MIB });
      const t0 = performance.now();
      const out = await adapter.publish(content, context(creds, bytes));
      const ms = performance.now() - t0;
      if (!out.ok || out.status !== 'published') throw new Error(`upload failed: ${JSON.stringify(out)}`);
      rows.push([`publish, ${chunk} MiB chunks`, `${SIZE / (chunk * MIB)} PUTs, ${fmt(ms)} ms, ${fmt(SIZE / MIB / (ms / 1000))} MiB/s`]);
    }
    fake.reset();
    const adapter = createYouTubeAdapter({ apiBase: fake.url, uploadBase: fake.url, chunkSize: 8 * MIB });
    let puts = 0;
    // Cut the upload after 40 %: the fourth chunk stores 1.6 MiB of its 8 MiB, then answers 503.
    const cut = Math.floor(SIZE * 0.4);
    const original = fake.server.handler;
    fake.server.handler = (req) => {
      if (req.method === 'PUT' && ++puts === 4) fake.interruptNext(cut - 3 * 8 * MIB, { status: 503, body: 'backend error' });
      return original(req);
    };
    const t0 = performance.now();
    const first = await adapter.publish(content, context(creds, bytes));
    const t1 = performance.now();
    const cutPuts = puts;
    if (!first.ok || !first.resume) throw new Error(`expected processing, got ${JSON.stringify(first)}`);
    const done = await adapter.resume!(content, first.resume.state, context(creds, bytes));
    const t2 = performance.now();
    fake.server.handler = original;
    if (!done.ok || done.status !== 'published') throw new Error(`resume failed: ${JSON.stringify(done)}`);
    const session = [...fake.sessions.values()][0];
    rows.push(['publish cut at 40 % (503)', `${cutPuts} PUTs, ${fmt(t1 - t0)} ms, ${fmt((cut / MIB) / ((t1 - t0) / 1000))} MiB/s`]);
    rows.push(['resume (probe + rest)', `1 probe + ${session.ranges.length - 4} PUTs, ${fmt(t2 - t1)} ms, ${fmt(((SIZE - cut) / MIB) / ((t2 - t1) / 1000))} MiB/s`]);
    console.log(`\n## YouTube resumable upload, ${SIZE / MIB} MiB to a loopback fake`);
    printRows(rows);
    console.log(`resume continued at byte ${session.ranges[4]?.[0]} (${cut} expected); session holds ${session.received} bytes, equal: ${Buffer.from(bytes).equals(fake.bytesOf(session))}`);
  } finally {
    await fake.stop();
  }
}

function xLength(): void {
  const samples: Array<[string, string]> = [
    ['Latin, 280 chars', 'The quick brown fox jumps over the lazy dog. '.repeat(7).slice(0, 280)],
    ['CJK + emoji', '日本語のテキスト👍🏽'.repeat(14).slice(0, 140)],
    ['text with 3 links', `Launch notes https://example.com/${'a'.repeat(60)} and www.acme.io/blog, docs at acme.dev/start ${'x'.repeat(120)}`],
  ];
  const rows: Array<[string, string]> = [];
  for (const [label, text] of samples) {
    const n = 20_000;
    let sink = 0;
    for (let i = 0; i < 1000; i++) sink += weightedLength(text);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) sink += weightedLength(text);
    const us = ((performance.now() - t0) * 1000) / n;
    if (sink <= 0) throw new Error('no length');
    rows.push([label, `weighted ${weightedLength(text)}, ${fmt(us, 2)} µs/post`]);
  }
  console.log('\n## X weighted length');
  printRows(rows);
}

export async function run(): Promise<void> {
  await youtube();
  xLength();
}

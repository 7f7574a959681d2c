import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startLocalRuntime } from '../infra/local/runtime';
import { client, must, signup } from './support/api';
import { fmt, percentile, printRows } from './support/stats';

/**
 * The media upload cycle through the whole local runtime, sequentially: POST /api/media/upload-url → PUT the bytes
 * to the embedded S3 server (s3rver, on disk) → GET /api/media/finalize (HEAD + first bytes + conditional update) →
 * GET media_url (the 302) → the download behind it. Two sizes: 1 MB × 20 and 20 MB × 5. Figures are per step, in ms.
 * s3rver writes to disk and is much slower than S3 for large bodies: read the PUT throughput as a local figure only.
 */
const CASES = [{ label: '1 MB', bytes: 1024 * 1024, runs: 20 }, { label: '20 MB', bytes: 20 * 1024 * 1024, runs: 5 }];

function pngOf(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(size));
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return out;
}

export async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-media-'));
  const rt = await startLocalRuntime({ port: 0, dataDir: dir, env: { LOG_LEVEL: 'silent' } });
  try {
    const key = await signup(rt.url, 'bench-media@example.com');
    const api = client(rt.url, key);
    console.log('\n## Media upload cycle (local runtime, sequential)');
    for (const c of CASES) {
      const body = pngOf(c.bytes);
      const t = { url: [] as number[], put: [] as number[], finalize: [] as number[], redirect: [] as number[], download: [] as number[] };
      for (let i = 0; i < c.runs; i++) {
        let s = performance.now();
        const up = must(await api('POST', '/api/media/upload-url', { content_type: 'image/png', size_bytes: c.bytes }), 'upload-url');
        t.url.push(performance.now() - s);
        s = performance.now();
        const put = await fetch(up.body.upload_url as string, { method: 'PUT', headers: { 'content-type': 'image/png' }, body });
        await put.arrayBuffer();
        if (put.status !== 200) throw new Error(`PUT: HTTP ${put.status}`);
        t.put.push(performance.now() - s);
        s = performance.now();
        const fin = must(await api('GET', `/api/media/finalize?path=${encodeURIComponent(up.body.path as string)}`), 'finalize');
        t.finalize.push(performance.now() - s);
        s = performance.now();
        const redirect = await fetch(fin.body.media_url as string, { redirect: 'manual' });
        await redirect.arrayBuffer();
        t.redirect.push(performance.now() - s);
        s = performance.now();
        const got = await fetch(redirect.headers.get('location')!);
        const bytes = (await got.arrayBuffer()).byteLength;
        if (bytes !== c.bytes) throw new Error(`download: ${bytes} bytes`);
        t.download.push(performance.now() - s);
      }
      const row = (xs: number[]) => `p50 ${fmt(percentile(xs, 50))}  p95 ${fmt(percentile(xs, 95))}  max ${fmt(Math.max(...xs))}`;
      const mbps = (c.bytes / 2 ** 20) / (percentile(t.put, 50) / 1000);
      console.log(`\n${c.label} × ${c.runs}`);
      printRows([
        ['POST /api/media/upload-url', row(t.url)],
        ['PUT to storage', `${row(t.put)}  (${fmt(mbps)} MB/s at p50)`],
        ['GET /api/media/finalize', row(t.finalize)],
        ['GET media_url (302)', row(t.redirect)],
        ['download behind it', row(t.download)],
      ]);
    }
  } finally {
    await rt.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

import os from 'node:os'; import fs from 'node:fs'; import path from 'node:path';
import { startLocalRuntime } from './infra/local/runtime';
(async () => {
  const rt = await startLocalRuntime({ port: 0, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'smk-')), env: { LOG_LEVEL: 'error' }, log: console.error });
  const j = async (m: string, p: string, b?: unknown, key?: string) => { const r = await fetch(rt.url + p, { method: m, headers: { 'content-type': 'application/json', ...(key ? { authorization: 'Bearer ' + key } : {}) }, body: b ? JSON.stringify(b) : undefined }); const t = await r.text(); try { return { s: r.status, b: JSON.parse(t) }; } catch { return { s: r.status, b: t }; } };
  await j('POST', '/api/signup', { email: 'a@example.com' });
  const ob = (await j('GET', '/dev/outbox')).b; const token = new URL(ob[0].links[0]).searchParams.get('token');
  const key = (await j('POST', '/api/signup/confirm', { token })).b.api_key;
  await j('POST', '/dev/plan', { email: 'a@example.com', plan: 'pro' });
  const sb = (await j('GET', '/dev/sandbox')).b;
  for (const [p, c] of Object.entries(sb.credentials)) console.log(p, JSON.stringify((await j('POST', '/api/connect', { platform: p, credentials: c }, key))).slice(0, 200));
  for (const p of ['tiktok', 'youtube', 'linkedin', 'facebook', 'instagram', 'x', 'reddit']) {
    const u = await j('POST', `/api/oauth/${p}/url`, {}, key);
    if (u.s !== 200) { console.log(p, 'url', u.s, JSON.stringify(u.b).slice(0, 200)); continue; }
    let next: string = u.b.url; let last: Response | undefined;
    for (let i = 0; i < 6 && next; i++) { last = await fetch(next, { redirect: 'manual' }); const loc = last.headers.get('location'); next = loc ? new URL(loc, next).toString() : ''; }
    console.log(p, 'oauth', last?.status, (await last?.text())?.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 300));
  }
  const post = await j('POST', '/api/post', { platforms: [...Object.keys(sb.credentials)], text: 'Hello sandbox', title: 'Hello' }, key);
  const post2 = await j('POST', '/api/post', { platforms: ['linkedin', 'x', 'facebook'], text: 'Hello oauth sandbox' }, key);
  console.log(post2.s, JSON.stringify(post2.b).slice(0, 600));
  const post3 = await j('POST', '/api/post', { platforms: ['tiktok', 'youtube'], text: 'Video', title: 'Video', video_url: sb.origin + '/sandbox/media/sample.mp4' }, key);
  console.log(post3.s, JSON.stringify(post3.b).slice(0, 600));
  const post4 = await j('POST', '/api/post', { platforms: ['instagram'], text: 'Photo', photo_url: sb.origin + '/sandbox/media/sample.jpg' }, key);
  console.log(post4.s, JSON.stringify(post4.b).slice(0, 600));
  console.log(JSON.stringify(post.b.results?.map((r: any) => [r.platform, r.ok, r.code ?? r.status, r.url])));
  console.log(JSON.stringify((await j('GET', '/dev/sandbox')).b.inbox.map((e: any) => [e.network, e.text])));
  await rt.stop();
})().catch((e) => { console.error(e); process.exit(1); });

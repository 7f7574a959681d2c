import { createFacebookAdapter } from '../shared/networks/facebook';
import { createInstagramAdapter } from '../shared/networks/instagram';
import { createLinkedinAdapter } from '../shared/networks/linkedin';
import { escapeLittleText } from '../shared/networks/linkedin/rules';
import { createRedditAdapter } from '../shared/networks/reddit';
import type { NetworkAdapter, PublishContent } from '../shared/ports/networks';
import { FacebookFake } from '../shared/networks/facebook/graph-simulator';
import { InstagramFake } from '../shared/networks/instagram/simulator';
import { LinkedinFake } from '../shared/networks/linkedin/simulator';
import { RedditFake } from '../shared/networks/reddit/simulator';
import { testContext } from '../test/networks/context';

/**
 * The OAuth adapters (LinkedIn, Facebook, Instagram, Reddit) against their loopback fakes: sequential publishes,
 * latency per publish (p50 / p95), i.e. the adapter's own cost plus the loopback HTTP round trips it makes
 * (network latency of the real services is not included). Also the LinkedIn commentary escaping on a 3000-char text.
 */
const RUNS = 300;

function pct(sorted: number[], p: number): number { return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]; }

async function measure(label: string, calls: number, once: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20; i++) await once();
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const out = await once();
    times.push(performance.now() - t);
    if (!(out as { ok?: boolean }).ok) throw new Error(`${label}: ${JSON.stringify(out)}`);
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  console.log(`| ${label} | ${calls} | ${pct(times, 50).toFixed(2)} | ${pct(times, 95).toFixed(2)} | ${(RUNS / (total / 1000)).toFixed(0)} |`);
}

export async function run(): Promise<void> {
  console.log(`\n## OAuth network adapters against loopback fakes (${RUNS} sequential publishes each)`);
  console.log('| publish | HTTP calls | p50 ms | p95 ms | publishes/s |');
  console.log('|---|---|---|---|---|');
  const content = (over: Partial<PublishContent> = {}): PublishContent => ({ text: 'Bench (v1) #ship', media: [], thread: [], send_key: 'k', ...over });
  const li = new LinkedinFake(); const fb = new FacebookFake(); const ig = new InstagramFake(); const rd = new RedditFake();
  await Promise.all([li.start(), fb.start(), ig.start(), rd.start()]);
  try {
    const cases: Array<[string, number, NetworkAdapter, Record<string, string>, PublishContent]> = [];
    li.media.set('a.png', { type: 'image/png', bytes: Buffer.alloc(200_000, 7) });
    const liCreds = { access_token: li.token(), author_urn: 'urn:li:person:abc123XYZ' };
    const liAdapter = createLinkedinAdapter({ apiBase: li.url });
    cases.push(['linkedin text', 1, liAdapter, liCreds, content()]);
    cases.push(['linkedin 1 image (200 kB)', 4, liAdapter, liCreds, content({ media: [{ url: li.mediaUrl('a.png'), kind: 'image' }] })]);
    const fbUser = fb.userToken();
    cases.push(['facebook text', 2, createFacebookAdapter({ apiBase: fb.url }), { access_token: fbUser, page_id: '101', page_access_token: fb.pageToken(fbUser, '101') }, content()]);
    const igUser = ig.userToken();
    cases.push(['instagram 1 photo', 4, createInstagramAdapter({ apiBase: ig.url }), { access_token: igUser, ig_user_id: '17841400000000001', page_access_token: ig.pageToken(igUser, '101') },
      content({ media: [{ url: 'https://cdn.example.com/a.jpg', kind: 'image' }] })]);
    cases.push(['reddit self post', 1, createRedditAdapter({ apiBase: rd.url }), { access_token: rd.token() }, content({ subreddit: 'test' })]);
    for (const [label, calls, adapter, creds, c] of cases) {
      await measure(label, calls, () => adapter.publish(c, testContext(creds, { timeoutMs: 10_000 }).ctx));
    }
    const text = 'Launch (v2) @team [beta] #ship https://ex.com/a_b '.repeat(60).slice(0, 3000);
    const n = 5000;
    const t = performance.now();
    for (let i = 0; i < n; i++) escapeLittleText(text);
    console.log(`\nescapeLittleText on 3000 characters: ${(((performance.now() - t) * 1000) / n).toFixed(1)} µs per call`);
  } finally {
    await Promise.all([li.stop(), fb.stop(), ig.stop(), rd.stop()]);
  }
}

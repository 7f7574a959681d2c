import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sandbox } from '../../infra/local/sandbox';
import { createBlueskyAdapter } from '../../shared/networks/bluesky';
import { createDevtoAdapter } from '../../shared/networks/devto';
import { createFacebookAdapter } from '../../shared/networks/facebook';
import { createHashnodeAdapter } from '../../shared/networks/hashnode';
import { createInstagramAdapter } from '../../shared/networks/instagram';
import { createLinkedinAdapter } from '../../shared/networks/linkedin';
import { createMastodonAdapter } from '../../shared/networks/mastodon';
import { createPinterestAdapter } from '../../shared/networks/pinterest';
import { createRedditAdapter } from '../../shared/networks/reddit';
import { createThreadsAdapter } from '../../shared/networks/threads';
import { createTikTokAdapter } from '../../shared/networks/tiktok';
import { createXAdapter } from '../../shared/networks/x';
import { createYouTubeAdapter } from '../../shared/networks/youtube';
import { PUB_ID } from '../../infra/local/sandbox/hashnode';
import type { SimulatedFigures } from '../../infra/local/sandbox/figures';
import { buildRegistry } from '../../shared/networks/registry';
import { parseConfig } from '../../shared/config';
import { METRIC_NAMES } from '../../shared/domain/analytics';
import type { MetricsReading } from '../../shared/domain/analytics';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { testContext } from './context';
import { ManualClock } from '../support/clock';

/**
 * `npm start` shows analytics: the simulator of every network with post analytics, mounted under /sandbox/<network>/
 * as the local server mounts it, answers the network's analytics request for a post published through it with
 * figures, and the figures grow with the time since the post was published.
 */
const sandbox = new Sandbox();
let server: http.Server;
const HOUR = 3600_000;
let figuresAt = Date.now();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => { void sandbox.handle(req, res, Buffer.concat(chunks)); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sandbox.mount(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const simulators: Array<{ figures: SimulatedFigures }> = [sandbox.x, sandbox.bluesky, sandbox.mastodon, sandbox.threads, sandbox.graph, sandbox.youtube, sandbox.reddit, sandbox.devto, sandbox.linkedin, sandbox.tiktok, sandbox.pinterest, sandbox.hashnode];
  for (const s of simulators) s.figures.now = () => figuresAt;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const cases = (): Array<[string, NetworkAdapter, Record<string, string>, Partial<PublishContent>]> => {
  const creds = sandbox.credentials();
  const fbUser = sandbox.graph.userToken();
  const video = { media: [{ url: sandbox.mediaUrl('sample.mp4'), kind: 'video' as const }] };
  const image = { media: [{ url: sandbox.mediaUrl('sample.jpg'), kind: 'image' as const }] };
  return [
    ['x', createXAdapter({ apiBase: sandbox.x.url }), { access_token: sandbox.x.token, user_id: sandbox.x.user.id, username: sandbox.x.user.username }, {}],
    ['bluesky', createBlueskyAdapter({ apiBase: sandbox.base('bluesky') }), creds.bluesky, {}],
    ['mastodon', createMastodonAdapter(), creds.mastodon, {}],
    ['threads', createThreadsAdapter({ apiBase: sandbox.threads.url, pollIntervalMs: 10, reserveMs: 10 }), { access_token: sandbox.threads.token, threads_user_id: sandbox.threads.userId, username: sandbox.threads.username }, {}],
    ['instagram', createInstagramAdapter({ apiBase: sandbox.graph.url, pollIntervalMs: 10, reserveMs: 10 }), { ig_user_id: '17841400000000001', page_access_token: sandbox.graph.pageToken(fbUser, '101') }, image],
    ['facebook', createFacebookAdapter({ apiBase: sandbox.graph.url }), { page_id: '101', page_access_token: sandbox.graph.pageToken(fbUser, '101') }, {}],
    ['youtube', createYouTubeAdapter({ apiBase: sandbox.youtube.url, uploadBase: sandbox.youtube.url }), { access_token: sandbox.youtube.token, channel_id: sandbox.youtube.channels[0].id }, { title: 'Sandbox title', ...video }],
    ['reddit', createRedditAdapter({ apiBase: sandbox.reddit.url }), { access_token: sandbox.reddit.token(), username: sandbox.reddit.username }, { subreddit: 'test', title: 'Sandbox title' }],
    ['devto', createDevtoAdapter({ apiBase: sandbox.base('devto') }), creds.devto, { title: 'Sandbox title' }],
    ['linkedin', createLinkedinAdapter({ apiBase: sandbox.linkedin.url }), { access_token: sandbox.linkedin.token(), author_urn: `urn:li:person:${sandbox.linkedin.sub}` }, {}],
    ['tiktok', createTikTokAdapter({ apiBase: sandbox.tiktok.url, authBase: sandbox.tiktok.url, pollIntervalMs: 10, reserveMs: 10 }), { access_token: sandbox.tiktok.token, open_id: sandbox.tiktok.openId, username: sandbox.tiktok.username }, video],
    ['pinterest', createPinterestAdapter({ apiBase: sandbox.pinterest.url, pollIntervalMs: 10, reserveMs: 10 }), { access_token: sandbox.pinterest.token, username: sandbox.pinterest.username, board_id: '549755885175' }, image],
    ['hashnode', createHashnodeAdapter({ apiBase: sandbox.base('hashnode') }), { ...creds.hashnode, publication: PUB_ID }, { title: 'Sandbox title' }],
  ];
};

const NAMES = ['x', 'bluesky', 'mastodon', 'threads', 'instagram', 'facebook', 'youtube', 'reddit', 'devto', 'linkedin', 'tiktok', 'pinterest', 'hashnode'];
const total = (r: MetricsReading) => Object.values(r.metrics).reduce((a, b) => a + (b ?? 0), 0);

it('covers every network that offers post analytics', () => {
  const offered = Object.values(buildRegistry(parseConfig({}))).filter((a) => a?.metrics).map((a) => a!.name).sort();
  expect(cases().map(([n]) => n)).toEqual(NAMES);
  expect([...NAMES].sort()).toEqual(offered);
});

it.each(NAMES)('%s: a post published through the simulator has figures, and they grow with the time since publishing', async (name) => {
  const [, adapter, creds, over] = cases().find(([n]) => n === name)!;
  const content: PublishContent = { text: `Count me on the ${name} sandbox`, media: [], thread: [], send_key: `an-${name}`, ...over };
  const ctx = () => testContext(creds, { timeoutMs: 10_000, clock: new ManualClock(figuresAt, { sleeps: 'instant' }) }).ctx;
  const sent = await adapter.publish(content, ctx());
  if (!sent.ok || sent.status !== 'published') throw new Error(`${name}: ${JSON.stringify(sent)}`);
  const ref = { id: sent.id!, url: sent.url };
  const first = await adapter.metrics!.read([ref], ctx());
  if (!first.ok) throw new Error(`${name}: ${first.error}`);
  const early = first.readings[ref.id];
  if (!early || early === 'gone') throw new Error(`${name}: no figures (${String(early)})`);
  expect(Object.keys(early.metrics).every((m) => (METRIC_NAMES as readonly string[]).includes(m))).toBe(true);
  expect(Object.keys(early.source).sort()).toEqual(Object.keys(early.metrics).sort());
  figuresAt += 3 * HOUR;
  const later = await adapter.metrics!.read([ref], ctx());
  if (!later.ok) throw new Error(`${name}: ${later.error}`);
  const grown = later.readings[ref.id] as MetricsReading;
  expect([name, total(grown) > total(early)]).toEqual([name, true]);
});

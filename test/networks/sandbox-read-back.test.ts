import { Sandbox } from '../../infra/local/sandbox';
import { createBlueskyAdapter } from '../../shared/networks/bluesky';
import { createDevtoAdapter } from '../../shared/networks/devto';
import { createFacebookAdapter } from '../../shared/networks/facebook';
import { createHashnodeAdapter } from '../../shared/networks/hashnode';
import { createInstagramAdapter } from '../../shared/networks/instagram';
import { createLinkedinAdapter } from '../../shared/networks/linkedin';
import { createMastodonAdapter } from '../../shared/networks/mastodon';
import { createRedditAdapter } from '../../shared/networks/reddit';
import { createWordpressAdapter } from '../../shared/networks/wordpress';
import { createXAdapter } from '../../shared/networks/x';
import { createYouTubeAdapter } from '../../shared/networks/youtube';
import { PUB_ID } from '../../shared/networks/hashnode/simulator';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { testContext } from './context';
import { ManualClock } from '../support/clock';
import { YouTubeFake } from '../../shared/networks/youtube/simulator';
import { XFake } from '../../shared/networks/x/simulator';
import { RedditFake } from '../../shared/networks/reddit/simulator';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';
import { MetaKindsFake } from '../../shared/networks/facebook/simulator';

/**
 * `npm start` can read back: each simulator, mounted under /sandbox/<network>/ as the local server mounts it, lists
 * what it received at the network's real read path, so a post published through it is found again (and a post it
 * never received is absent).
 */
const sandbox = new Sandbox();
let close: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ close } = await sandbox.listen());
});
afterAll(() => close());

const cases = (): Array<[string, NetworkAdapter, Record<string, string>, Partial<PublishContent>]> => {
  const creds = sandbox.credentials();
  const x = sandbox.fake('x', XFake);
  const reddit = sandbox.fake('reddit', RedditFake);
  const linkedin = sandbox.fake('linkedin', LinkedinFake);
  const youtube = sandbox.fake('youtube', YouTubeFake);
  const graph = sandbox.fake('facebook', MetaKindsFake);
  const fbUser = graph.userToken();
  return [
    ['mastodon', createMastodonAdapter(), creds.mastodon, {}],
    ['bluesky', createBlueskyAdapter({ apiBase: sandbox.base('bluesky') }), creds.bluesky, {}],
    ['wordpress', createWordpressAdapter(), creds.wordpress, { title: 'Sandbox title' }],
    ['devto', createDevtoAdapter({ apiBase: sandbox.base('devto') }), creds.devto, { title: 'Sandbox title' }],
    ['hashnode', createHashnodeAdapter({ apiBase: sandbox.base('hashnode') }), { ...creds.hashnode, publication: PUB_ID }, { title: 'Sandbox title' }],
    ['x', createXAdapter({ apiBase: x.url }), { access_token: x.token, user_id: x.user.id, username: x.user.username }, {}],
    ['reddit', createRedditAdapter({ apiBase: reddit.url }), { access_token: reddit.token(), username: reddit.username }, { subreddit: 'test', title: 'Sandbox title' }],
    ['linkedin', createLinkedinAdapter({ apiBase: linkedin.url }), { access_token: linkedin.token(), author_urn: `urn:li:person:${linkedin.sub}` }, {}],
    ['youtube', createYouTubeAdapter({ apiBase: youtube.url, uploadBase: youtube.url }), { access_token: youtube.token, channel_id: youtube.channels[0].id },
      { title: 'Sandbox title', media: [{ url: sandbox.mediaUrl('sample.mp4'), kind: 'video' }] }],
    ['facebook', createFacebookAdapter({ apiBase: graph.url }), { page_id: '101', page_access_token: graph.pageToken(fbUser, '101') }, {}],
    ['instagram', createInstagramAdapter({ apiBase: graph.url, pollIntervalMs: 10, reserveMs: 10 }), { ig_user_id: '17841400000000001', page_access_token: graph.pageToken(fbUser, '101') },
      { media: [{ url: sandbox.mediaUrl('sample.jpg'), kind: 'image' }] }],
  ];
};

const NAMES = ['mastodon', 'bluesky', 'wordpress', 'devto', 'hashnode', 'x', 'reddit', 'linkedin', 'youtube', 'facebook', 'instagram'];

it('covers every case listed', () => expect(cases().map(([n]) => n)).toEqual(NAMES));

it.each(NAMES)('%s: a post published through the simulator is found again; another text is absent', async (name) => {
  const [, adapter, creds, over] = cases().find(([n]) => n === name)!;
  const text = `Read me back from the ${name} sandbox`;
  const content: PublishContent = { text, media: [], thread: [], send_key: `rb-${name}`, ...over };
  const { ctx } = testContext(creds, { timeoutMs: 10_000, clock: new ManualClock(Date.now(), { sleeps: 'instant' }) });
  const since = ctx.now();
  const sent = await adapter.publish(content, ctx);
  expect([name, sent.ok]).toEqual([name, true]);
  const until = testContext(creds).ctx.now();
  const found = await adapter.readBack!(content, { text, title: over.title, since, until }, testContext(creds, { timeoutMs: 10_000 }).ctx);
  expect([name, found]).toEqual([name, { state: 'found', id: sent.ok && sent.id, url: sent.ok && sent.url }]);
  const other = { ...content, text: `${text}, never sent` };
  const absent = await adapter.readBack!(other, { text: other.text, title: over.title, since, until }, testContext(creds, { timeoutMs: 10_000 }).ctx);
  expect([name, absent]).toEqual([name, { state: 'absent' }]);
});

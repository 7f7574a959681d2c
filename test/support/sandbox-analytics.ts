import type { Sandbox } from '../../infra/local/sandbox';
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
import { PUB_ID, FakeHashnode } from '../../shared/networks/hashnode/simulator';
import type { SimulatedFigures } from '../../shared/networks/sandbox-kit/figures';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import { YouTubeFake } from '../../shared/networks/youtube/simulator';
import { XFake } from '../../shared/networks/x/simulator';
import { TikTokUploadFake } from '../../shared/networks/tiktok/simulator';
import { ThreadsFake } from '../../shared/networks/threads/simulator';
import { RedditFake } from '../../shared/networks/reddit/simulator';
import { PinterestFake } from '../../shared/networks/pinterest/simulator';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';
import { MetaKindsFake } from '../../shared/networks/facebook/simulator';
import { FakeDevto } from '../../shared/networks/devto/simulator';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';

/** The networks with post analytics, in the order the sandbox cases list them. */
export const ANALYTICS_NETWORKS = ['x', 'bluesky', 'mastodon', 'threads', 'instagram', 'facebook', 'youtube', 'reddit', 'devto', 'linkedin', 'tiktok', 'pinterest', 'hashnode'] as const;

/** Every simulator that answers post analytics, to set the clock their figures grow by. */
export function analyticsSimulators(sandbox: Sandbox): Array<{ figures: SimulatedFigures }> {
  return [sandbox.fake('x', XFake), sandbox.fake('bluesky', BlueskyFake), sandbox.fake('mastodon', MastodonFake), sandbox.fake('threads', ThreadsFake), sandbox.fake('facebook', MetaKindsFake), sandbox.fake('youtube', YouTubeFake), sandbox.fake('reddit', RedditFake), sandbox.fake('devto', FakeDevto), sandbox.fake('linkedin', LinkedinFake), sandbox.fake('tiktok', TikTokUploadFake), sandbox.fake('pinterest', PinterestFake), sandbox.fake('hashnode', FakeHashnode)];
}

/**
 * For each network with post analytics: its adapter pointed at the mounted sandbox, credentials the simulator
 * accepts, and what a post there needs besides its text (a title, media).
 */
export function sandboxNetworkCases(sandbox: Sandbox): Array<[string, NetworkAdapter, Record<string, string>, Partial<PublishContent>]> {
  const creds = sandbox.credentials();
  const x = sandbox.fake('x', XFake);
  const reddit = sandbox.fake('reddit', RedditFake);
  const linkedin = sandbox.fake('linkedin', LinkedinFake);
  const youtube = sandbox.fake('youtube', YouTubeFake);
  const graph = sandbox.fake('facebook', MetaKindsFake);
  const threads = sandbox.fake('threads', ThreadsFake);
  const tiktok = sandbox.fake('tiktok', TikTokUploadFake);
  const pinterest = sandbox.fake('pinterest', PinterestFake);
  const fbUser = graph.userToken();
  const video = { media: [{ url: sandbox.mediaUrl('sample.mp4'), kind: 'video' as const }] };
  const image = { media: [{ url: sandbox.mediaUrl('sample.jpg'), kind: 'image' as const }] };
  return [
    ['x', createXAdapter({ apiBase: x.url }), { access_token: x.token, user_id: x.user.id, username: x.user.username }, {}],
    ['bluesky', createBlueskyAdapter({ apiBase: sandbox.base('bluesky') }), creds.bluesky, {}],
    ['mastodon', createMastodonAdapter(), creds.mastodon, {}],
    ['threads', createThreadsAdapter({ apiBase: threads.url, pollIntervalMs: 10, reserveMs: 10 }), { access_token: threads.token, threads_user_id: threads.userId, username: threads.username }, {}],
    ['instagram', createInstagramAdapter({ apiBase: graph.url, pollIntervalMs: 10, reserveMs: 10 }), { ig_user_id: '17841400000000001', page_access_token: graph.pageToken(fbUser, '101') }, image],
    ['facebook', createFacebookAdapter({ apiBase: graph.url }), { page_id: '101', page_access_token: graph.pageToken(fbUser, '101') }, {}],
    ['youtube', createYouTubeAdapter({ apiBase: youtube.url, uploadBase: youtube.url }), { access_token: youtube.token, channel_id: youtube.channels[0].id }, { title: 'Sandbox title', ...video }],
    ['reddit', createRedditAdapter({ apiBase: reddit.url }), { access_token: reddit.token(), username: reddit.username }, { subreddit: 'test', title: 'Sandbox title' }],
    ['devto', createDevtoAdapter({ apiBase: sandbox.base('devto') }), creds.devto, { title: 'Sandbox title' }],
    ['linkedin', createLinkedinAdapter({ apiBase: linkedin.url, postAnalytics: true }), { access_token: linkedin.token(), author_urn: `urn:li:person:${linkedin.sub}` }, {}],
    ['tiktok', createTikTokAdapter({ apiBase: tiktok.url, authBase: tiktok.url, pollIntervalMs: 10, reserveMs: 10 }), { access_token: tiktok.token, open_id: tiktok.openId, username: tiktok.username }, video],
    ['pinterest', createPinterestAdapter({ apiBase: pinterest.url, pollIntervalMs: 10, reserveMs: 10 }), { access_token: pinterest.token, username: pinterest.username, board_id: '549755885175' }, image],
    ['hashnode', createHashnodeAdapter({ apiBase: sandbox.base('hashnode') }), { ...creds.hashnode, publication: PUB_ID }, { title: 'Sandbox title' }],
  ];
}

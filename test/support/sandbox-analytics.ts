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
import { PUB_ID } from '../../infra/local/sandbox/hashnode';
import type { SimulatedFigures } from '../../infra/local/sandbox/figures';
import type { NetworkAdapter, PublishContent } from '../../shared/ports/networks';

/** The networks with post analytics, in the order the sandbox cases list them. */
export const ANALYTICS_NETWORKS = ['x', 'bluesky', 'mastodon', 'threads', 'instagram', 'facebook', 'youtube', 'reddit', 'devto', 'linkedin', 'tiktok', 'pinterest', 'hashnode'] as const;

/** Every simulator that answers post analytics, to set the clock their figures grow by. */
export function analyticsSimulators(sandbox: Sandbox): Array<{ figures: SimulatedFigures }> {
  return [sandbox.x, sandbox.bluesky, sandbox.mastodon, sandbox.threads, sandbox.graph, sandbox.youtube, sandbox.reddit, sandbox.devto, sandbox.linkedin, sandbox.tiktok, sandbox.pinterest, sandbox.hashnode];
}

/**
 * For each network with post analytics: its adapter pointed at the mounted sandbox, credentials the simulator
 * accepts, and what a post there needs besides its text (a title, media).
 */
export function sandboxAnalyticsCases(sandbox: Sandbox): Array<[string, NetworkAdapter, Record<string, string>, Partial<PublishContent>]> {
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
    ['linkedin', createLinkedinAdapter({ apiBase: sandbox.linkedin.url, postAnalytics: true }), { access_token: sandbox.linkedin.token(), author_urn: `urn:li:person:${sandbox.linkedin.sub}` }, {}],
    ['tiktok', createTikTokAdapter({ apiBase: sandbox.tiktok.url, authBase: sandbox.tiktok.url, pollIntervalMs: 10, reserveMs: 10 }), { access_token: sandbox.tiktok.token, open_id: sandbox.tiktok.openId, username: sandbox.tiktok.username }, video],
    ['pinterest', createPinterestAdapter({ apiBase: sandbox.pinterest.url, pollIntervalMs: 10, reserveMs: 10 }), { access_token: sandbox.pinterest.token, username: sandbox.pinterest.username, board_id: '549755885175' }, image],
    ['hashnode', createHashnodeAdapter({ apiBase: sandbox.base('hashnode') }), { ...creds.hashnode, publication: PUB_ID }, { title: 'Sandbox title' }],
  ];
}

import { generateSecretKey } from 'nostr-tools/pure';
import { nsecEncode } from 'nostr-tools/nip19';
import { startTestTable, testDeps } from '../support/deps';
import { testContext } from '../networks/context';
import { generateDrafts } from '../../shared/app/ai/generate';
import { PLATFORM_NAMES, type PlatformName } from '../../shared/domain/platforms';
import type { MediaItem, NetworkAdapter, PublishContent } from '../../shared/ports/networks';
import type { DraftView } from '../../shared/api/ai-schemas';
import type { Account } from '../../shared/ports/store';
import { createTelegramAdapter } from '../../shared/networks/telegram';
import { createBlueskyAdapter } from '../../shared/networks/bluesky';
import { createMastodonAdapter } from '../../shared/networks/mastodon';
import { createDiscordAdapter } from '../../shared/networks/discord';
import { createSlackAdapter } from '../../shared/networks/slack';
import { createWordpressAdapter } from '../../shared/networks/wordpress';
import { createDevtoAdapter } from '../../shared/networks/devto';
import { createHashnodeAdapter } from '../../shared/networks/hashnode';
import { createNostrAdapter } from '../../shared/networks/nostr';
import { createTikTokAdapter } from '../../shared/networks/tiktok';
import { createYouTubeAdapter } from '../../shared/networks/youtube';
import { createRedditAdapter } from '../../shared/networks/reddit';
import { createLinkedinAdapter } from '../../shared/networks/linkedin';
import { createFacebookAdapter } from '../../shared/networks/facebook';
import { createInstagramAdapter } from '../../shared/networks/instagram';
import { createXAdapter } from '../../shared/networks/x';
import { createThreadsAdapter } from '../../shared/networks/threads';
import { createPinterestAdapter } from '../../shared/networks/pinterest';
import { createGoogleBusinessAdapter } from '../../shared/networks/google_business';
import { TelegramFake } from '../../shared/networks/telegram/simulator';
import { BlueskyFake } from '../../shared/networks/bluesky/simulator';
import { MastodonFake } from '../../shared/networks/mastodon/simulator';
import { DiscordFake } from '../../shared/networks/discord/simulator';
import { SlackFake } from '../../shared/networks/slack/simulator';
import { FakeWordpress, WP_APP_PASSWORD, WP_USER } from '../../shared/networks/wordpress/simulator';
import { DEVTO_KEY, FakeDevto } from '../../shared/networks/devto/simulator';
import { FakeHashnode, HASHNODE_TOKEN, PUB_ID } from '../../shared/networks/hashnode/simulator';
import { FakeRelay } from '../../shared/networks/nostr/simulator';
import { TikTokFake } from '../../shared/networks/tiktok/api-simulator';
import { YouTubeFake } from '../../shared/networks/youtube/simulator';
import { RedditFake } from '../../shared/networks/reddit/simulator';
import { LinkedinFake } from '../../shared/networks/linkedin/simulator';
import { FacebookFake } from '../../shared/networks/facebook/graph-simulator';
import { InstagramFake } from '../../shared/networks/instagram/simulator';
import { XFake } from '../../shared/networks/x/simulator';
import { ThreadsFake } from '../../shared/networks/threads/simulator';
import { PinterestFake } from '../../shared/networks/pinterest/simulator';
import { GoogleBusinessFake } from '../../shared/networks/google_business/simulator';

/**
 * Generate → publish: drafts for every network, each sent as the network would receive it from a per_platform
 * draft (text, title, thread, first_comment), through the adapter's own check (POST /api/post's text_too_long and
 * media rules) and publish against its loopback fake. Every network accepts.
 */
const fakes = {
  telegram: new TelegramFake(), bluesky: new BlueskyFake(), mastodon: new MastodonFake(), discord: new DiscordFake(), slack: new SlackFake(),
  wordpress: new FakeWordpress(), devto: new FakeDevto(), hashnode: new FakeHashnode(), relay: new FakeRelay(), tiktok: new TikTokFake(),
  youtube: new YouTubeFake(), reddit: new RedditFake(), linkedin: new LinkedinFake(), facebook: new FacebookFake(), instagram: new InstagramFake(), x: new XFake(),
  threads: new ThreadsFake(), pinterest: new PinterestFake(), googleBusiness: new GoogleBusinessFake(),
};
let stopTable: () => Promise<void>;
let drafts: Record<string, DraftView>;

const PROMPT = [
  'Acme Rockets 2.0 launches today! 🚀 The new engine is 30% lighter and twice as reliable, after two years of tests in the desert.',
  'Pre-orders open now for customers in Europe, the US and Japan (日本のお客様も大歓迎です。), with delivery in March.',
  'Our engineers 👩‍🚀👨‍🔧 rebuilt the fuel pump, the guidance computer and the landing legs from scratch.',
  'We would love to hear what you think: reply here, or come and see us at the Berlin space fair next week 🇩🇪.',
  'Thank you to everyone who tested the prototypes with us. Full specifications and the launch video are on our site.',
].join(' ');

beforeAll(async () => {
  await Promise.all(Object.values(fakes).map((f) => f.start()));
  const { table, stop } = await startTestTable();
  stopTable = stop;
  const { deps } = testDeps(table, (chosen) => ({ settings: { ...chosen.settings, rateLimitsOff: true } }));
  const account = { id: 'acc_drafts', email: 'd@example.com', plan: 'scale' } as Account;
  const link = 'https://acme.example/rockets/2';
  const text = PLATFORM_NAMES.filter((p) => !['instagram', 'pinterest', 'tiktok', 'youtube'].includes(p));
  const [a, b, c] = await Promise.all([
    generateDrafts(deps, account, { prompt: PROMPT, platforms: text, link }),
    generateDrafts(deps, account, { prompt: PROMPT, platforms: ['instagram', 'pinterest'], link, media: [{ url: 'https://cdn.example.com/p1.jpg', type: 'image' }] }),
    generateDrafts(deps, account, { prompt: PROMPT, platforms: ['tiktok', 'youtube'], link, media: [{ url: 'https://cdn.example.com/clip.mp4', type: 'video' }] }),
  ]);
  drafts = { ...a.drafts, ...b.drafts, ...c.drafts };
});
afterAll(async () => { await Promise.all(Object.values(fakes).map((f) => f.stop())); await stopTable(); });

function setup(): Record<PlatformName, { adapter: NetworkAdapter; creds: Record<string, string>; media?: MediaItem[]; subreddit?: string }> {
  const f = fakes;
  const user = f.facebook.userToken();
  const igUser = f.instagram.userToken();
  f.youtube.media.set('clip.mp4', { type: 'video/mp4', bytes: Buffer.alloc(4096, 7) });
  return {
    telegram: { adapter: createTelegramAdapter({ apiBase: f.telegram.url }), creds: { bot_token: f.telegram.token, chat_id: '-1001234567890', chat_type: 'channel', chat_username: 'acmenews' } },
    bluesky: { adapter: createBlueskyAdapter({ apiBase: `${f.bluesky.url}/` }), creds: { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' } },
    mastodon: { adapter: createMastodonAdapter({ pollIntervalMs: 50 }), creds: { instance_url: f.mastodon.url, access_token: 'good-token' } },
    discord: { adapter: createDiscordAdapter(), creds: { webhook_url: f.discord.webhookUrl, guild_id: f.discord.guildId, channel_id: f.discord.channelId } },
    slack: { adapter: createSlackAdapter(), creds: { webhook_url: f.slack.webhookUrl, team_id: f.slack.team } },
    wordpress: { adapter: createWordpressAdapter(), creds: { site_url: `${f.wordpress.url}/`, username: WP_USER, app_password: WP_APP_PASSWORD } },
    devto: { adapter: createDevtoAdapter({ apiBase: `${f.devto.url}/` }), creds: { api_key: DEVTO_KEY } },
    hashnode: { adapter: createHashnodeAdapter({ apiBase: `${f.hashnode.url}/` }), creds: { token: HASHNODE_TOKEN, publication: PUB_ID } },
    nostr: { adapter: createNostrAdapter({ defaultRelays: [f.relay.url], relayTimeoutMs: 1000, graceAfterAcceptMs: 50, allowPrivate: true }), creds: { nsec: nsecEncode(generateSecretKey()) } },
    tiktok: { adapter: createTikTokAdapter({ apiBase: f.tiktok.url, authBase: f.tiktok.url, pollIntervalMs: 50, reserveMs: 20 }), creds: { access_token: f.tiktok.token, open_id: f.tiktok.openId, username: f.tiktok.username }, media: [{ url: 'https://media.example.com/clip.mp4', kind: 'video' }] },
    youtube: { adapter: createYouTubeAdapter({ apiBase: f.youtube.url, uploadBase: f.youtube.url, reserveMs: 100 }), creds: { access_token: f.youtube.token, channel_id: 'UCacme000000000000000001', channel_title: 'Acme Channel' }, media: [{ url: f.youtube.mediaUrl('clip.mp4'), kind: 'video' }] },
    reddit: { adapter: createRedditAdapter({ apiBase: f.reddit.url }), creds: { access_token: f.reddit.token(), username: 'acme_team', user_id: 'k3x9q' }, subreddit: 'test' },
    linkedin: { adapter: createLinkedinAdapter({ apiBase: f.linkedin.url, pollIntervalMs: 50, reserveMs: 50 }), creds: { access_token: f.linkedin.token(), author_urn: 'urn:li:person:abc123XYZ' } },
    facebook: { adapter: createFacebookAdapter({ apiBase: f.facebook.url }), creds: { access_token: user, page_id: '101', page_name: 'Acme Bakery', page_access_token: f.facebook.pageToken(user, '101') } },
    instagram: { adapter: createInstagramAdapter({ apiBase: f.instagram.url, pollIntervalMs: 50, reserveMs: 50 }), creds: { access_token: igUser, ig_user_id: '17841400000000001', username: 'acme.bakery', page_id: '101', page_access_token: f.instagram.pageToken(igUser, '101') }, media: [{ url: 'https://cdn.example.com/p1.jpg', kind: 'image' }] },
    x: { adapter: createXAdapter({ apiBase: f.x.url, reserveMs: 50 }), creds: { access_token: f.x.token, user_id: f.x.user.id, username: f.x.user.username } },
    threads: { adapter: createThreadsAdapter({ apiBase: f.threads.url }), creds: { access_token: f.threads.token, threads_user_id: f.threads.userId, username: f.threads.username } },
    pinterest: { adapter: createPinterestAdapter({ apiBase: f.pinterest.url }), creds: { access_token: f.pinterest.token, username: f.pinterest.username, board_id: f.pinterest.boards[0].id }, media: [{ url: 'https://cdn.example.com/p1.jpg', kind: 'image' }] },
    google_business: { adapter: createGoogleBusinessAdapter({ apiBase: f.googleBusiness.url }), creds: { access_token: f.googleBusiness.token, account_id: '1100', location_id: '2201', location_title: 'Acme Bakery Kreuzberg' } },
  };
}

describe('generate → publish the drafts as per_platform: every network accepts', () => {
  it('the long prompt became threads on X and Bluesky and fits everywhere else', () => {
    expect(Object.keys(drafts).sort()).toEqual([...PLATFORM_NAMES].sort());
    for (const p of ['x', 'bluesky'] as const) expect(drafts[p].thread?.length).toBeGreaterThan(0);
    expect(drafts.instagram.limit).toBe(2200);
    expect(drafts.youtube.title).toBeTruthy();
  });

  it.each([...PLATFORM_NAMES])('%s: the adapter check passes and the fake accepts the post', async (platform) => {
    const s = setup()[platform];
    const d = drafts[platform];
    const content: PublishContent = {
      text: d.text, title: d.title, thread: d.thread ?? [], first_comment: d.first_comment, media: s.media ?? [],
      subreddit: s.subreddit, privacy: platform === 'tiktok' ? 'private' : undefined, send_key: `pst_drafts:${platform}`,
    };
    expect(s.adapter.check(content, s.creds)).toBeUndefined();
    const { ctx } = testContext(s.creds, { timeoutMs: 8000 });
    const out = await s.adapter.publish(content, ctx);
    expect({ platform, ok: out.ok, error: out.ok ? undefined : out.error }).toEqual({ platform, ok: true, error: undefined });
    if (platform === 'x') expect(fakes.x.tweets.map((t) => t.body.text)).toEqual([d.text, ...(d.thread ?? [])]);
  });
});

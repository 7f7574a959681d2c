import { generateSecretKey } from 'nostr-tools/pure';
import { nsecEncode } from 'nostr-tools/nip19';
import type { FakeServer, RecordedRequest } from '../../infra/local/sandbox/server';
import { TelegramFake } from '../../infra/local/sandbox/telegram';
import { BlueskyFake } from '../../infra/local/sandbox/bluesky';
import { MastodonFake } from '../../infra/local/sandbox/mastodon';
import { DiscordFake } from '../../infra/local/sandbox/discord';
import { FakeWordpress, WP_APP_PASSWORD, WP_USER } from '../../infra/local/sandbox/wordpress';
import { DEVTO_KEY, FakeDevto } from '../../infra/local/sandbox/devto';
import { FakeHashnode, HASHNODE_TOKEN, PUB_ID } from '../../infra/local/sandbox/hashnode';
import { SlackFake } from '../../infra/local/sandbox/slack';
import { DelayedRelay } from './delayed-relay';

export const NETWORKS = ['telegram', 'bluesky', 'mastodon', 'discord', 'wordpress', 'devto', 'hashnode', 'slack', 'nostr'] as const;
export type BenchNetwork = (typeof NETWORKS)[number];

/** When one network's publishing call reached its fake (Date.now()), and the post's number (see postTag). */
export interface Arrival { network: BenchNetwork; at: number; post?: number }

/** The marker a bench puts in a post's text so that the fakes can tell which post a call belongs to. */
export const postTag = (n: number) => `post${n}`;
const TAG = /\bpost(\d+)\b/;
const tagIn = (text: string) => { const m = TAG.exec(text); return m ? Number(m[1]) : undefined; };

/**
 * The nine credential networks' loopback fakes (infra/local/sandbox/*, plus a delayed Nostr relay), with a settable delay D
 * on each network's *publishing* call only — the one request per post that creates the post (Telegram sendMessage,
 * Bluesky createRecord, Mastodon POST statuses, the Discord/Slack webhook POST, WordPress POST posts, dev.to POST
 * articles, Hashnode publishPost/createDraft, the Nostr EVENT). Other calls (Bluesky's createSession before each
 * post, the verify calls of POST /api/connect) answer at once, so every network costs exactly one D per post.
 * Each publishing call's arrival time is recorded in `arrivals`, with the post number found in its body (postTag).
 */
export class BenchNetworks {
  delayMs = 0;
  readonly arrivals: Arrival[] = [];
  readonly telegram = new TelegramFake();
  readonly bluesky = new BlueskyFake();
  readonly mastodon = new MastodonFake();
  readonly discord = new DiscordFake();
  readonly wordpress = new FakeWordpress();
  readonly devto = new FakeDevto();
  readonly hashnode = new FakeHashnode();
  readonly slack = new SlackFake();
  readonly nostr = new DelayedRelay();
  private readonly nsec = nsecEncode(generateSecretKey());

  constructor() {
    const gql = (r: RecordedRequest) => (r.json as { query?: string } | undefined)?.query ?? '';
    this.wrap('telegram', this.telegram.server, (r) => r.path.endsWith('/sendMessage'));
    this.wrap('bluesky', this.bluesky.server, (r) => r.path === '/xrpc/com.atproto.repo.createRecord');
    this.wrap('mastodon', this.mastodon.server, (r) => r.method === 'POST' && r.path === '/api/v1/statuses');
    this.wrap('discord', this.discord.server, (r) => r.method === 'POST');
    this.wrap('wordpress', this.wordpress.server, (r) => r.method === 'POST' && r.path === '/wp-json/wp/v2/posts');
    this.wrap('devto', this.devto.server, (r) => r.method === 'POST' && r.path === '/api/articles');
    this.wrap('hashnode', this.hashnode.server, (r) => gql(r).includes('publishPost(') || gql(r).includes('createDraft('));
    this.wrap('slack', this.slack.server, (r) => r.method === 'POST');
  }

  /** Adds D (and an arrival record) to the fake's answers for its publishing call. */
  private wrap(network: BenchNetwork, server: FakeServer, isPublish: (r: RecordedRequest) => boolean): void {
    const inner = server.handler;
    server.handler = async (req) => {
      const reply = await inner(req);
      if (!isPublish(req)) return reply;
      this.arrivals.push({ network, at: Date.now(), post: tagIn(req.text) });
      // The fakes keep every request; drop them so a long run doesn't hold thousands of bodies.
      server.requests.length = 0;
      return this.delayMs > 0 ? { ...reply, delayMs: (reply.delayMs ?? 0) + this.delayMs } : reply;
    };
  }

  async start(): Promise<void> {
    await Promise.all([this.telegram.start(), this.bluesky.start(), this.mastodon.start(), this.discord.start(), this.wordpress.start(),
      this.devto.start(), this.hashnode.start(), this.slack.start(), this.nostr.start()]);
  }

  async stop(): Promise<void> {
    await Promise.allSettled([this.telegram.stop(), this.bluesky.stop(), this.mastodon.stop(), this.discord.stop(), this.wordpress.stop(),
      this.devto.stop(), this.hashnode.stop(), this.slack.stop(), this.nostr.stop()]);
  }

  setDelay(ms: number): void {
    this.delayMs = ms;
    this.nostr.delayMs = ms;
  }

  /** Every publishing call recorded so far, the Nostr relay's included. */
  allArrivals(): Arrival[] {
    return [...this.arrivals, ...this.nostr.received.map((r) => ({ network: 'nostr' as const, at: r.at, post: tagIn(r.content) }))];
  }

  /** The publishing calls of one post (by its postTag number), earliest first. */
  arrivalsOf(post: number): Arrival[] {
    return this.allArrivals().filter((a) => a.post === post).sort((x, y) => x.at - y.at);
  }

  clearArrivals(): void {
    this.arrivals.length = 0;
    this.nostr.received.length = 0;
  }

  /** Environment for the local runtime: API bases of the networks with a fixed host. */
  runtimeEnv(): Record<string, string> {
    return {
      TELEGRAM_API_BASE: this.telegram.url, BLUESKY_API_BASE: this.bluesky.url,
      DEVTO_API_BASE: this.devto.url, HASHNODE_API_BASE: this.hashnode.url,
    };
  }

  /** POST /api/connect bodies, one per network. */
  connectBodies(): Array<{ platform: BenchNetwork; credentials: Record<string, string> }> {
    return [
      { platform: 'telegram', credentials: { bot_token: this.telegram.token, chat_id: '@acmenews' } },
      { platform: 'bluesky', credentials: { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' } },
      { platform: 'mastodon', credentials: { instance_url: this.mastodon.url, access_token: this.mastodon.token } },
      { platform: 'discord', credentials: { webhook_url: this.discord.webhookUrl } },
      { platform: 'wordpress', credentials: { site_url: this.wordpress.url, username: WP_USER, app_password: WP_APP_PASSWORD } },
      { platform: 'devto', credentials: { api_key: DEVTO_KEY } },
      { platform: 'hashnode', credentials: { token: HASHNODE_TOKEN, publication: PUB_ID } },
      { platform: 'slack', credentials: { webhook_url: this.slack.webhookUrl } },
      { platform: 'nostr', credentials: { nsec: this.nsec, relays: this.nostr.url } },
    ];
  }
}

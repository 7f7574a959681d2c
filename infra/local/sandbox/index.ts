import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { generateSecretKey } from 'nostr-tools/pure';
import { nsecEncode } from 'nostr-tools/nip19';
import { OAUTH_PLATFORMS, type PlatformName } from '../../../shared/domain/platforms';
import type { FakeServer, RecordedRequest } from './server';
import { changeEntry, inboxPage, publishEntry, type InboxEntry } from './inbox';
import { markedText, RATE_LIMIT_MARK, SAMPLE_MEDIA, send, textLimitReply, tooManyRequests } from './answers';
import { TelegramFake } from './telegram';
import { BlueskyFake } from './bluesky';
import { MastodonFake } from './mastodon';
import { DiscordFake } from './discord';
import { FakeWordpress, WP_APP_PASSWORD, WP_USER } from './wordpress';
import { DEVTO_KEY, FakeDevto } from './devto';
import { FakeHashnode, HASHNODE_TOKEN } from './hashnode';
import { SlackFake } from './slack';
import { FakeRelay } from './nostr';
import { TikTokUploadFake } from './tiktok-upload';
import { BlueskyVideoFake } from './bluesky-video';
import { YouTubeFake } from './youtube';
import { RedditFake } from './reddit';
import { LinkedinFake } from './linkedin';
import { MetaKindsFake } from './meta-kinds';
import { XFake } from './x';
import { ThreadsFake } from './threads';
import { PinterestFake } from './pinterest';
import { GoogleBusinessFake } from './google-business';
import type { OAuthFake } from './oauth-authority';

/**
 * The sandbox of `npm start` (decisions.md "Strict requests, the sandbox and contract fixes"): every one of the 19
 * networks simulated in process, at its real API paths, mounted under `<origin>/sandbox/<network>/` of the local
 * server itself (one origin, the only private one the address guard lets through in sandbox mode). The simulators
 * are the tests' network fakes: they check credentials, answer in each network's own shapes, and record every request,
 * which the inbox (`GET /dev/sandbox`, `/dev/sandbox/inbox`) shows. A publish whose text holds `sandbox:429` is
 * answered once with a 429 and a 2-second wait, as a rate-limited network would; a text over the network's limit is
 * refused in the network's words (TEXT_LIMITS, answers.ts); inbox.ts reads the recorded requests as posts.
 */

/** Environment variables per network, set only when the user set none of that network's own (explicit wins). */
type EnvGroup = Record<string, string>;

const OAUTH: readonly PlatformName[] = OAUTH_PLATFORMS;
/** Requests kept per simulator (and so in the inbox): the newest ones. */
const KEEP_REQUESTS = 500;

export class Sandbox {
  readonly telegram = new TelegramFake();
  readonly bluesky = new BlueskyFake();
  readonly mastodon = new MastodonFake();
  readonly discord = new DiscordFake();
  readonly wordpress = new FakeWordpress();
  readonly devto = new FakeDevto();
  readonly hashnode = new FakeHashnode();
  readonly slack = new SlackFake();
  readonly nostr = new FakeRelay();
  readonly tiktok = new TikTokUploadFake();
  readonly youtube = new YouTubeFake();
  readonly reddit = new RedditFake();
  readonly linkedin = new LinkedinFake();
  /** Facebook and Instagram share the Graph API (FACEBOOK_API_BASE), so one simulator serves both. */
  readonly graph = new MetaKindsFake();
  /** Bluesky's video service (app.bsky.video.*), a host of its own at the real network. */
  readonly blueskyVideo = new BlueskyVideoFake();
  readonly x = new XFake();
  readonly threads = new ThreadsFake();
  readonly pinterest = new PinterestFake();
  readonly googleBusiness = new GoogleBusinessFake();
  /** Webhook deliveries to `<origin>/sandbox/receiver` (the local receiver of the README). */
  readonly receiver: Array<{ received_at: string; headers: Record<string, string>; body: string }> = [];
  readonly nostrKey = nsecEncode(generateSecretKey());
  private readonly limited = new Set<string>();
  /** The networks answered with the sandbox's 429 (one entry per refused request), oldest first. */
  readonly rateLimited: PlatformName[] = [];
  private readonly received = new Map<RecordedRequest, string>();
  origin = '';

  constructor() {
    // Instagram builds media asynchronously: each container answers IN_PROGRESS once, then FINISHED
    this.graph.containerPolls = 1;
    // so do Threads video containers and Pinterest video uploads
    this.threads.containerPolls = 1;
    this.pinterest.mediaPolls = 1;
  }

  /** The simulator mounted at /sandbox/<segment>. */
  private servers(): Record<string, { server: FakeServer; network: PlatformName }> {
    return {
      telegram: { server: this.telegram.server, network: 'telegram' }, bluesky: { server: this.bluesky.server, network: 'bluesky' },
      mastodon: { server: this.mastodon.server, network: 'mastodon' }, discord: { server: this.discord.server, network: 'discord' },
      wordpress: { server: this.wordpress.server, network: 'wordpress' }, devto: { server: this.devto.server, network: 'devto' },
      hashnode: { server: this.hashnode.server, network: 'hashnode' }, slack: { server: this.slack.server, network: 'slack' },
      tiktok: { server: this.tiktok.server, network: 'tiktok' }, youtube: { server: this.youtube.server, network: 'youtube' },
      reddit: { server: this.reddit.server, network: 'reddit' }, linkedin: { server: this.linkedin.server, network: 'linkedin' },
      facebook: { server: this.graph.server, network: 'facebook' }, x: { server: this.x.server, network: 'x' },
      'bluesky-video': { server: this.blueskyVideo.server, network: 'bluesky' },
      threads: { server: this.threads.server, network: 'threads' }, pinterest: { server: this.pinterest.server, network: 'pinterest' },
      google_business: { server: this.googleBusiness.server, network: 'google_business' },
    };
  }

  /** Mounts every simulator under `<origin>/sandbox/` (origin: the local server's URL, e.g. http://localhost:3000). */
  mount(origin: string): void {
    this.origin = origin.replace(/\/$/, '');
    for (const [segment, { server }] of Object.entries(this.servers())) server.mount(`${this.origin}/sandbox/${segment}`);
    // the sample media are on a domain "verified" for the simulated TikTok app (other links go as FILE_UPLOAD)
    this.tiktok.verifiedPrefix = `${this.origin}/sandbox/media/`;
    this.nostr.mount(`${this.origin.replace(/^http/, 'ws')}/sandbox/nostr`);
  }

  base(segment: string): string { return `${this.origin}/sandbox/${segment}`; }

  /** The environment of each network pointing at its simulator, with the sandbox client ids of the OAuth networks. */
  envGroups(): Record<PlatformName, EnvGroup> {
    const oauth = (fake: OAuthFake, name: string, extra: EnvGroup = {}): EnvGroup => ({
      [`${name}_CLIENT_ID`]: fake.clientId, [`${name}_CLIENT_SECRET`]: fake.clientSecret,
      [`${name}_AUTH_BASE`]: fake.url, ...extra,
    });
    return {
      telegram: { TELEGRAM_API_BASE: this.base('telegram') },
      bluesky: { BLUESKY_API_BASE: this.base('bluesky'), BLUESKY_VIDEO_BASE: this.base('bluesky-video') },
      devto: { DEVTO_API_BASE: this.base('devto') },
      hashnode: { HASHNODE_API_BASE: this.base('hashnode') },
      nostr: { NOSTR_DEFAULT_RELAYS: this.nostr.url },
      mastodon: {}, discord: {}, wordpress: {}, slack: {},
      tiktok: oauth(this.tiktok, 'TIKTOK', { TIKTOK_API_BASE: this.tiktok.url }),
      youtube: oauth(this.youtube, 'YOUTUBE', { YOUTUBE_API_BASE: this.youtube.url, YOUTUBE_UPLOAD_BASE: this.youtube.url }),
      reddit: oauth(this.reddit, 'REDDIT', { REDDIT_API_BASE: this.reddit.url }),
      linkedin: oauth(this.linkedin, 'LINKEDIN', { LINKEDIN_API_BASE: this.linkedin.url, LINKEDIN_POST_ANALYTICS: '1' }),
      facebook: oauth(this.graph, 'FACEBOOK', { FACEBOOK_API_BASE: this.graph.url }),
      instagram: { INSTAGRAM_CLIENT_ID: this.graph.clientId, INSTAGRAM_CLIENT_SECRET: this.graph.clientSecret, INSTAGRAM_AUTH_BASE: this.graph.url },
      x: oauth(this.x, 'X', { X_API_BASE: this.x.url }),
      threads: oauth(this.threads, 'THREADS', { THREADS_API_BASE: this.threads.url }),
      pinterest: oauth(this.pinterest, 'PINTEREST', { PINTEREST_API_BASE: this.pinterest.url }),
      google_business: oauth(this.googleBusiness, 'GOOGLE_BUSINESS', { GOOGLE_BUSINESS_API_BASE: this.googleBusiness.url }),
    };
  }

  /** Sample media for posts: a PNG, a JPEG and an MP4 served from the sandbox origin. */
  mediaUrl(name: 'sample.png' | 'sample.jpg' | 'sample.mp4'): string { return this.base(`media/${name}`); }

  /** Credentials each credential network's simulator accepts (anything else, e.g. starting with `bad`, is refused). */
  credentials(): Record<string, Record<string, string>> {
    return {
      telegram: { bot_token: this.telegram.token, chat_id: '@acmenews' },
      bluesky: { handle: 'alice.test', app_password: 'abcd-efgh-ijkl-mnop' },
      mastodon: { instance_url: this.base('mastodon'), access_token: this.mastodon.token },
      discord: { webhook_url: this.discord.webhookUrl },
      wordpress: { site_url: this.base('wordpress'), username: WP_USER, app_password: WP_APP_PASSWORD },
      devto: { api_key: DEVTO_KEY },
      hashnode: { token: HASHNODE_TOKEN },
      slack: { webhook_url: this.slack.webhookUrl },
      nostr: { nsec: this.nostrKey, relays: this.nostr.url },
    };
  }

  /** Everything the simulators received that is a post (or part of one), newest first. */
  inbox(): InboxEntry[] {
    const entries: InboxEntry[] = [];
    for (const { server, network } of Object.values(this.servers())) {
      for (const req of server.requests) {
        const entry = publishEntry(network, req, this.received.get(req)) ?? changeEntry(network, req, this.received.get(req));
        if (entry) entries.push(entry);
      }
    }
    this.nostr.events.forEach((ev, i) => entries.push({
      network: 'nostr', received_at: this.nostr.eventTimes[i] ?? new Date().toISOString(), method: 'EVENT', path: '/sandbox/nostr',
      text: typeof ev.content === 'string' ? ev.content : null, title: null, media: [], reply: Array.isArray(ev.tags) && (ev.tags as unknown[][]).some((t) => t[0] === 'e'),
    }));
    for (const d of this.receiver) {
      let type: string | null = null;
      try { type = (JSON.parse(d.body) as { type?: string }).type ?? null; } catch { /* not JSON */ }
      entries.push({ network: 'webhook', received_at: d.received_at, method: 'POST', path: '/sandbox/receiver', text: type, title: d.headers['service-event'] ?? null, media: [], reply: false });
    }
    return entries.sort((a, b) => (a.received_at < b.received_at ? 1 : a.received_at > b.received_at ? -1 : 0));
  }

  /** `/sandbox/<network>/…`: the simulator's answer (or the sandbox's 429); `/sandbox/receiver` records a webhook. */
  async handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const [, , segment = '', ...rest] = url.pathname.split('/');
    if (segment === 'receiver' && req.method === 'POST') {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      this.receiver.push({ received_at: new Date().toISOString(), headers, body: body.toString('utf8') });
      this.receiver.splice(0, Math.max(0, this.receiver.length - KEEP_REQUESTS));
      res.writeHead(204).end();
      return;
    }
    if (segment === 'media' && (req.method === 'GET' || req.method === 'HEAD')) {
      const file = SAMPLE_MEDIA[rest.join('/')];
      if (!file) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
      res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.length) }).end(req.method === 'HEAD' ? undefined : file.bytes);
      return;
    }
    const mounted = this.servers()[segment];
    if (!mounted) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `No simulated network at /sandbox/${segment}`, code: 'not_found' }));
      return;
    }
    const relative = `/${rest.join('/')}${url.search}`;
    const text = body.toString('utf8');
    const limitKey = `${segment}#${markedText(text)}`;
    if (text.includes(RATE_LIMIT_MARK) && !this.limited.has(limitKey)) {
      this.limited.add(limitKey);
      this.rateLimited.push(mounted.network);
      send(res, tooManyRequests(2));
      return;
    }
    const tooLong = textLimitReply(mounted.network, relative, body);
    if (tooLong) { send(res, tooLong); return; }
    const before = mounted.server.requests.length;
    await mounted.server.serve(req, res, body, relative);
    const recorded = mounted.server.requests[before];
    if (recorded) this.received.set(recorded, new Date().toISOString());
    // a long-running npm start keeps the newest requests of each simulator only
    for (const old of mounted.server.requests.splice(0, Math.max(0, mounted.server.requests.length - KEEP_REQUESTS))) this.received.delete(old);
  }

  /** A WebSocket upgrade for the Nostr relay simulator; false when the path is not the relay's. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): boolean {
    if (new URL(req.url ?? '/', 'http://sandbox').pathname !== '/sandbox/nostr') return false;
    this.nostr.upgrade(req, socket, head);
    return true;
  }

  /** `GET /dev/sandbox`: the mode, each network's simulator and accepted credentials, and the inbox. */
  describe() {
    return {
      mode: 'sandbox',
      origin: this.origin,
      inbox_url: `${this.origin}/dev/sandbox/inbox`,
      receiver_url: `${this.origin}/sandbox/receiver`,
      rate_limit_trigger: `a post whose text holds "${RATE_LIMIT_MARK}" is answered once with 429 and a 2 s wait`,
      credentials: this.credentials(),
      oauth: Object.fromEntries(OAUTH.map((n) => [n, { client_id: this.envGroups()[n][`${n.toUpperCase()}_CLIENT_ID`], sign_in: 'automatic (the simulator consents at once)' }])),
      inbox: this.inbox(),
    };
  }

  /** The inbox page: what each simulated network received, newest first. */
  inboxPage(): string {
    return inboxPage(this.inbox());
  }
}

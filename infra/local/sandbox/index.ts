import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { generateSecretKey } from 'nostr-tools/pure';
import { nsecEncode } from 'nostr-tools/nip19';
import { OAUTH_PLATFORMS, type PlatformName } from '../../../shared/domain/platforms';
import { escapeHtml, page } from '../../../shared/http/reply';
import type { FakeReply, FakeServer, RecordedRequest } from './server';
import { TelegramFake } from './telegram';
import { BlueskyFake } from './bluesky';
import { MastodonFake } from './mastodon';
import { DiscordFake } from './discord';
import { FakeWordpress, PNG_BYTES, WP_APP_PASSWORD, WP_USER } from './wordpress';
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
 * refused in the network's words (TEXT_LIMITS).
 */

/** One thing a simulated network received: a post, a thread part, a comment, or a webhook delivery. */
export interface InboxEntry {
  network: PlatformName | 'webhook';
  received_at: string;
  method: string;
  path: string;
  text: string | null;
  title: string | null;
  media: string[];
  /** True for a reply in a thread or a first comment (it answers an earlier entry). */
  reply: boolean;
  /** A delete or an edit of a post published earlier (DELETE / PATCH /api/posts/{id}). */
  change?: 'deleted' | 'edited';
}

/** Environment variables per network, set only when the user set none of that network's own (explicit wins). */
type EnvGroup = Record<string, string>;

const OAUTH: readonly PlatformName[] = OAUTH_PLATFORMS;
const RATE_LIMIT_MARK = 'sandbox:429';
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
      linkedin: oauth(this.linkedin, 'LINKEDIN', { LINKEDIN_API_BASE: this.linkedin.url }),
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
    const anchored = new Set<string>();
    // the newest entry of each network is its anchor: a post's url in sandbox mode is <inbox>#<network>
    const anchor = (n: string) => (anchored.has(n) ? '' : (anchored.add(n), ` id="${escapeHtml(n)}"`));
    const rows = this.inbox().map((e) => `<li${anchor(e.network)}><p><b>${escapeHtml(e.network)}</b>${e.reply ? ' (reply)' : ''}${e.change ? ` (${e.change})` : ''} · <time>${escapeHtml(e.received_at)}</time></p>` +
      (e.title ? `<p><b>${escapeHtml(e.title)}</b></p>` : '') + (e.text ? `<p>${escapeHtml(e.text)}</p>` : '') +
      (e.media.length ? `<ul>${e.media.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>` : '') + '</li>').join('');
    return page('Sandbox inbox', `<main><h1>Sandbox inbox</h1><p>What the simulated networks received, newest first. ` +
      `Nothing here left this machine.</p>${rows ? `<ol>${rows}</ol>` : '<p>Nothing yet: publish a post and reload this page.</p>'}</main>`);
  }
}

/** Sample media the sandbox serves at /sandbox/media/<name>, for posts to networks that need a photo or a video. */
const SAMPLE_MEDIA: Record<string, { type: string; bytes: Buffer }> = {
  'sample.png': { type: 'image/png', bytes: PNG_BYTES },
  'sample.jpg': { type: 'image/jpeg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(500), Buffer.from([0xff, 0xd9])]) },
  'sample.mp4': { type: 'video/mp4', bytes: Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(4000)]) },
};

/**
 * The networks' own text limits, answered in their own words (the adapters check first, so the service never sends
 * such a post; a client calling the simulators directly meets them as it would the network).
 */
const TEXT_LIMITS: Partial<Record<PlatformName, { path: RegExp; key: (b: Record<string, unknown>) => unknown; max: number; reply: FakeReply }>> = {
  telegram: { path: /^\/bot[^/]+\/sendMessage$/, key: (b) => b.text, max: 4096, reply: { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' } } },
  bluesky: { path: /^\/xrpc\/com\.atproto\.repo\.createRecord$/, key: (b) => (b.record as Record<string, unknown> | undefined)?.text, max: 300, reply: { status: 400, body: { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes' } } },
  mastodon: { path: /^\/api\/v1\/statuses$/, key: (b) => b.status, max: 500, reply: { status: 422, body: { error: 'Validation failed: Text character limit of 500 exceeded' } } },
  x: { path: /^\/2\/tweets$/, key: (b) => b.text, max: 280, reply: { status: 400, body: { title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.twitter.com/2/problems/invalid-request', errors: [{ message: 'text is longer than 280 characters' }] } } },
};

function textLimitReply(network: PlatformName, relativeUrl: string, body: Buffer): FakeReply | undefined {
  const rule = TEXT_LIMITS[network];
  if (!rule || !rule.path.test(new URL(relativeUrl, 'http://sandbox').pathname)) return undefined;
  let json: unknown;
  try { json = JSON.parse(body.toString('utf8')); } catch { return undefined; }
  const text = json && typeof json === 'object' ? rule.key(json as Record<string, unknown>) : undefined;
  return typeof text === 'string' && [...text].length > rule.max ? rule.reply : undefined;
}

function send(res: http.ServerResponse, reply: FakeReply): void {
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
}

/**
 * What a retry of the same post repeats: the field holding the rate-limit mark (the post's text), not the whole body,
 * which may change on every try (Bluesky's record carries a fresh createdAt). JSON and form bodies; else the body.
 */
export function markedText(body: string): string {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') { if (v.includes(RATE_LIMIT_MARK)) found.push(v); } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  try {
    walk(JSON.parse(body));
  } catch {
    for (const [, v] of new URLSearchParams(body)) walk(v);
  }
  return found.length ? found.join('\u0000') : body;
}

/** A 429 most networks' adapters read: Retry-After, plus Telegram's and Discord's own body fields. */
function tooManyRequests(seconds: number): FakeReply {
  return {
    status: 429, headers: { 'retry-after': String(seconds) },
    body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${seconds}`, parameters: { retry_after: seconds }, retry_after: seconds, message: 'You are being rate limited.', error: 'rate_limited' },
  };
}

/** Which requests publish something, per network (the rest sign in, check, upload or poll). */
const PUBLISH_PATHS: Record<string, RegExp> = {
  telegram: /^\/bot[^/]+\/send(Message|Photo|Video|MediaGroup)$/,
  bluesky: /^\/xrpc\/com\.atproto\.repo\.createRecord$/,
  mastodon: /^\/api\/v1\/statuses$/,
  discord: /^\/api\/webhooks\//,
  wordpress: /^\/wp-json\/wp\/v2\/posts$/,
  devto: /^\/api\/articles$/,
  hashnode: /^\/$/,
  slack: /^\/services\//,
  tiktok: /^\/v2\/post\/publish\/(video|content)\/init\/$/,
  youtube: /^\/upload\/youtube\/v3\/videos$/,
  reddit: /^\/api\/(submit|comment)$/,
  linkedin: /^\/rest\/(posts|socialActions\/.+\/comments)$/,
  facebook: /\/(feed|photos|videos|media|media_publish|comments)$/,
  x: /^\/2\/tweets$/,
  threads: /^\/v1\.0\/\d+\/threads$/,
  pinterest: /^\/v5\/pins$/,
  google_business: /^\/v4\/accounts\/\d+\/locations\/\d+\/localPosts$/,
};

const TEXT_KEYS = ['text', 'caption', 'content', 'message', 'commentary', 'body_markdown', 'contentMarkdown', 'status', 'description', 'summary'];
const TITLE_KEYS = ['title', 'name'];
const MEDIA_KEYS = ['photo', 'video', 'image_url', 'video_url', 'url', 'file_url', 'video_url', 'source_url', 'sourceUrl'];

function fieldsOf(req: RecordedRequest): Record<string, unknown> {
  if (req.json && typeof req.json === 'object') return req.json as Record<string, unknown>;
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(req.text));
  return Object.fromEntries(req.url.searchParams);
}

/** The first string under any of `keys`, searched breadth-first through nested objects. */
function find(value: unknown, keys: string[], depth = 0): string | undefined {
  if (!value || typeof value !== 'object' || depth > 4) return undefined;
  const obj = value as Record<string, unknown>;
  for (const k of keys) if (typeof obj[k] === 'string' && obj[k] !== '') return obj[k] as string;
  for (const v of Object.values(obj)) {
    const found = find(v, keys, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Which requests delete or edit a published post, per network (method and path as the network takes them). */
const CHANGE_PATHS: Record<string, Array<[string, RegExp, 'deleted' | 'edited']>> = {
  telegram: [['POST', /^\/bot[^/]+\/deleteMessage$/, 'deleted'], ['POST', /^\/bot[^/]+\/editMessage(Text|Caption)$/, 'edited']],
  bluesky: [['POST', /^\/xrpc\/com\.atproto\.repo\.deleteRecord$/, 'deleted']],
  mastodon: [['DELETE', /^\/api\/v1\/statuses\/[^/]+$/, 'deleted'], ['PUT', /^\/api\/v1\/statuses\/[^/]+$/, 'edited']],
  discord: [['DELETE', /^\/api\/webhooks\/.+\/messages\/\d+$/, 'deleted'], ['PATCH', /^\/api\/webhooks\/.+\/messages\/\d+$/, 'edited']],
  wordpress: [['DELETE', /^\/wp-json\/wp\/v2\/posts\/\d+$/, 'deleted'], ['POST', /^\/wp-json\/wp\/v2\/posts\/\d+$/, 'edited']],
  x: [['DELETE', /^\/2\/tweets\/\d+$/, 'deleted']],
  facebook: [['DELETE', /^\/v[\d.]+\/\d+(_\d+)?$/, 'deleted'], ['POST', /^\/v[\d.]+\/\d+(_\d+)?$/, 'edited']],
  linkedin: [['DELETE', /^\/rest\/posts\/[^/]+$/, 'deleted'], ['POST', /^\/rest\/posts\/[^/]+$/, 'edited']],
  youtube: [['DELETE', /^\/youtube\/v3\/videos$/, 'deleted'], ['PUT', /^\/youtube\/v3\/videos$/, 'edited']],
  reddit: [['POST', /^\/api\/del$/, 'deleted'], ['POST', /^\/api\/editusertext$/, 'edited']],
  devto: [['PUT', /^\/api\/articles\/\d+$/, 'edited']],
};

/** Requests whose path alone does not say (GraphQL on one path, dev.to's unpublish is an update): by their body. */
function changeOf(network: PlatformName, req: RecordedRequest): 'deleted' | 'edited' | undefined {
  const fields = req.method === 'POST' || req.method === 'PUT' ? fieldsOf(req) : {};
  if (network === 'hashnode' && req.method === 'POST' && req.path === '/') {
    const query = String(fields.query ?? '');
    return /removePost\(/.test(query) ? 'deleted' : /updatePost\(/.test(query) ? 'edited' : undefined;
  }
  const change = CHANGE_PATHS[network]?.find(([method, path]) => req.method === method && path.test(req.path))?.[2];
  if (network === 'devto' && change === 'edited' && (fields.article as { published?: unknown } | undefined)?.published === false) return 'deleted';
  return change;
}

function changeEntry(network: PlatformName, req: RecordedRequest, at: string | undefined): InboxEntry | undefined {
  const change = changeOf(network, req);
  if (!change) return undefined;
  const fields = change === 'edited' ? fieldsOf(req) : {};
  return {
    network, received_at: at ?? new Date().toISOString(), method: req.method, path: req.path,
    text: change === 'edited' ? find(fields, TEXT_KEYS) ?? null : null, title: change === 'edited' ? find(fields, TITLE_KEYS) ?? null : null, media: [], reply: false, change,
  };
}

function publishEntry(network: PlatformName, req: RecordedRequest, at: string | undefined): InboxEntry | undefined {
  if (req.method !== 'POST' || !PUBLISH_PATHS[network]?.test(req.path)) return undefined;
  const fields = fieldsOf(req);
  if (network === 'hashnode' && !/publishPost|createDraft/.test(String(fields.query ?? ''))) return undefined;
  // a Threads carousel item is part of the carousel post, not a post of its own
  if (network === 'threads' && fields.is_carousel_item === 'true') return undefined;
  const facebookLike = network === 'facebook' && /\/media$/.test(req.path) && 'image_url' in fields ? 'instagram' : network;
  const media = [find(fields, MEDIA_KEYS)].filter((m): m is string => !!m && /^https?:\/\//.test(m));
  const reply = find(fields, ['in_reply_to_id', 'reply', 'in_reply_to_tweet_id', 'thing_id', 'parent', 'reply_to_id']) !== undefined ||
    /comments$/.test(req.path) || (!!fields.reply && typeof fields.reply === 'object');
  return {
    network: facebookLike as PlatformName, received_at: at ?? new Date().toISOString(), method: req.method, path: req.path,
    text: find(fields, TEXT_KEYS) ?? null, title: find(fields, TITLE_KEYS) ?? null, media, reply,
  };
}

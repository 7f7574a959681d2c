import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { SimulatedFigures } from '../sandbox-kit/figures';
import { formOf, OAuthAuthority, OAuthFake } from '../sandbox-kit/oauth-authority';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

interface Container { id: string; params: Record<string, string>; polls: number; status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'PUBLISHED'; error?: string }

/**
 * A loopback Threads (graph.threads.net paths under /v1.0, the authorization window at /oauth/authorize), after
 * developers.facebook.com/docs/threads: the window consents at once; `POST /oauth/access_token` (form: client_id,
 * client_secret, grant_type=authorization_code, redirect_uri, code) → a short-lived token and user_id;
 * `GET /access_token?grant_type=th_exchange_token` → a long-lived one (expires_in ≈ 60 days);
 * `GET /refresh_access_token?grant_type=th_refresh_token` → a renewed one. The token travels as `access_token`.
 * Publishing: `POST /{user}/threads` (media_type TEXT | IMAGE | VIDEO | CAROUSEL, checked as the docs say: text for
 * TEXT, image_url / video_url, 2–20 children of is_carousel_item containers, text ≤ 500, reply_to_id, topic_tag of 1–50 characters without `.` or `&`), video
 * containers stay IN_PROGRESS for `containerPolls` status reads; `GET /{container}?fields=status,error_message`;
 * `POST /{user}/threads_publish {creation_id}` (a container not FINISHED → error 24 / 4279009; the quota counted);
 * `GET /{user}/threads_publishing_limit` → {data: [{quota_usage, config: {quota_total: 250, quota_duration: 86400}}]};
 * `GET /{media}?fields=permalink`; `GET /{media}/insights?metric=…` (growing lifetime values); `GET /me`; `GET /{user}/threads?fields&since&until&limit&after` (the user's own
 * top-level posts newest first, replies left out, as "Retrieve a list of all a user's threads" shows them: timestamp
 * as 2023-10-17T05:42:03+0000, paging.cursors, paging.next while more are left; limit 25 by default, 100 at most).
 * `failNext("POST /{user}/threads", reply)` plays a reply once.
 */
export class ThreadsFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({ prefix: 'th', clientId: '990602627938098', clientSecret: 'threads-app-secret', scopeSeparator: ',', standingToken: 'th-good-token' });
  userId = '17841401234567890';
  username = 'acme.bakery';
  /** Posts published in the last 24 hours (quota_usage). */
  quotaUsage = 0;
  readonly quotaTotal = 250;
  /** Status reads a video container answers IN_PROGRESS before FINISHED. */
  containerPolls = 0;
  /** The next video container ends in ERROR with this error_message. */
  failNextVideo?: string;
  readonly containers = new Map<string, Container>();
  /** Published posts: media id → the container's parameters. */
  readonly published = new Map<string, Record<string, string>>();
  /** When each post was published (ms), by the fake's clock. */
  readonly publishedAt = new Map<string, number>();
  /** The fake's clock for timestamps (a test sets its manual clock). */
  now: () => number = Date.now;
  /** Insights of the posts published here: plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());

  get token(): string { return this.oauth.standingToken!; }

  override reset(): void {
    super.reset();
    this.quotaUsage = 0;
    this.containerPolls = 0;
    this.failNextVideo = undefined;
    this.containers.clear();
    this.published.clear();
    this.publishedAt.clear();
  }

  protected override pathOf(req: RecordedRequest): string { return req.path.replace(/^\/v1\.0/, ''); }

  static error(message: string, code: number, subcode?: number, status = 400): FakeReply {
    return { status, body: { error: { message, type: 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: 'AbCdEf' } } };
  }

  protected route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const path = this.pathOf(req);
    const key = `${req.method} ${path}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    const q = Object.fromEntries(req.url.searchParams);
    if (key === 'GET /oauth/authorize') return this.oauth.authorize(req.url);
    if (key === 'POST /oauth/access_token') {
      const f = formOf(req.text);
      if (!this.oauth.clientOk(f.client_id, f.client_secret)) return ThreadsFake.error('Error validating client secret.', 101);
      if (f.grant_type !== 'authorization_code') return ThreadsFake.error('Unsupported grant_type', 100);
      const t = this.oauth.redeem(f.code, { client: f.client_id, redirectUri: f.redirect_uri });
      if (!t.ok) return ThreadsFake.error(`Invalid authorization code: ${t.description}`, 100, 36007);
      return { body: { access_token: t.access_token, user_id: Number(this.userId) } };
    }
    if (key === 'GET /access_token') {
      if (q.grant_type !== 'th_exchange_token' || q.client_secret !== this.oauth.clientSecret) return ThreadsFake.error('Error validating client secret.', 101);
      const long = this.oauth.exchange(q.access_token);
      if (!long) return ThreadsFake.error('Error validating access token: Session has expired.', 190, 463);
      return { body: { access_token: long, token_type: 'bearer', expires_in: 5183944 } };
    }
    if (key === 'GET /refresh_access_token') {
      if (q.grant_type !== 'th_refresh_token') return ThreadsFake.error('Unsupported grant_type', 100);
      const renewed = this.oauth.exchange(q.access_token);
      if (!renewed) return ThreadsFake.error('Error validating access token: Session has expired.', 190, 463);
      return { body: { access_token: renewed, token_type: 'bearer', expires_in: 5184000 } };
    }
    const f = req.method === 'POST' ? formOf(req.text) : q;
    if (!this.oauth.valid(f.access_token)) return ThreadsFake.error('Invalid OAuth access token - Cannot parse access token', 190, undefined, 401);
    if (key === 'GET /me' || key === `GET /${this.userId}`) return { body: { id: this.userId, username: this.username } };
    if (key === `GET /${this.userId}/threads_publishing_limit`) {
      return { body: { data: [{ quota_usage: this.quotaUsage, config: { quota_total: this.quotaTotal, quota_duration: 86400 } }] } };
    }
    if (key === `POST /${this.userId}/threads`) return this.createContainer(f);
    if (key === `GET /${this.userId}/threads`) return this.listThreads(q);
    if (key === `POST /${this.userId}/threads_publish`) return this.publish(f.creation_id);
    const id = /^\/(\d+)$/.exec(path)?.[1];
    if (req.method === 'GET' && id && this.containers.has(id) && !this.published.has(id)) {
      const c = this.containers.get(id)!;
      if (c.status === 'IN_PROGRESS' && c.polls-- <= 0) c.status = 'FINISHED';
      return { body: { id, status: c.status, ...(c.error ? { error_message: c.error } : {}) } };
    }
    const insights = /^\/(\d+)\/insights$/.exec(path)?.[1];
    if (req.method === 'GET' && insights) return this.insights(insights, q.metric ?? '');
    if (req.method === 'GET' && id && this.published.has(id)) return { body: { id, permalink: `https://www.threads.net/@${this.username}/post/C${id.slice(-8)}` } };
    return ThreadsFake.error('Unsupported get request.', 100, 33);
  }

  /** `GET /{media}/insights?metric=views,likes,…`: lifetime values of a post published here (growing: sandbox-kit/figures.ts). */
  private insights(id: string, metric: string): FakeReply {
    if (!this.published.has(id)) return ThreadsFake.error('Unsupported get request. Object does not exist.', 100, 33);
    const f = this.figures.of(id, this.publishedAt.get(id));
    const all: Record<string, number> = { views: f.views, likes: f.likes, replies: f.comments, reposts: f.shares, quotes: f.quotes, shares: f.shares };
    const names = metric.split(',').filter(Boolean);
    const unknown = names.find((n) => !(n in all));
    if (!names.length || unknown) return ThreadsFake.error(`Param metric must be one of {${Object.keys(all).join(', ')}}`, 100);
    return { body: { data: names.map((name) => ({ name, period: 'lifetime', values: [{ value: all[name] }], title: name, id: `${id}/insights/${name}/lifetime` })) } };
  }

  private createContainer(f: Record<string, string>): FakeReply {
    const type = f.media_type;
    if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(type)) return ThreadsFake.error('Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}', 100);
    if (f.text !== undefined && [...f.text].length > 500) return ThreadsFake.error('Param text must be at most 500 characters long.', 100);
    if (type === 'TEXT' && !f.text) return ThreadsFake.error('Param text is required for TEXT posts.', 100);
    if (type === 'IMAGE' && !f.image_url) return ThreadsFake.error('Param image_url is required for IMAGE posts.', 100);
    if (type === 'VIDEO' && !f.video_url) return ThreadsFake.error('Param video_url is required for VIDEO posts.', 100);
    if (type === 'CAROUSEL') {
      const children = (f.children ?? '').split(',').filter(Boolean);
      if (children.length < 2 || children.length > 20) return ThreadsFake.error('A carousel has 2 to 20 children.', 100);
      for (const c of children) {
        const child = this.containers.get(c);
        if (!child || child.params.is_carousel_item !== 'true') return ThreadsFake.error(`Child ${c} is not a carousel item container.`, 100);
        if (child.status !== 'FINISHED') return ThreadsFake.error('The media is not ready to be used in a carousel.', 24, 4279009);
      }
    }
    if (f.reply_to_id !== undefined && !/^\d+$/.test(f.reply_to_id)) return ThreadsFake.error('Param reply_to_id must be a media id.', 100);
    if (f.topic_tag !== undefined && ([...f.topic_tag].length < 1 || [...f.topic_tag].length > 50 || /[.&]/.test(f.topic_tag))) {
      return ThreadsFake.error('Param topic_tag must be 1 to 50 characters long and contain no periods (.) or ampersands (&).', 100);
    }
    const id = `18${String(++this.n).padStart(15, '0')}`;
    const video = type === 'VIDEO';
    const error = video && this.failNextVideo ? this.failNextVideo : undefined;
    if (error) this.failNextVideo = undefined;
    const { access_token: _token, ...params } = f;
    this.containers.set(id, { id, params, polls: video ? this.containerPolls : 0, status: error ? 'ERROR' : video && this.containerPolls > 0 ? 'IN_PROGRESS' : 'FINISHED', error });
    return { body: { id } };
  }

  private publish(creationId: string | undefined): FakeReply {
    const c = creationId ? this.containers.get(creationId) : undefined;
    if (!c) return ThreadsFake.error('Param creation_id is not a container of this user.', 100);
    if (c.params.is_carousel_item === 'true') return ThreadsFake.error('A carousel item cannot be published on its own.', 100);
    if (c.status === 'IN_PROGRESS') return ThreadsFake.error('The media is not ready for publishing, please wait for a moment', 24, 4279009);
    if (c.status !== 'FINISHED') return ThreadsFake.error('The media could not be published.', 24, 4279008);
    if (this.quotaUsage >= this.quotaTotal) return ThreadsFake.error('The user has reached the publishing limit.', 4, 2207042, 400);
    this.quotaUsage++;
    c.status = 'PUBLISHED';
    const id = `179${String(++this.n).padStart(14, '0')}`;
    this.published.set(id, c.params);
    this.publishedAt.set(id, this.now());
    return { body: { id } };
  }

  /** GET /{user}/threads: top-level posts newest first, from `since` to `until` (epoch seconds), `limit` a page. */
  private listThreads(q: Record<string, string>): FakeReply {
    const limit = q.limit === undefined ? 25 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 0 || limit > 100) return ThreadsFake.error('Param limit must be a number between 0 and 100', 100);
    if (q.since !== undefined && Number(q.since) < 1688540400) return ThreadsFake.error('Param since must be a timestamp from 1688540400 on', 100);
    const since = q.since === undefined ? 0 : Number(q.since) * 1000;
    const until = q.until === undefined ? Infinity : Number(q.until) * 1000;
    const fields = (q.fields ?? 'id').split(',');
    const mine = [...this.published.entries()]
      .filter(([id, p]) => p.reply_to_id === undefined && this.publishedAt.get(id)! >= since && this.publishedAt.get(id)! <= until)
      .sort(([a], [b]) => this.publishedAt.get(b)! - this.publishedAt.get(a)!);
    const from = Number(q.after ?? 0);
    const page = mine.slice(from, from + limit).map(([id, p]) => {
      const all: Record<string, unknown> = {
        id, media_product_type: 'THREADS', media_type: p.media_type === 'TEXT' ? 'TEXT_POST' : p.media_type === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : p.media_type,
        permalink: `https://www.threads.net/@${this.username}/post/C${id.slice(-8)}`, username: this.username,
        timestamp: new Date(this.publishedAt.get(id)!).toISOString().replace(/\.\d{3}Z$/, '+0000'), shortcode: `C${id.slice(-8)}`,
        ...(p.text !== undefined ? { text: p.text } : {}),
      };
      return Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k)));
    });
    const more = from + limit < mine.length;
    return { body: { data: page, paging: { cursors: { before: String(from), after: String(from + page.length) }, ...(more ? { next: `${this.url}/v1.0/${this.userId}/threads?after=${from + page.length}` } : {}) } } };
  }
}

const readThreads = readByPaths(/^\/v1\.0\/\d+\/threads$/);

/** Threads in the sandbox of `npm start`: video containers answer IN_PROGRESS once (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<ThreadsFake> = {
  create: () => {
    const fake = new ThreadsFake();
    fake.containerPolls = 1;
    return fake;
  },
  servers: (fake) => ({ threads: fake.server }),
  env: (fake) => oauthEnv('THREADS', fake, { THREADS_API_BASE: fake.url }),
  // a carousel item is part of the carousel post, not a post of its own
  read: (req, fields) => (fields.is_carousel_item === 'true' ? undefined : readThreads(req)),
};

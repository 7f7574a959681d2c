import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { basicCredentials, formOf, OAuthAuthority, OAuthFake, serveMedia } from '../sandbox-kit/oauth-authority';
import { SimulatedFigures } from '../sandbox-kit/figures';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

export interface FakeMedia {
  id: string;
  media_type: string;
  category: string;
  total: number;
  segments: Map<number, Buffer>;
  finalized: boolean;
  /** STATUS checks left answering in_progress. */
  polls: number;
}

/**
 * A loopback X: the authorize page (`GET /i/oauth2/authorize`, auto-consent, PKCE S256 checked at exchange), the
 * token endpoint (`POST /2/oauth2/token`, Basic client auth required, refresh tokens single-use: each refresh rotates),
 * `GET /2/users/me`, `GET /2/users/:id/tweets` (what it received, newest first, as X renders it), media upload v2 (initialize / append multipart / finalize / STATUS) and `POST /2/tweets`
 * (refuses duplicate text and unknown or unprocessed media, as X does), and `POST /2/media/metadata` (alt text of an
 * image or GIF, ≤ 1000 characters).
 * Videos and GIFs answer `processing_info` pending at finalize, then `processingPolls` STATUS checks in_progress before
 * succeeded (`processingFails` → failed). `failNext(route, reply)` plays a reply once ("POST /2/tweets").
 */
export class XFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({ prefix: 'x', clientId: 'x-client-id', clientSecret: 'x-client-secret', rotate: true, standingToken: 'x-good-token' });
  user = { id: '1500000000000000001', name: 'Acme', username: 'acmehq' };
  processingPolls = 1;
  processingFails = false;
  readonly media = new Map<string, FakeMedia>();
  readonly files = new Map<string, { type: string; bytes: Buffer }>();
  readonly tweets: Array<{ id: string; body: Record<string, unknown>; created_at?: string }> = [];
  /** The fake's clock for created_at (a test sets its manual clock). */
  now: () => number = Date.now;
  /** Ids of tweets taken back with DELETE /2/tweets/:id. */
  readonly deleted = new Set<string>();
  /** The public metrics a tweet made here shows: plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());
  /** Alt texts set through /2/media/metadata, by media id. */
  readonly altTexts = new Map<string, string>();

  /** The fixed token adapter tests use without a sign-in. */
  get token(): string { return this.oauth.standingToken!; }

  override reset(): void {
    super.reset();
    this.media.clear();
    this.files.clear();
    this.tweets.length = 0;
    this.deleted.clear();
    this.altTexts.clear();
    this.processingPolls = 1;
    this.processingFails = false;
  }

  static problem(status: number, title: string, detail: string, type = 'about:blank'): FakeReply {
    return { status, body: { title, detail, type, status } };
  }

  protected async route(req: RecordedRequest): Promise<FakeReply> {
    const file = serveMedia(req, this.files);
    if (file) return file;
    const key = `${req.method} ${req.path.replace(/^\/2\/media\/upload\/[^/]+\/(append|finalize)$/, '/2/media/upload/:id/$1').replace(/^\/2\/tweets\/[^/]+$/, '/2/tweets/:id')}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    if (key === 'GET /i/oauth2/authorize') return this.oauth.authorize(req.url);
    if (key === 'POST /2/oauth2/token') return this.tokenEndpoint(req);
    if (!this.bearerOk(req)) return XFake.problem(401, 'Unauthorized', 'Unauthorized');
    const body = (req.json ?? {}) as Record<string, unknown>;
    switch (key) {
      case 'GET /2/users/me':
        return { status: 200, body: { data: this.user } };
      case 'POST /2/media/upload/initialize': {
        const id = String(1_860_000_000_000_000_000n + BigInt(++this.n));
        this.media.set(id, {
          id, media_type: String(body.media_type), category: String(body.media_category), total: Number(body.total_bytes), segments: new Map(), finalized: false, polls: 0,
        });
        return { status: 200, body: { data: { id, media_key: `3_${id}`, expires_after_secs: 86_400 } } };
      }
      case 'POST /2/media/upload/:id/append': {
        const m = this.media.get(req.path.split('/')[4]);
        if (!m) return XFake.problem(400, 'Invalid Request', 'media_id is not valid');
        const data = await new Response(new Uint8Array(req.body), { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
        const chunk = data.get('media');
        if (!(chunk instanceof Blob)) return XFake.problem(400, 'Invalid Request', 'media is required');
        m.segments.set(Number(data.get('segment_index')), Buffer.from(await chunk.arrayBuffer()));
        return { status: 200, body: { data: { expires_at: 1_900_000_000 } } };
      }
      case 'POST /2/media/upload/:id/finalize': {
        const m = this.media.get(req.path.split('/')[4]);
        if (!m) return XFake.problem(400, 'Invalid Request', 'media_id is not valid');
        if (this.bytesOf(m).length !== m.total) return XFake.problem(400, 'Invalid Request', 'File size does not match total_bytes');
        m.finalized = true;
        const data: Record<string, unknown> = { id: m.id, media_key: `3_${m.id}`, size: m.total, expires_after_secs: 86_400 };
        if (m.category !== 'tweet_image') {
          m.polls = this.processingPolls;
          data.processing_info = { state: 'pending', check_after_secs: 1 };
        }
        return { status: 200, body: { data } };
      }
      case 'GET /2/media/upload': {
        const m = this.media.get(req.url.searchParams.get('media_id') ?? '');
        if (!m || req.url.searchParams.get('command') !== 'STATUS') return XFake.problem(400, 'Invalid Request', 'media_id is not valid');
        return { status: 200, body: { data: { id: m.id, media_key: `3_${m.id}`, processing_info: this.statusOf(m) } } };
      }
      case 'POST /2/tweets': return this.createTweet(body);
      case 'GET /2/tweets': {
        // tweet lookup with public_metrics: the tweets made here, with simulated, growing counts (sandbox-kit/figures.ts)
        const ids = (req.url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
        const made = new Map(this.tweets.map((t) => [t.id, t]));
        const data = ids.filter((id) => made.has(id) && !this.deleted.has(id)).map((id) => {
          const f = this.figures.of(`x:${id}`, Date.parse(String(made.get(id)!.created_at)));
          return { id, text: String(made.get(id)!.body.text ?? ''), public_metrics: { retweet_count: f.shares, reply_count: f.comments, like_count: f.likes, quote_count: f.quotes, bookmark_count: f.saves, impression_count: f.views } };
        });
        const errors = ids.filter((id) => !data.some((d) => d.id === id)).map((id) => ({ resource_id: id, resource_type: 'tweet', parameter: 'ids', title: 'Not Found Error', type: 'https://api.twitter.com/2/problems/resource-not-found', detail: `Could not find tweet with ids: [${id}].` }));
        return { status: 200, body: { ...(data.length ? { data } : {}), ...(errors.length ? { errors } : {}) } };
      }
      case 'DELETE /2/tweets/:id': {
        const id = req.path.split('/').pop() ?? '';
        if (!this.tweets.some((t) => t.id === id) || this.deleted.has(id)) return XFake.problem(404, 'Not Found Error', 'Could not find tweet with id: [' + id + '].');
        this.deleted.add(id);
        return { status: 200, body: { data: { deleted: true } } };
      }
      case `GET /2/users/${this.user.id}/tweets`: return this.userTweets(req.url.searchParams);
      case 'POST /2/media/metadata': return this.mediaMetadata(body);
      default:
        return XFake.problem(404, 'Not Found Error', 'no such endpoint');
    }
  }

  /** The bytes of an upload, segments in index order. */
  bytesOf(m: FakeMedia): Buffer {
    return Buffer.concat([...m.segments.entries()].sort(([a], [b]) => a - b).map(([, b]) => b));
  }

  private statusOf(m: FakeMedia): Record<string, unknown> {
    if (m.category === 'tweet_image') return { state: 'succeeded', progress_percent: 100 };
    if (m.polls > 0) {
      m.polls--;
      return { state: 'in_progress', check_after_secs: 1, progress_percent: 50 };
    }
    if (this.processingFails) return { state: 'failed', progress_percent: 100, error: { code: 1, name: 'InvalidMedia', message: 'Unsupported video codec' } };
    m.polls = -1;
    return { state: 'succeeded', progress_percent: 100 };
  }

  /** Alt text of an uploaded image or GIF (`POST /2/media/metadata` {id, metadata: {alt_text: {text}}}, ≤ 1000 characters). */
  private mediaMetadata(body: Record<string, unknown>): FakeReply {
    const m = this.media.get(String(body.id ?? ''));
    const text = (body.metadata as { alt_text?: { text?: unknown } } | undefined)?.alt_text?.text;
    if (!m) return XFake.problem(400, 'Invalid Request', `One or more parameters to your request was invalid: id ${String(body.id)}`);
    if (typeof text !== 'string' || [...text].length > 1000) return XFake.problem(400, 'Invalid Request', 'alt_text.text must be 1 to 1000 characters');
    if (m.category === 'tweet_video') return XFake.problem(400, 'Invalid Request', 'alt_text is supported for images and GIFs only');
    this.altTexts.set(m.id, text);
    return { status: 200, body: { data: { associated_metadata: { alt_text: { text } }, id: m.id } } };
  }

  private createTweet(body: Record<string, unknown>): FakeReply {
    const text = String(body.text ?? '');
    const ids = ((body.media as { media_ids?: string[] } | undefined)?.media_ids ?? []);
    for (const id of ids) {
      const m = this.media.get(id);
      if (!m || !m.finalized) return XFake.problem(400, 'Invalid Request', `Your media IDs are invalid: ${id}`);
      if (m.category !== 'tweet_image' && m.polls !== -1) return XFake.problem(400, 'Invalid Request', `Your media ID ${id} is still processing`);
    }
    if (this.tweets.some((t) => t.body.text === text)) return XFake.problem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
    const id = String(1_870_000_000_000_000_000n + BigInt(this.tweets.length + 1));
    this.tweets.push({ id, body, created_at: new Date(this.now()).toISOString() });
    return { status: 201, body: { data: { id, text, edit_history_tweet_ids: [id] } } };
  }

  /**
   * The user's posts newest first as X serves them: from start_time on, max_results per page with meta.next_token;
   * links as t.co (entities.urls has the expanded URL), a media post with its media link appended, & < > escaped.
   */
  private userTweets(q: URLSearchParams): FakeReply {
    const since = Date.parse(q.get('start_time') ?? '1970-01-01T00:00:00Z');
    const max = Number(q.get('max_results') ?? 10);
    if (!(max >= 5 && max <= 100)) return XFake.problem(400, 'Invalid Request', 'The `max_results` query parameter value is not between 5 and 100');
    const mine = this.tweets.filter((t) => t.created_at && Date.parse(t.created_at) >= since && !this.deleted.has(t.id)).reverse();
    const from = Number(q.get('pagination_token') ?? 0);
    const data = mine.slice(from, from + max).map((t) => {
      const urls: Array<Record<string, unknown>> = [];
      let text = String(t.body.text ?? '').replace(/https?:\/\/\S+/g, (url) => {
        const short = `https://t.co/${urls.length}${t.id.slice(-4)}`;
        urls.push({ url: short, expanded_url: url, display_url: url.replace(/^https?:\/\//, '') });
        return short;
      });
      const media = (t.body.media as { media_ids?: string[] } | undefined)?.media_ids ?? [];
      if (media.length) {
        const short = `https://t.co/m${t.id.slice(-4)}`;
        urls.push({ url: short, expanded_url: `https://x.com/${this.user.username}/status/${t.id}/photo/1`, media_key: `3_${media[0]}` });
        text = `${text} ${short}`;
      }
      text = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      return { id: t.id, text, created_at: t.created_at, edit_history_tweet_ids: [t.id], ...(urls.length ? { entities: { urls } } : {}) };
    });
    const next = from + max < mine.length ? String(from + max) : undefined;
    return { status: 200, body: { ...(data.length ? { data } : {}), meta: { result_count: data.length, ...(next ? { next_token: next } : {}) } } };
  }

  private tokenEndpoint(req: RecordedRequest): FakeReply {
    if (!this.oauth.clientOk(...basicCredentials(req.headers.authorization))) {
      return { status: 401, body: { error: 'unauthorized_client', error_description: 'Missing valid authorization header' } };
    }
    const f = formOf(req.text);
    const result = this.oauth.tokenRequest(f);
    if (!result) return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'grant_type is not supported' } };
    if (!result.ok) {
      // X answers a bad code or a spent / revoked refresh token with invalid_request.
      return { status: 400, body: { error: 'invalid_request', error_description: f.grant_type === 'refresh_token' ? 'Value passed for the token was invalid.' : result.description } };
    }
    return { status: 200, body: { token_type: 'bearer', expires_in: 7200, access_token: result.access_token, scope: result.scope, refresh_token: result.refresh_token } };
  }
}

/** X in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<XFake> = {
  create: () => new XFake(),
  servers: (fake) => ({ x: fake.server }),
  env: (fake) => oauthEnv('X', fake, { X_API_BASE: fake.url }),
  read: readByPaths(/^\/2\/tweets$/, [['DELETE', /^\/2\/tweets\/\d+$/, 'deleted']]),
  textLimit: {
    path: /^\/2\/tweets$/, text: (b) => b.text, max: 280,
    reply: { status: 400, body: { title: 'Invalid Request', detail: 'One or more parameters to your request was invalid.', type: 'https://api.twitter.com/2/problems/invalid-request', errors: [{ message: 'text is longer than 280 characters' }] } },
  },
};

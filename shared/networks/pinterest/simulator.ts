import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { basicCredentials, formOf, OAuthAuthority, OAuthFake } from '../sandbox-kit/oauth-authority';
import { SimulatedFigures } from '../sandbox-kit/figures';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

interface Upload { id: string; uploaded: boolean; polls: number; failed: boolean }
export interface Pin { id: string; body: Record<string, unknown>; created_at?: string }

/**
 * A loopback Pinterest (API v5 paths, the authorize page at /oauth/), after developers.pinterest.com/docs/api/v5:
 * `GET /oauth/` consents at once; `POST /v5/oauth/token` (HTTP Basic client auth; authorization_code or
 * refresh_token; access 30 days, refresh a year, refresh answers keep the refresh token); `GET /v5/user_account`;
 * `GET /v5/boards` ({items, bookmark}); `POST /v5/media {media_type: "video"}` → {media_id, upload_url,
 * upload_parameters}; `POST /upload` (the "S3" form: every upload parameter, then `file`) → 204;
 * `GET /v5/media/{id}` (registered → processing for `mediaPolls` reads → succeeded, or failed with `failNextVideo`);
 * `POST /v5/pins` (board must be the user's, media_source image_url {url} or video_id {media_id} of a succeeded
 * upload, title ≤ 100, description ≤ 500, alt_text ≤ 500) → 201 the Pin; `GET /v5/boards/{board_id}/pins?page_size&bookmark`
 * (the board's Pins, {items, bookmark}; page_size 25 by default, 1–250); `GET /v5/pins/{id}/analytics` (growing figures). Times as the reference's examples:
 * 2020-01-01T20:10:40-00:00. Errors as Pinterest's `{code, message}`.
 */
export class PinterestFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({ prefix: 'pin', clientId: '1484362', clientSecret: 'pinterest-app-secret', scopeSeparator: ',', standingToken: 'pina_good-token' });
  username = 'acmebakery';
  boards = [{ id: '549755885175', name: 'Cakes', privacy: 'PUBLIC' }, { id: '549755885176', name: 'Breads', privacy: 'PUBLIC' }];
  /** Status reads an uploaded video answers processing before succeeded. */
  mediaPolls = 0;
  failNextVideo = false;
  readonly uploads = new Map<string, Upload>();
  readonly pins: Pin[] = [];
  /** The fake's clock for created_at (a test sets its manual clock). */
  now: () => number = Date.now;
  /** Pin analytics of the Pins made here: plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());

  get token(): string { return this.oauth.standingToken!; }

  override reset(): void {
    super.reset();
    this.mediaPolls = 0;
    this.failNextVideo = false;
    this.uploads.clear();
    this.pins.length = 0;
    this.boards = [{ id: '549755885175', name: 'Cakes', privacy: 'PUBLIC' }, { id: '549755885176', name: 'Breads', privacy: 'PUBLIC' }];
  }

  static error(status: number, code: number, message: string): FakeReply { return { status, body: { code, message } }; }

  protected route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const key = `${req.method} ${req.path}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    if (key === 'GET /oauth/') return this.oauth.authorize(req.url);
    if (key === 'POST /v5/oauth/token') return this.tokenEndpoint(req);
    if (key === 'POST /upload') return this.upload(req);
    if (!this.bearerOk(req)) return PinterestFake.error(401, 2, 'Authentication failed.');
    if (key === 'GET /v5/user_account') return { body: { account_type: 'BUSINESS', username: this.username, profile_image: 'https://i.pinimg.com/a.jpg', website_url: 'https://example.com' } };
    if (key === 'GET /v5/boards') return { body: { items: this.boards, bookmark: null } };
    if (key === 'POST /v5/media') {
      if ((req.json as { media_type?: string } | undefined)?.media_type !== 'video') return PinterestFake.error(400, 1, 'Invalid parameters: media_type must be video.');
      const id = String(5_000_000 + ++this.n);
      this.uploads.set(id, { id, uploaded: false, polls: this.mediaPolls, failed: this.failNextVideo });
      this.failNextVideo = false;
      return {
        status: 201,
        body: { media_id: id, media_type: 'video', upload_url: `${this.url}/upload`, upload_parameters: { key: `uploads/${id}/video.mp4`, 'x-amz-date': '20261127T000000Z', 'x-amz-signature': 'abc123', 'x-amz-algorithm': 'AWS4-HMAC-SHA256', 'Content-Type': 'multipart/form-data', policy: 'eyJ9' } },
      };
    }
    const media = /^\/v5\/media\/(\d+)$/.exec(req.path)?.[1];
    if (req.method === 'GET' && media) {
      const u = this.uploads.get(media);
      if (!u) return PinterestFake.error(404, 404, 'Media not found.');
      const status = !u.uploaded ? 'registered' : u.failed ? 'failed' : u.polls-- > 0 ? 'processing' : 'succeeded';
      return { body: { media_id: u.id, media_type: 'video', status } };
    }
    if (key === 'POST /v5/pins') return this.createPin(req);
    const analytics = /^\/v5\/pins\/(\d+)\/analytics$/.exec(req.path)?.[1];
    if (req.method === 'GET' && analytics) return this.pinAnalytics(analytics, req.url.searchParams);
    const boardPins = /^\/v5\/boards\/(\d+)\/pins$/.exec(req.path)?.[1];
    if (req.method === 'GET' && boardPins) return this.listPins(boardPins, req.url.searchParams);
    return PinterestFake.error(404, 404, 'Not found.');
  }

  private tokenEndpoint(req: RecordedRequest): FakeReply {
    const [id, secret] = basicCredentials(req.headers.authorization);
    if (!this.oauth.clientOk(id, secret)) return { status: 401, body: { code: 2, message: 'Authentication failed.' } };
    const f = formOf(req.text);
    const r = this.oauth.tokenRequest(f, id);
    if (!r) return { status: 400, body: { error: 'unsupported_grant_type' } };
    if (!r.ok) return { status: 400, body: { error: r.error, error_description: r.description } };
    const refresh = f.grant_type === 'authorization_code' ? { refresh_token: r.refresh_token, refresh_token_expires_in: 31_536_000 } : {};
    return { body: { access_token: r.access_token, response_type: f.grant_type, token_type: 'bearer', expires_in: 2_592_000, scope: r.scope, ...refresh } };
  }

  private upload(req: RecordedRequest): FakeReply {
    const text = req.body.toString('latin1');
    const key = /name="key"\r\n\r\nuploads\/(\d+)\//.exec(text)?.[1];
    const u = key ? this.uploads.get(key) : undefined;
    if (!u || !/name="file"; filename="[^"]*"/.test(text)) return { status: 400, headers: { 'content-type': 'application/xml' }, body: '<Error><Code>InvalidArgument</Code><Message>POST requires key and file</Message></Error>' };
    // the file must come last: S3 ignores fields after it
    if (text.lastIndexOf('name="file"') < text.lastIndexOf('name="policy"')) return { status: 400, body: '<Error><Code>InvalidArgument</Code><Message>file must be the last field</Message></Error>' };
    u.uploaded = true;
    return { status: 204 };
  }

  private createPin(req: RecordedRequest): FakeReply {
    const b = (req.json ?? {}) as Record<string, unknown>;
    const source = (b.media_source ?? {}) as Record<string, unknown>;
    if (!this.boards.some((x) => x.id === b.board_id)) return PinterestFake.error(404, 404, 'Board not found.');
    if (typeof b.title === 'string' && [...b.title].length > 100) return PinterestFake.error(400, 1, 'Invalid parameters: title is longer than 100 characters.');
    if (typeof b.description === 'string' && [...b.description].length > 500) return PinterestFake.error(400, 1, 'Invalid parameters: description is longer than 500 characters.');
    if (typeof b.alt_text === 'string' && [...b.alt_text].length > 500) return PinterestFake.error(400, 1, 'Invalid parameters: alt_text is longer than 500 characters.');
    if (source.source_type === 'image_url') {
      if (typeof source.url !== 'string' || !/^https?:\/\//.test(source.url)) return PinterestFake.error(400, 1, 'Invalid parameters: media_source.url.');
    } else if (source.source_type === 'video_id') {
      const u = this.uploads.get(String(source.media_id));
      if (!u || !u.uploaded || u.failed || u.polls > 0) return PinterestFake.error(400, 1, 'Invalid parameters: the video is not ready.');
    } else {
      return PinterestFake.error(400, 1, 'Invalid parameters: media_source.source_type.');
    }
    const id = String(813_000_000_000_000 + ++this.n);
    const created = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, '-00:00');
    this.pins.push({ id, body: b, created_at: created });
    this.figures.published(id);
    return { status: 201, body: this.pinView({ id, body: b, created_at: created }) };
  }

  private pinView(p: Pin): Record<string, unknown> {
    const b = p.body;
    return { id: p.id, created_at: p.created_at, board_id: b.board_id, title: b.title ?? null, description: b.description ?? null, link: b.link ?? null, alt_text: b.alt_text ?? null };
  }

  /**
   * `GET /v5/pins/{id}/analytics?start_date&end_date&metric_types`: {all: {daily_metrics, summary_metrics}} with the
   * asked metrics of a Pin made here (start_date at most 90 days back, end_date not before it); unknown Pin → 404.
   */
  private pinAnalytics(id: string, q: URLSearchParams): FakeReply {
    if (!this.pins.some((p) => p.id === id)) return PinterestFake.error(404, 50, 'Pin not found.');
    const start = Date.parse(q.get('start_date') ?? '');
    const end = Date.parse(q.get('end_date') ?? '');
    const metrics = (q.get('metric_types') ?? '').split(',').filter(Boolean);
    if (!start || !end || end < start || start < this.now() - 90 * 86_400_000 - 86_400_000 || !metrics.length) {
      return PinterestFake.error(400, 1, 'Invalid parameters: start_date, end_date (at most 90 days back) and metric_types are required.');
    }
    const f = this.figures.of(id);
    const all: Record<string, number> = { IMPRESSION: f.views, SAVE: f.saves, PIN_CLICK: f.clicks, OUTBOUND_CLICK: Math.floor(f.clicks / 3) };
    const summary = Object.fromEntries(metrics.filter((m) => m in all).map((m) => [m, all[m]]));
    return { body: { all: { daily_metrics: [{ date: new Date(this.now()).toISOString().slice(0, 10), data_status: 'READY', metrics: summary }], summary_metrics: summary } } };
  }

  /** The board's Pins, newest first, a page of `page_size` from the `bookmark` on. */
  private listPins(board: string, q: URLSearchParams): FakeReply {
    if (!this.boards.some((x) => x.id === board)) return PinterestFake.error(404, 404, 'Board not found.');
    const size = q.get('page_size') === null ? 25 : Number(q.get('page_size'));
    if (!Number.isInteger(size) || size < 1 || size > 250) return PinterestFake.error(400, 1, 'Invalid parameters: page_size must be between 1 and 250.');
    const all = this.pins.filter((p) => p.body.board_id === board).reverse();
    const from = Number(q.get('bookmark') ?? 0);
    const more = from + size < all.length;
    return { body: { items: all.slice(from, from + size).map((p) => this.pinView(p)), bookmark: more ? String(from + size) : null } };
  }
}

/** Pinterest in the sandbox of `npm start`: video uploads answer processing once (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<PinterestFake> = {
  create: () => {
    const fake = new PinterestFake();
    fake.mediaPolls = 1;
    return fake;
  },
  servers: (fake) => ({ pinterest: fake.server }),
  env: (fake) => oauthEnv('PINTEREST', fake, { PINTEREST_API_BASE: fake.url }),
  read: readByPaths(/^\/v5\/pins$/),
};

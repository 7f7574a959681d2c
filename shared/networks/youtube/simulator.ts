import { SimulatedFigures } from '../sandbox-kit/figures';
import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { formOf, OAuthAuthority, OAuthFake, serveMedia } from '../sandbox-kit/oauth-authority';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

export interface UploadSession {
  id: string;
  metadata: unknown;
  total: number;
  type: string;
  /** The chunks stored, in order (joined by `bytes`). */
  parts: Buffer[];
  /** Bytes stored so far. */
  received: number;
  /** Byte ranges stored, in order, as [first, last] (inclusive), one per PUT that carried bytes. */
  ranges: Array<[number, number]>;
  videoId?: string;
  expired: boolean;
}

/**
 * A loopback Google + YouTube: the authorize page (`GET /o/oauth2/v2/auth`, auto-consent), the token endpoint
 * (`POST /token`, client_id + client_secret in the form; refresh tokens never rotate and refresh answers carry none),
 * `GET /youtube/v3/channels?mine=true` (with part=contentDetails: the uploads playlist), `GET /youtube/v3/playlistItems`
 * (the uploads playlist: what was uploaded here, newest first), and resumable uploads: `POST /upload/youtube/v3/videos?uploadType=resumable`
 * → Location session URI; `PUT <session>` with Content-Range stores bytes (308 + Range while incomplete, 200 + the
 * video resource when complete; `bytes *\/total` probes). `interruptNext(keep, reply)` makes the next chunk store only
 * `keep` bytes and answer `reply` (503, hang…); `failNext(route, reply)` plays a reply once ("POST /upload/youtube/v3/videos").
 * `POST /upload/youtube/v3/thumbnails/set` (JPEG/PNG ≤ 2 MB) and `POST /youtube/v3/playlistItems` (`playlists`).
 * videos.list (snippet, or statistics with growing counts) / update (snippet) / delete of the videos in `uploads`.
 * GET /media/<name> serves test files.
 */
export class YouTubeFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({ prefix: 'yt', clientId: 'yt-client.apps.googleusercontent.com', clientSecret: 'yt-secret', standingToken: 'yt-good-token' });
  channels = [{ id: 'UCacme000000000000000001', snippet: { title: 'Acme Channel', customUrl: '@acmechannel', description: '' } }];
  readonly sessions = new Map<string, UploadSession>();
  readonly media = new Map<string, { type: string; bytes: Buffer }>();
  /** Thumbnails set per video id, and the channel's playlists (id → video ids added). */
  readonly thumbnails = new Map<string, { type: string; bytes: Buffer }>();
  readonly playlists = new Map<string, string[]>();
  /** The channel's uploads playlist, newest first: videos uploaded here, or seeded by a test. */
  readonly uploads: Array<{ videoId: string; title: string; description: string; publishedAt: string; categoryId?: string; tags?: string[] }> = [];
  /** The fake's clock for publishedAt (a test sets its manual clock). */
  now: () => number = Date.now;
  /** statistics of the videos uploaded here: plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());
  private interrupt?: { keep: number; reply: FakeReply };

  /** The fixed token adapter tests use without a sign-in. */
  get token(): string { return this.oauth.standingToken!; }

  override reset(): void {
    super.reset();
    this.sessions.clear();
    this.media.clear();
    this.thumbnails.clear();
    this.playlists.clear();
    this.uploads.length = 0;
    this.interrupt = undefined;
    this.channels = [{ id: 'UCacme000000000000000001', snippet: { title: 'Acme Channel', customUrl: '@acmechannel', description: '' } }];
  }

  /** The next chunk PUT stores only its first `keep` bytes, then answers `reply` (a dropped connection, a 503, a hang). */
  interruptNext(keep: number, reply: FakeReply): void { this.interrupt = { keep, reply }; }

  static error(status: number, reason: string, message: string): FakeReply {
    return { status, body: { error: { code: status, message, errors: [{ message, domain: 'youtube.quota', reason }] } } };
  }

  protected route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const file = serveMedia(req, this.media);
    if (file) return file;
    const key = `${req.method} ${req.path}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    if (key === 'GET /o/oauth2/v2/auth') return this.oauth.authorize(req.url);
    if (key === 'POST /token') return this.tokenEndpoint(req);
    if (!this.bearerOk(req)) {
      return { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', errors: [{ reason: 'authError', domain: 'global' }], status: 'UNAUTHENTICATED' } } };
    }
    if (key === 'GET /youtube/v3/channels') {
      const items = req.url.searchParams.get('part')?.includes('contentDetails')
        ? this.channels.map((c) => ({ ...c, contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${c.id.slice(2)}` } } }))
        : this.channels;
      return { status: 200, body: { kind: 'youtube#channelListResponse', items } };
    }
    if (key === 'GET /youtube/v3/playlistItems') return this.uploadsPage(req.url.searchParams);
    if (key === 'POST /upload/youtube/v3/videos') {
      const id = `upl-${++this.n}`;
      this.sessions.set(id, {
        id, metadata: req.json, total: Number(req.headers['x-upload-content-length']), type: String(req.headers['x-upload-content-type']),
        parts: [], received: 0, ranges: [], expired: false,
      });
      return { status: 200, headers: { location: `${this.url}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status&upload_id=${id}` } };
    }
    if (key === 'PUT /upload/youtube/v3/videos') return this.put(req);
    if (key === 'POST /upload/youtube/v3/thumbnails/set') return this.setThumbnail(req);
    if (key === 'POST /youtube/v3/playlistItems') return this.addToPlaylist(req);
    if (req.path === '/youtube/v3/videos' && ['GET', 'PUT', 'DELETE'].includes(req.method)) return this.video(req);
    return { status: 404, body: { error: { code: 404, message: 'Not Found' } } };
  }

  /**
   * videos.list (`GET /youtube/v3/videos?part=snippet&id=`: items[] with snippet {title, description, categoryId '22',
   * tags?}), videos.update (`PUT /youtube/v3/videos?part=snippet` {id, snippet}: title and categoryId required, the
   * snippet is replaced as sent) and videos.delete (`DELETE /youtube/v3/videos?id=` → 204); an unknown id answers 404
   * videoNotFound (list: no items).
   */
  private video(req: RecordedRequest): FakeReply {
    const q = req.url.searchParams;
    const body = (req.json ?? {}) as { id?: string; snippet?: Record<string, unknown> };
    const id = req.method === 'PUT' ? String(body.id ?? '') : q.get('id') ?? '';
    const v = this.uploads.find((u) => u.videoId === id);
    if (req.method === 'GET' && (q.get('part') ?? '').split(',').includes('statistics')) {
      // videos.list with statistics (post analytics): up to 50 ids, counts as strings of digits, as YouTube sends them
      const ids = (q.get('id') ?? '').split(',').filter(Boolean);
      if (!ids.length || ids.length > 50) return YouTubeFake.error(400, 'invalidParameter', 'id must name 1 to 50 videos');
      const items = this.uploads.filter((u) => ids.includes(u.videoId)).map((u) => {
        const f = this.figures.of(u.videoId, Date.parse(u.publishedAt));
        return { kind: 'youtube#video', id: u.videoId, statistics: { viewCount: String(f.views), likeCount: String(f.likes), favoriteCount: '0', commentCount: String(f.comments) } };
      });
      return { body: { kind: 'youtube#videoListResponse', items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } } };
    }
    if (req.method === 'GET') {
      return { body: { kind: 'youtube#videoListResponse', items: v ? [{ kind: 'youtube#video', id, snippet: { title: v.title, description: v.description, categoryId: v.categoryId ?? '22', ...(v.tags ? { tags: v.tags } : {}) } }] : [] } };
    }
    if (!v) return YouTubeFake.error(404, 'videoNotFound', 'The video that you are trying to update cannot be found.');
    if (req.method === 'DELETE') {
      this.uploads.splice(this.uploads.indexOf(v), 1);
      return { status: 204, body: '' };
    }
    if (q.get('part') !== 'snippet') return YouTubeFake.error(400, 'invalidPart', 'part must name the parts sent');
    const snippet = body.snippet ?? {};
    if (!snippet.title) return YouTubeFake.error(400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.');
    if (!snippet.categoryId) return YouTubeFake.error(400, 'invalidCategoryId', 'The request metadata specifies an invalid video category.');
    v.title = String(snippet.title);
    v.description = String(snippet.description ?? '');
    v.categoryId = String(snippet.categoryId);
    v.tags = Array.isArray(snippet.tags) ? snippet.tags.map(String) : undefined;
    return { body: { kind: 'youtube#video', id, snippet } };
  }

  private uploadedVideo(id: string): boolean {
    return [...this.sessions.values()].some((s) => s.videoId === id);
  }

  /** thumbnails.set: raw JPEG/PNG bytes (≤ 2 MB) for an uploaded video. */
  private setThumbnail(req: RecordedRequest): FakeReply {
    const videoId = req.url.searchParams.get('videoId') ?? '';
    const type = String(req.headers['content-type'] ?? '');
    if (!this.uploadedVideo(videoId)) return { status: 404, body: { error: { code: 404, message: 'The video that you are trying to update cannot be found.', errors: [{ reason: 'videoNotFound' }] } } };
    if (!['image/jpeg', 'image/png'].includes(type) || req.body.length > 2 * 1024 * 1024) {
      return { status: 400, body: { error: { code: 400, message: 'The thumbnail image is invalid.', errors: [{ reason: 'invalidImage' }] } } };
    }
    this.thumbnails.set(videoId, { type, bytes: req.body });
    return { status: 200, body: { kind: 'youtube#thumbnailSetResponse', items: [{ default: { url: `https://i.ytimg.com/vi/${videoId}/default.jpg` } }] } };
  }

  /** playlistItems.insert (part=snippet): {snippet: {playlistId, resourceId: {kind: youtube#video, videoId}}}. */
  private addToPlaylist(req: RecordedRequest): FakeReply {
    const snippet = (req.json as { snippet?: { playlistId?: string; resourceId?: { kind?: string; videoId?: string } } } | undefined)?.snippet;
    if (req.url.searchParams.get('part') !== 'snippet' || !snippet?.playlistId || snippet.resourceId?.kind !== 'youtube#video') {
      return { status: 400, body: { error: { code: 400, message: 'Invalid playlist item', errors: [{ reason: 'invalidValue' }] } } };
    }
    if (!this.playlists.has(snippet.playlistId)) return { status: 404, body: { error: { code: 404, message: 'Playlist not found.', errors: [{ reason: 'playlistNotFound' }] } } };
    this.playlists.get(snippet.playlistId)!.push(snippet.resourceId.videoId ?? '');
    return { status: 200, body: { kind: 'youtube#playlistItem', id: `PLI${++this.n}`, snippet } };
  }

  /** A session's stored bytes, joined. */
  bytesOf(s: UploadSession): Buffer { return Buffer.concat(s.parts); }

  /** playlistItems of the uploads playlist (UU + the channel id's tail), newest first, nextPageToken while more remain. */
  private uploadsPage(q: URLSearchParams): FakeReply {
    if (q.get('playlistId') !== `UU${this.channels[0]?.id.slice(2)}`) return { status: 404, body: { error: { code: 404, message: 'The playlist identified with the request\'s playlistId parameter cannot be found.', errors: [{ reason: 'playlistNotFound' }] } } };
    const max = Math.min(Number(q.get('maxResults') ?? 5), 50);
    const from = Number(q.get('pageToken') ?? 0);
    const items = this.uploads.slice(from, from + max).map((u) => ({
      kind: 'youtube#playlistItem', id: `PLI${u.videoId}`,
      snippet: { publishedAt: u.publishedAt, channelId: this.channels[0].id, title: u.title, description: u.description, resourceId: { kind: 'youtube#video', videoId: u.videoId } },
    }));
    return { status: 200, body: { kind: 'youtube#playlistItemListResponse', items, ...(from + max < this.uploads.length ? { nextPageToken: String(from + max) } : {}), pageInfo: { totalResults: this.uploads.length, resultsPerPage: max } } };
  }

  private stored(s: UploadSession): FakeReply {
    if (s.received === s.total) {
      if (!s.videoId) {
        s.videoId = `Yt${String(this.n).padStart(9, '0')}`;
        const snippet = (s.metadata as { snippet?: { title?: string; description?: string } } | undefined)?.snippet;
        this.uploads.unshift({ videoId: s.videoId, title: snippet?.title ?? '', description: snippet?.description ?? '', publishedAt: new Date(this.now()).toISOString() });
      }
      return { status: 200, body: { kind: 'youtube#video', id: s.videoId, snippet: (s.metadata as { snippet?: unknown })?.snippet, status: { uploadStatus: 'uploaded' } } };
    }
    return { status: 308, headers: s.received ? { range: `bytes=0-${s.received - 1}` } : {} };
  }

  private put(req: RecordedRequest): FakeReply {
    const s = this.sessions.get(req.url.searchParams.get('upload_id') ?? '');
    if (!s || s.expired) return { status: 404, body: { error: { code: 404, message: 'Upload session not found' } } };
    const range = String(req.headers['content-range'] ?? '');
    if (range === `bytes */${s.total}`) return this.stored(s);
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!m || Number(m[3]) !== s.total || Number(m[2]) - Number(m[1]) + 1 !== req.body.length) return { status: 400, body: { error: { code: 400, message: `bad Content-Range ${range}` } } };
    const first = Number(m[1]);
    if (first !== s.received) return { status: 400, body: { error: { code: 400, message: `expected bytes from ${s.received}, got ${first}` } } };
    const interrupt = this.interrupt;
    this.interrupt = undefined;
    const body = interrupt ? req.body.subarray(0, interrupt.keep) : req.body;
    if (body.length) {
      s.parts.push(Buffer.from(body));
      s.received += body.length;
      s.ranges.push([first, first + body.length - 1]);
    }
    return interrupt ? interrupt.reply : this.stored(s);
  }

  private tokenEndpoint(req: RecordedRequest): FakeReply {
    const f = formOf(req.text);
    const fail = (error: string, description: string, status = 400): FakeReply => ({ status, body: { error, error_description: description } });
    if (!this.oauth.clientOk(f.client_id, f.client_secret)) return fail('invalid_client', 'The OAuth client was not found.', 401);
    const r = this.oauth.tokenRequest(f);
    if (!r) return fail('unsupported_grant_type', 'Invalid grant_type');
    if (!r.ok) return fail(r.error, r.description);
    // Google's refresh answers carry no refresh token: the old one stays.
    const refresh = f.grant_type === 'authorization_code' ? { refresh_token: r.refresh_token } : {};
    return { status: 200, body: { access_token: r.access_token, expires_in: 3599, ...refresh, scope: r.scope, token_type: 'Bearer' } };
  }
}

/** YouTube in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<YouTubeFake> = {
  create: () => new YouTubeFake(),
  servers: (fake) => ({ youtube: fake.server }),
  env: (fake) => oauthEnv('YOUTUBE', fake, { YOUTUBE_API_BASE: fake.url, YOUTUBE_UPLOAD_BASE: fake.url }),
  read: readByPaths(/^\/upload\/youtube\/v3\/videos$/, [['DELETE', /^\/youtube\/v3\/videos$/, 'deleted'], ['PUT', /^\/youtube\/v3\/videos$/, 'edited']]),
};

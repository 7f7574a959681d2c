import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { formOf, OAuthAuthority, OAuthFake, serveMedia } from '../sandbox-kit/oauth-authority';
import { SimulatedFigures } from '../sandbox-kit/figures';
import { oauthEnv, readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

/**
 * A loopback LinkedIn serving both origins' paths: `GET /oauth/v2/authorization` (auto-consent) and
 * `POST /oauth/v2/accessToken` (form, client_id + client_secret in the body; refresh keeps the same refresh token),
 * `GET /v2/userinfo`, organisation pages (`/rest/organizationAcls?q=roleAssignee`, `/rest/organizations/<id>`), the Images, Documents and Videos APIs (initializeUpload, upload URLs on this server, finalizeUpload,
 * video status), `POST /rest/posts` (201 + x-restli-id), `GET /rest/posts?q=author` (what was posted here, newest first),
 * `DELETE /rest/posts/{urn}` and partial updates of a post's commentary, comments, and post analytics
 * (memberCreatorPostAnalytics, organizationalEntityShareStatistics: growing counts of the posts made here). /rest calls need the LinkedIn-Version and
 * X-Restli-Protocol-Version headers. `videoPolls` = status reads answering PROCESSING before AVAILABLE;
 * `videoFails` makes it PROCESSING_FAILED; `partSize` splits video uploads. `failNext(route, reply)` plays a reply
 * once for "METHOD /path" (query left out); media for ctx.fetchMedia is served under /media/<name>.
 */
export class LinkedinFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({ prefix: 'li' });
  sub = 'abc123XYZ';
  name = 'Ada Lovelace';
  videoPolls = 0;
  videoFails = false;
  partSize = 4;
  readonly media = new Map<string, { type: string; bytes: Buffer }>();
  /** Pages and the member's role on each (`GET /rest/organizationAcls?q=roleAssignee`, `GET /rest/organizations/<id>`). */
  organizations: Array<{ id: string; name: string; role: string; state: string }> = [];
  /** Bytes received per upload path. */
  readonly uploads = new Map<string, Buffer>();
  private readonly videos = new Map<string, { polls: number; finalized: boolean }>();
  /** Posts by author, newest first (as find-by-author with sortBy=CREATED lists them): created here, or seeded by a test. */
  readonly posts: Array<{ id: string; author: string; commentary: string; createdAt: number }> = [];
  /** The fake's clock for createdAt (a test sets its manual clock). */
  now: () => number = Date.now;
  /** Post analytics of the posts made here: plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());

  /** "METHOD /path" of each API request (media downloads left out), with the ?action when there is one. */
  override get calls(): string[] {
    return this.requests.filter((r) => !r.path.startsWith('/media/')).map((r) => {
      const action = r.url.searchParams.get('action');
      return `${r.method} ${r.path}${action ? `?action=${action}` : ''}`;
    });
  }

  /** A valid access token for adapter tests (no sign-in). */
  token(): string { return this.oauth.grantToken(); }

  override reset(): void {
    super.reset();
    this.media.clear();
    this.uploads.clear();
    this.videos.clear();
    this.videoPolls = 0;
    this.videoFails = false;
    this.partSize = 4;
    this.organizations = [];
    this.posts.length = 0;
  }

  /** Ends the processing of an uploaded video: its next status read answers AVAILABLE. */
  finishProcessing(urn: string): void {
    const v = this.videos.get(urn);
    if (v) v.polls = 0;
  }

  static error(status: number, message: string, serviceErrorCode?: number): FakeReply {
    return { status, body: { status, message, ...(serviceErrorCode ? { serviceErrorCode } : {}) } };
  }

  protected route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    const key = `${req.method} ${req.path}`;
    const queued = this.playQueued(key, req) ?? serveMedia(req, this.media);
    if (queued) return queued;
    if (key === 'GET /oauth/v2/authorization') return this.oauth.authorize(req.url);
    if (key === 'POST /oauth/v2/accessToken') return this.tokenEndpoint(req);
    if (req.method === 'PUT' && req.path.startsWith('/upload/')) return this.upload(req);
    if (!this.bearerOk(req)) {
      return LinkedinFake.error(401, 'Invalid access token', 65600);
    }
    if (key === 'GET /v2/userinfo') {
      return { body: { sub: this.sub, name: this.name, given_name: 'Ada', family_name: 'Lovelace', picture: 'https://media.licdn.com/a.jpg', locale: { country: 'GB', language: 'en' } } };
    }
    if (!req.path.startsWith('/rest/')) return LinkedinFake.error(404, 'Not found');
    if (!req.headers['linkedin-version'] || req.headers['x-restli-protocol-version'] !== '2.0.0') {
      return LinkedinFake.error(400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.');
    }
    if (key === 'GET /rest/organizationAcls') {
      const q = req.url.searchParams;
      if (q.get('q') !== 'roleAssignee') return LinkedinFake.error(400, 'q=roleAssignee is required');
      const pages = this.organizations.filter((o) => (!q.get('role') || o.role === q.get('role')) && (!q.get('state') || o.state === q.get('state')));
      return { body: { paging: { count: 10, start: 0, total: pages.length }, elements: pages.map((o) => ({ organization: `urn:li:organization:${o.id}`, role: o.role, roleAssignee: `urn:li:person:${this.sub}`, state: o.state })) } };
    }
    const orgRead = /^GET \/rest\/organizations\/(\d+)$/.exec(key);
    if (orgRead) {
      const org = this.organizations.find((o) => o.id === orgRead[1]);
      return org ? { body: { id: Number(org.id), localizedName: org.name, vanityName: org.name.toLowerCase().replace(/\W+/g, '-') } } : LinkedinFake.error(404, 'Organization not found');
    }
    const body = (req.json ?? {}) as Record<string, unknown>;
    const action = req.url.searchParams.get('action');
    if (key === 'POST /rest/images' && action === 'initializeUpload') {
      const id = ++this.n;
      return { body: { value: { uploadUrlExpiresAt: Date.now() + 3600_000, uploadUrl: `${this.url}/upload/image/${id}`, image: `urn:li:image:C4D${id}` } } };
    }
    if (key === 'POST /rest/documents' && action === 'initializeUpload') {
      const owner = (body.initializeUploadRequest as Record<string, unknown> | undefined)?.owner;
      if (typeof owner !== 'string' || !/^urn:li:(person|organization):/.test(owner)) return LinkedinFake.error(400, 'initializeUploadRequest.owner is required');
      const id = ++this.n;
      return { body: { value: { uploadUrlExpiresAt: Date.now() + 3600_000, uploadUrl: `${this.url}/upload/document/${id}`, document: `urn:li:document:D${id}` } } };
    }
    if (key === 'POST /rest/videos' && action === 'initializeUpload') {
      const size = Number((body.initializeUploadRequest as Record<string, unknown> | undefined)?.fileSizeBytes ?? 0);
      const id = ++this.n;
      const video = `urn:li:video:D5F${id}`;
      this.videos.set(video, { polls: this.videoPolls, finalized: false });
      const uploadInstructions = [];
      for (let first = 0, part = 1; first < size; first += this.partSize, part++) {
        uploadInstructions.push({ uploadUrl: `${this.url}/upload/video/${id}/${part}`, firstByte: first, lastByte: Math.min(size, first + this.partSize) - 1 });
      }
      return { body: { value: { uploadUrlsExpireAt: Date.now() + 3600_000, video, uploadInstructions, uploadToken: `token-${id}` } } };
    }
    if (key === 'POST /rest/videos' && action === 'finalizeUpload') {
      const video = String((body.finalizeUploadRequest as Record<string, unknown> | undefined)?.video ?? '');
      const v = this.videos.get(video);
      if (!v) return LinkedinFake.error(404, 'video not found');
      v.finalized = true;
      return { status: 200, body: '' };
    }
    if (req.method === 'GET' && req.path.startsWith('/rest/videos/')) {
      const urn = decodeURIComponent(req.path.slice('/rest/videos/'.length));
      const v = this.videos.get(urn);
      if (!v) return LinkedinFake.error(404, 'video not found');
      if (!v.finalized) return { body: { id: urn, status: 'WAITING_UPLOAD' } };
      if (v.polls > 0) { v.polls--; return { body: { id: urn, status: 'PROCESSING' } }; }
      if (this.videoFails) return { body: { id: urn, status: 'PROCESSING_FAILED', processingFailureReason: 'Video is too short' } };
      return { body: { id: urn, status: 'AVAILABLE', duration: 12000 } };
    }
    if (key === 'POST /rest/posts') {
      const content = body.content as Record<string, Record<string, unknown>> | undefined;
      const videoId = content?.media?.id;
      if (typeof videoId === 'string' && videoId.startsWith('urn:li:video:') && this.videos.get(videoId)?.polls !== 0) {
        return LinkedinFake.error(400, 'Video is not yet available');
      }
      const id = `urn:li:share:70000000000000${++this.n}`;
      this.posts.unshift({ id, author: String(body.author ?? ''), commentary: String(body.commentary ?? ''), createdAt: this.now() });
      this.figures.published(id);
      return { status: 201, headers: { 'x-restli-id': id }, body: '' };
    }
    if (key === 'GET /rest/posts' && req.url.searchParams.get('q') === 'author') {
      const author = req.url.searchParams.get('author') ?? '';
      const count = Number(req.url.searchParams.get('count') ?? 10);
      const start = Number(req.url.searchParams.get('start') ?? 0);
      const mine = this.posts.filter((p) => p.author === author);
      const elements = mine.slice(start, start + count).map(({ id, author: a, commentary, createdAt }) => ({ id, author: a, commentary, createdAt, publishedAt: createdAt, lifecycleState: 'PUBLISHED', visibility: 'PUBLIC' }));
      return { body: { elements, paging: { start, count, links: [] } } };
    }
    if (key === 'GET /rest/memberCreatorPostAnalytics') return this.memberAnalytics(req.url.searchParams);
    if (key === 'GET /rest/organizationalEntityShareStatistics') return this.shareStatistics(req.url.searchParams);
    const postPath = /^\/rest\/posts\/([^/]+)$/.exec(req.path);
    if (postPath && (req.method === 'DELETE' || req.method === 'POST')) return this.changePost(req, decodeURIComponent(postPath[1]), body);
    if (req.method === 'POST' && /^\/rest\/socialActions\/[^/]+\/comments$/.test(req.path)) {
      const post = decodeURIComponent(req.path.split('/')[3]);
      return { status: 201, headers: { 'x-restli-id': `urn:li:comment:(${post},71000000000000${++this.n})` }, body: '' };
    }
    return LinkedinFake.error(404, 'Not found');
  }

  /**
   * Member post analytics: `q=entity&entity=(share:<encoded urn>)&queryType=<metric>&aggregation=TOTAL` → one element
   * with the count of a post made here by the member; an unknown post answers 404.
   */
  private memberAnalytics(q: URLSearchParams): FakeReply {
    const entity = /^\((share|ugcPost):(.+)\)$/.exec(q.get('entity') ?? '');
    if (q.get('q') !== 'entity' || !entity || q.get('aggregation') !== 'TOTAL') return LinkedinFake.error(400, 'q=entity, entity=(share:<urn>) and aggregation are required');
    const urn = decodeURIComponent(entity[2]);
    const post = this.posts.find((p) => p.id === urn && p.author.startsWith('urn:li:person:'));
    if (!post) return LinkedinFake.error(404, 'Not found');
    const f = this.figures.of(urn);
    const counts: Record<string, number> = { IMPRESSION: f.views, MEMBERS_REACHED: f.reach, REACTION: f.likes, COMMENT: f.comments, RESHARE: f.shares, POST_SAVE: f.saves };
    const metric = q.get('queryType') ?? '';
    if (!(metric in counts)) return LinkedinFake.error(400, `queryType ${metric} is not supported`);
    return { body: { paging: { start: 0, count: 10, links: [] }, elements: [{ count: counts[metric], metricType: { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': metric } }] } };
  }

  /** A page's share statistics: `q=organizationalEntity&organizationalEntity=<org>&shares=List(…)&ugcPosts=List(…)`. */
  private shareStatistics(q: URLSearchParams): FakeReply {
    const org = q.get('organizationalEntity') ?? '';
    if (q.get('q') !== 'organizationalEntity' || !org) return LinkedinFake.error(400, 'q=organizationalEntity and organizationalEntity are required');
    const list = (name: string) => (/^List\((.*)\)$/.exec(q.get(name) ?? '')?.[1] ?? '').split(',').filter(Boolean).map(decodeURIComponent);
    const elements = [...list('shares').map((id) => ['share', id]), ...list('ugcPosts').map((id) => ['ugcPost', id])]
      .filter(([, id]) => this.posts.some((p) => p.id === id && p.author === org))
      .map(([type, id]) => {
        const f = this.figures.of(id);
        return {
          organizationalEntity: org, [type]: id,
          totalShareStatistics: { impressionCount: f.views, uniqueImpressionsCount: f.reach, clickCount: f.clicks, likeCount: f.likes, commentCount: f.comments, shareCount: f.shares, engagement: f.views ? (f.clicks + f.likes + f.comments + f.shares) / f.views : 0 },
        };
      });
    return { body: { paging: { start: 0, count: 10, links: [] }, elements } };
  }

  /**
   * `DELETE /rest/posts/{encoded urn}` → 204; `POST /rest/posts/{encoded urn}` with `X-RestLi-Method: PARTIAL_UPDATE`
   * and {patch: {$set: {commentary}}} → 204. An unknown post answers 404; only the author's token may change it (403).
   */
  private changePost(req: RecordedRequest, urn: string, body: Record<string, unknown>): FakeReply {
    const post = this.posts.find((p) => p.id === urn);
    if (!post) return LinkedinFake.error(404, `Post ${urn} not found`);
    if (post.author !== `urn:li:person:${this.sub}` && !this.organizations.some((o) => post.author === `urn:li:organization:${o.id}`)) {
      return LinkedinFake.error(403, 'Not enough permissions to access: partialUpdate /posts', 100);
    }
    if (req.method === 'DELETE') {
      this.posts.splice(this.posts.indexOf(post), 1);
      return { status: 204, body: '' };
    }
    if (String(req.headers['x-restli-method'] ?? '').toUpperCase() !== 'PARTIAL_UPDATE') return LinkedinFake.error(400, 'X-RestLi-Method PARTIAL_UPDATE is required to update a post');
    const set = ((body.patch as Record<string, unknown> | undefined)?.$set ?? {}) as Record<string, unknown>;
    const fields = Object.keys(set);
    if (fields.length === 0 || fields.some((f) => !['commentary', 'contentCallToActionLabel', 'contentLandingPage', 'lifecycleState', 'adContext'].includes(f))) {
      return LinkedinFake.error(422, `Cannot update the fields ${fields.join(', ') || '(none)'} of a post`);
    }
    if (typeof set.commentary === 'string') post.commentary = set.commentary;
    return { status: 204, body: '' };
  }

  private upload(req: RecordedRequest): FakeReply {
    this.uploads.set(req.path, req.body);
    if (req.path.startsWith('/upload/image/') || req.path.startsWith('/upload/document/')) {
      return this.bearerOk(req) ? { status: 201, body: '' } : LinkedinFake.error(401, 'Invalid access token');
    }
    return { status: 200, headers: { etag: `"etag-${req.path.split('/').pop()}"` }, body: '' };
  }

  private tokenEndpoint(req: RecordedRequest): FakeReply {
    const f = formOf(req.text);
    const fail = (status: number, error: string, description: string): FakeReply => ({ status, body: { error, error_description: description } });
    if (!this.oauth.clientOk(f.client_id, f.client_secret)) return fail(401, 'invalid_client', 'Client authentication failed');
    if (f.grant_type === 'authorization_code') {
      const t = this.oauth.redeem(f.code, { client: f.client_id, redirectUri: f.redirect_uri });
      if (!t.ok) return fail(400, 'invalid_request', 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.');
      return { body: { access_token: t.access_token, expires_in: 5183999, scope: t.scope.split(' ').join(','), ...(t.refresh_token ? { refresh_token: t.refresh_token, refresh_token_expires_in: 31535999 } : {}) } };
    }
    if (f.grant_type === 'refresh_token') {
      const t = this.oauth.refresh(f.refresh_token);
      if (!t.ok) return fail(400, 'invalid_grant', 'The provided authorization grant or refresh token is invalid, expired or revoked.');
      return { body: { access_token: t.access_token, expires_in: 5183999, refresh_token: t.refresh_token, refresh_token_expires_in: 31000000, scope: 'openid,profile,w_member_social' } };
    }
    return fail(400, 'unsupported_grant_type', 'grant_type is not supported');
  }
}

/** LinkedIn in the sandbox of `npm start`, with post analytics on (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<LinkedinFake> = {
  create: () => new LinkedinFake(),
  servers: (fake) => ({ linkedin: fake.server }),
  env: (fake) => oauthEnv('LINKEDIN', fake, { LINKEDIN_API_BASE: fake.url, LINKEDIN_POST_ANALYTICS: '1' }),
  read: readByPaths(/^\/rest\/(posts|socialActions\/.+\/comments)$/, [['DELETE', /^\/rest\/posts\/[^/]+$/, 'deleted'], ['POST', /^\/rest\/posts\/[^/]+$/, 'edited']]),
};

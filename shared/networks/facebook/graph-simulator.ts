import type { FakeReply, RecordedRequest } from '../sandbox-kit/fake-server';
import { formOf, OAuthAuthority, OAuthFake } from '../sandbox-kit/oauth-authority';
import { SimulatedFigures } from '../sandbox-kit/figures';
import { GRAPH_VERSION } from './graph';

export interface FakePage { id: string; name: string; tasks: string[]; ig?: { id: string; username: string } }

/**
 * A loopback Meta Graph API (one server for www.facebook.com and graph.facebook.com paths, all under the pinned
 * version): the Login dialog (auto-consent), `/oauth/access_token` (code → short-lived token, fb_exchange_token →
 * long-lived), `/me/accounts` (Page tokens derived from the user token, paged by `pageSize`), Page reads, and Page
 * feed / photos / videos posts with permalinks, listed back by published_posts, deleted (`DELETE /{id}`) and edited
 * (`POST /{id}` {message | description}). Tokens travel as `access_token` (query or form). Errors use the Graph
 * envelope; an invalid token answers code 190. `failNext("METHOD /path-without-version", reply)` plays a reply once.
 * InstagramFake (shared/networks/instagram/simulator.ts) adds the Instagram endpoints through `extra`.
 */
export class FacebookFake extends OAuthFake {
  readonly oauth = new OAuthAuthority({ prefix: 'fb' });
  pages: FakePage[] = FacebookFake.defaultPages();
  pageSize = 25;
  /** Published objects: id → permalink (absolute, or relative for videos as Graph answers). */
  readonly objects = new Map<string, string>();
  /** Posts of each Page, newest first (as published_posts lists them): made here, or seeded by a test. */
  readonly posts: Array<{ page: string; id: string; message: string; created_time: string; permalink_url: string }> = [];
  /** The fake's clock for created_time (a test sets its manual clock). */
  now: () => number = Date.now;
  /** Post figures of what was published here (Facebook posts, Instagram media): plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());

  static defaultPages(): FakePage[] {
    return [
      { id: '101', name: 'Acme Bakery', tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'], ig: { id: '17841400000000001', username: 'acme.bakery' } },
      { id: '102', name: 'Acme Outlet', tasks: ['CREATE_CONTENT', 'MODERATE'] },
      { id: '103', name: 'Acme Insights', tasks: ['ANALYZE'], ig: { id: '17841400000000003', username: 'acme.insights' } },
    ];
  }

  /** The parameters of a request: query plus form body. */
  params(req: RecordedRequest): Record<string, string> { return { ...Object.fromEntries(req.url.searchParams), ...(req.method === 'POST' ? formOf(req.text) : {}) }; }

  override reset(): void {
    super.reset();
    this.objects.clear();
    this.posts.length = 0;
    this.pages = FacebookFake.defaultPages();
    this.pageSize = 25;
  }

  /** A long-lived user token, as after sign-in. */
  userToken(): string { return this.oauth.grantToken(); }

  /** The Page token /me/accounts hands out for this page under the user token's grant. */
  pageToken(userToken: string, pageId: string): string {
    return this.oauth.derived(userToken, `page${pageId}`)!;
  }

  static error(code: number, message: string, subcode?: number, status = 400, extra: Record<string, unknown> = {}): FakeReply {
    return { status, body: { error: { message, type: code === 190 ? 'OAuthException' : 'GraphMethodException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: 'AbCdEf123', ...extra } } };
  }

  /** Routes, calls and find() name requests without the version prefix. */
  protected override pathOf(req: RecordedRequest): string {
    return req.path.startsWith(`/${GRAPH_VERSION}/`) ? req.path.slice(GRAPH_VERSION.length + 1) : req.path;
  }

  /** Subclass hook for more endpoints; undefined = not handled. */
  protected extra(_req: RecordedRequest, _key: string, _params: Record<string, string>, _token: string): FakeReply | undefined {
    return undefined;
  }

  protected route(req: RecordedRequest): FakeReply | Promise<FakeReply> {
    if (!req.path.startsWith(`/${GRAPH_VERSION}/`)) return FacebookFake.error(2635, `Unknown or missing API version in ${req.path}`);
    const key = `${req.method} ${this.pathOf(req)}`;
    const queued = this.playQueued(key, req);
    if (queued) return queued;
    if (key === 'GET /dialog/oauth') return this.oauth.authorize(req.url);
    const params = this.params(req);
    if (key === 'GET /oauth/access_token') return this.tokenEndpoint(params);
    const token = params.access_token;
    if (!this.oauth.valid(token)) return FacebookFake.error(190, 'Error validating access token: Session has expired on Friday, 20-Nov-26 10:00:00 PST.', 463);
    const more = this.extra(req, key, params, token);
    if (more) return more;
    if (key === 'GET /me/accounts') return this.accounts(params, token);
    const [, id, edge] = key.split(' ')[1].split('/');
    const page = this.pages.find((p) => p.id === id);
    if (req.method === 'GET' && !edge) {
      if (page) return { body: { id: page.id, name: page.name } };
      const link = this.objects.get(id);
      if (link && /insights\.metric\(/.test(params.fields ?? '')) return { body: this.postFigures(id, params.fields!) };
      return link ? { body: { id, permalink_url: link } } : FacebookFake.error(100, `Unsupported get request. Object with ID '${id}' does not exist`, 33);
    }
    if (req.method === 'GET' && page && edge === 'published_posts') return this.publishedPosts(page.id, params);
    if (req.method === 'POST' && page && ['feed', 'photos', 'videos'].includes(edge)) {
      if (!token.includes(`page${page.id}`)) return FacebookFake.error(200, '(#200) The user hasn\'t authorized the application to perform this action');
      const n = ++this.n;
      const created_time = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, '+0000');
      if (edge === 'feed') {
        if (!params.message) return FacebookFake.error(100, '(#100) Missing message or attachment');
        const postId = `${page.id}_${9000 + n}`;
        this.objects.set(postId, `https://www.facebook.com/${page.id}/posts/pfbid0${n}`);
        this.posts.unshift({ page: page.id, id: postId, message: params.message, created_time, permalink_url: this.objects.get(postId)! });
        this.figures.published(postId);
        return { body: { id: postId } };
      }
      if (edge === 'photos') {
        if (!params.url) return FacebookFake.error(324, '(#324) Requires upload file');
        const postId = `${page.id}_${9000 + n}`;
        this.objects.set(postId, `https://www.facebook.com/photo/?fbid=${8000 + n}`);
        this.posts.unshift({ page: page.id, id: postId, message: params.caption ?? '', created_time, permalink_url: this.objects.get(postId)! });
        this.figures.published(postId);
        return { body: { id: String(8000 + n), post_id: postId } };
      }
      if (!params.file_url) return FacebookFake.error(100, '(#100) Requires file_url or source');
      const videoId = String(7000 + n);
      this.objects.set(videoId, `/${page.id}/videos/${videoId}/`);
      return { body: { id: videoId } };
    }
    if (!edge && (req.method === 'DELETE' || req.method === 'POST')) return this.change(req.method, id, params, token);
    return FacebookFake.error(100, `Unknown path components: ${key}`, 2500);
  }

  /**
   * `DELETE /{post-id}` → {success: true}; `POST /{post-id} {message}` (feed / photo posts) or `POST /{video-id}
   * {description}` (videos) → {success: true}. Only the owning Page's token may change a post (else code 200); an
   * unknown id answers code 100 subcode 33, as Graph does.
   */
  private change(method: string, id: string, params: Record<string, string>, token: string): FakeReply {
    if (!this.objects.has(id)) return FacebookFake.error(100, `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist`, 33);
    const owner = this.pages.find((p) => id.startsWith(`${p.id}_`) || this.objects.get(id)!.startsWith(`/${p.id}/`));
    if (!owner || !token.includes(`page${owner.id}`)) return FacebookFake.error(200, '(#200) The user hasn\'t authorized the application to perform this action');
    const post = this.posts.find((p) => p.id === id);
    if (method === 'DELETE') {
      this.objects.delete(id);
      if (post) this.posts.splice(this.posts.indexOf(post), 1);
      return { body: { success: true } };
    }
    const text = id.includes('_') ? params.message : params.description;
    if (text === undefined) return FacebookFake.error(100, `(#100) ${id.includes('_') ? 'message' : 'description'} is required to update this object`);
    if (post) post.message = text;
    return { body: { success: true } };
  }

  /**
   * A post with `fields=shares,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),
   * insights.metric(…)`: the summaries, `shares` only once someone shared (as Graph leaves it out), and the asked
   * insights (post_media_view, post_total_media_view_unique, post_clicks) as {data: [{name, period, values}]}.
   */
  private postFigures(id: string, fields: string): Record<string, unknown> {
    const f = this.figures.of(id);
    const all: Record<string, number> = { post_media_view: f.views, post_total_media_view_unique: f.reach, post_clicks: f.clicks };
    const asked = /insights\.metric\(([^)]*)\)/.exec(fields)?.[1].split(',').filter((m) => m in all) ?? [];
    return {
      id,
      ...(fields.includes('reactions') ? { reactions: { data: [], summary: { total_count: f.likes } } } : {}),
      ...(fields.includes('comments') ? { comments: { data: [], summary: { total_count: f.comments } } } : {}),
      ...(fields.includes('shares') && f.shares > 0 ? { shares: { count: f.shares } } : {}),
      insights: { data: asked.map((name) => ({ name, period: 'lifetime', values: [{ value: all[name] }], id: `${id}/insights/${name}/lifetime` })) },
    };
  }

  /** A Page's posts newest first from `since` (unix seconds) on, `limit` per page, cursors.after / next while more remain. */
  private publishedPosts(pageId: string, params: Record<string, string>): FakeReply {
    const since = Number(params.since ?? 0) * 1000;
    const mine = this.posts.filter((p) => p.page === pageId && Date.parse(p.created_time.replace('+0000', 'Z')) >= since);
    const limit = Number(params.limit ?? 25);
    const start = Number(params.after ?? 0);
    const data = mine.slice(start, start + limit).map(({ page: _, ...p }) => p);
    const end = start + data.length;
    const paging: Record<string, unknown> = { cursors: { before: String(start), after: String(end) } };
    if (end < mine.length) paging.next = `https://graph.facebook.com/${GRAPH_VERSION}/${pageId}/published_posts?after=${end}`;
    return { body: { data, paging } };
  }

  private accounts(params: Record<string, string>, userToken: string): FakeReply {
    const start = Number(params.after ?? 0);
    const slice = this.pages.slice(start, start + this.pageSize);
    const fields = params.fields ?? '';
    const data = slice.map((p) => ({
      id: p.id, name: p.name, access_token: this.pageToken(userToken, p.id),
      ...(fields.includes('tasks') ? { tasks: p.tasks } : {}),
      ...(fields.includes('instagram_business_account') && p.ig ? { instagram_business_account: p.ig } : {}),
    }));
    const end = start + slice.length;
    const paging: Record<string, unknown> = { cursors: { before: String(start), after: String(end) } };
    if (end < this.pages.length) paging.next = `https://graph.facebook.com/${GRAPH_VERSION}/me/accounts?after=${end}`;
    return { body: { data, paging } };
  }

  private tokenEndpoint(params: Record<string, string>): FakeReply {
    if (!this.oauth.clientOk(params.client_id, params.client_secret)) return FacebookFake.error(1, 'Error validating client secret.', undefined, 400, { type: 'OAuthException' });
    if (params.grant_type === 'fb_exchange_token') {
      const long = this.oauth.exchange(params.fb_exchange_token);
      return long ? { body: { access_token: long, token_type: 'bearer', expires_in: 5183944 } } : FacebookFake.error(190, 'Invalid OAuth access token - Cannot parse access token');
    }
    const t = this.oauth.redeem(params.code, { client: params.client_id, redirectUri: params.redirect_uri });
    if (!t.ok) return FacebookFake.error(100, 'This authorization code has been used.', 36009, 400, { type: 'OAuthException' });
    return { body: { access_token: t.access_token, token_type: 'bearer', expires_in: 5183 } };
  }
}

import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';
import { PNG_BYTES } from '../sandbox-kit/sample-media';
import { readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

export const WP_USER = 'editor';
export const WP_APP_PASSWORD = 'abcd efgh ijkl mnop';

/**
 * A loopback WordPress REST API: /wp-json/wp/v2/users/me, /wp-json/wp/v2/media (+ POST /media/<id>: alt_text), /wp-json/wp/v2/posts (POST creates; GET with context=edit lists them newest first, paged with X-WP-TotalPages), plus
 * /files/* media downloads. Checks Basic auth like WordPress does (401 rest_not_logged_in / incorrect_password);
 * tests override any route's answer through `replies`. Posts it made can be trashed (`DELETE /wp-json/wp/v2/posts/<id>`)
 * and updated (`POST /wp-json/wp/v2/posts/<id>`) with WordPress's answers for unknown and trashed posts.
 */
export class FakeWordpress extends NetworkSimulator {
  replies: Partial<Record<'me' | 'media' | 'posts', FakeReply>> = {};
  nextPostId = 101;
  nextMediaId = 7;
  /** The site's posts by the user (id 3), newest first: created here, or seeded by a test. date_gmt as WordPress serves it (no zone). */
  readonly posts: Array<{ id: number; link: string; status: string; date_gmt: string; title: { raw: string }; content: { raw: string } }> = [];
  /** The fake's clock for date_gmt (a test sets its manual clock). */
  now: () => number = Date.now;

  override reset(): void {
    super.reset();
    this.posts.length = 0;
    this.replies = {};
  }

  /** Requests to the WordPress API (media downloads left out). */
  get apiRequests(): RecordedRequest[] { return this.server.requests.filter((r) => r.path.startsWith('/wp-json/')); }

  static basic(user = WP_USER, password = WP_APP_PASSWORD): string {
    return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }

  protected route(req: RecordedRequest): FakeReply {
    if (req.method === 'GET' && req.path === '/files/cover.png') {
      return { status: 200, headers: { 'content-type': 'image/png' }, body: PNG_BYTES };
    }
    if (req.path.startsWith('/files/')) return { status: 404, body: 'not found' };
    const auth = req.headers.authorization;
    if (!auth) return { status: 401, body: { code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } } };
    if (auth !== FakeWordpress.basic()) {
      return { status: 401, body: { code: 'incorrect_password', message: 'The provided password is an invalid application password.', data: { status: 401 } } };
    }
    if (req.method === 'GET' && req.path === '/wp-json/wp/v2/users/me') {
      return this.replies.me ?? { status: 200, body: { id: 3, name: 'Ed Itor', slug: 'editor' } };
    }
    if (req.method === 'POST' && req.path === '/wp-json/wp/v2/media') {
      return this.replies.media ?? { status: 201, body: { id: this.nextMediaId, source_url: `${this.url}/wp-content/uploads/cover.png` } };
    }
    const mediaItem = /^\/wp-json\/wp\/v2\/media\/(\d+)$/.exec(req.path);
    if (req.method === 'POST' && mediaItem) {
      return { status: 200, body: { id: Number(mediaItem[1]), alt_text: (req.json as { alt_text?: string } | undefined)?.alt_text ?? '' } };
    }
    if (req.method === 'POST' && req.path === '/wp-json/wp/v2/posts') {
      if (this.replies.posts) return this.replies.posts;
      const id = this.nextPostId++;
      const body = req.json as { status?: string; title?: string; content?: string };
      this.posts.unshift({ id, link: `${this.url}/?p=${id}`, status: body.status ?? 'draft', date_gmt: new Date(this.now()).toISOString().slice(0, 19), title: { raw: body.title ?? '' }, content: { raw: body.content ?? '' } });
      return { status: 201, body: { id, link: `${this.url}/?p=${id}`, status: body.status } };
    }
    if (req.method === 'GET' && req.path === '/wp-json/wp/v2/posts') {
      const q = req.url.searchParams;
      if (q.get('context') !== 'edit') return { status: 400, body: { code: 'rest_invalid_param', message: 'this fake serves context=edit only', data: { status: 400 } } };
      const perPage = Number(q.get('per_page') ?? 10) || 10;
      const page = Number(q.get('page') ?? 1) || 1;
      const statuses = (q.get('status') ?? 'publish').split(',');
      const mine = this.posts.filter((p) => statuses.includes(p.status) && (!q.get('author') || q.get('author') === '3'));
      const pages = Math.max(1, Math.ceil(mine.length / perPage));
      return { status: 200, headers: { 'x-wp-total': String(mine.length), 'x-wp-totalpages': String(pages) }, body: mine.slice((page - 1) * perPage, page * perPage) };
    }
    const postItem = /^\/wp-json\/wp\/v2\/posts\/(\d+)$/.exec(req.path);
    if (postItem && (req.method === 'DELETE' || req.method === 'POST')) {
      // DELETE moves the post to the trash (410 when it is there already); POST updates its title / content
      const post = this.posts.find((p) => p.id === Number(postItem[1]));
      if (!post) return { status: 404, body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } } };
      if (req.method === 'DELETE') {
        if (post.status === 'trash') return { status: 410, body: { code: 'rest_already_trashed', message: 'The post has already been deleted.', data: { status: 410 } } };
        post.status = 'trash';
        return { status: 200, body: { id: post.id, link: post.link, status: 'trash' } };
      }
      const body = (req.json ?? {}) as { title?: string; content?: string };
      if (body.title !== undefined) post.title.raw = body.title;
      if (body.content !== undefined) post.content.raw = body.content;
      return { status: 200, body: { id: post.id, link: post.link, status: post.status } };
    }
    return { status: 404, body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } } };
  }
}

/** WordPress in the sandbox of `npm start`: its site URL travels in the credentials (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<FakeWordpress> = {
  create: () => new FakeWordpress(),
  servers: (fake) => ({ wordpress: fake.server }),
  env: () => ({}),
  credentials: (_fake, base) => ({ site_url: base('wordpress'), username: WP_USER, app_password: WP_APP_PASSWORD }),
  read: readByPaths(/^\/wp-json\/wp\/v2\/posts$/, [
    ['DELETE', /^\/wp-json\/wp\/v2\/posts\/\d+$/, 'deleted'], ['POST', /^\/wp-json\/wp\/v2\/posts\/\d+$/, 'edited'],
  ]),
};

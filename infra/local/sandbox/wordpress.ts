import { type FakeReply, NetworkSimulator, type RecordedRequest } from './server';

/** A 1×1 PNG the fake serves at /files/cover.png for featured-image tests. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export const WP_USER = 'editor';
export const WP_APP_PASSWORD = 'abcd efgh ijkl mnop';

/**
 * A loopback WordPress REST API: /wp-json/wp/v2/users/me, /wp-json/wp/v2/media (+ POST /media/<id>: alt_text), /wp-json/wp/v2/posts, plus
 * /files/* media downloads. Checks Basic auth like WordPress does (401 rest_not_logged_in / incorrect_password);
 * tests override any route's answer through `replies`. Posts it made can be trashed (`DELETE /wp-json/wp/v2/posts/<id>`)
 * and updated (`POST /wp-json/wp/v2/posts/<id>`) with WordPress's answers for unknown and trashed posts.
 */
export class FakeWordpress extends NetworkSimulator {
  replies: Partial<Record<'me' | 'media' | 'posts', FakeReply>> = {};
  nextPostId = 101;
  /** Posts made and not trashed, by id: title and content as last written. */
  readonly posts = new Map<number, { title: string; content: string }>();
  readonly trashed = new Set<number>();

  override reset(): void { super.reset(); this.posts.clear(); this.trashed.clear(); }
  nextMediaId = 7;

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
      const id = this.nextPostId++;
      const body = (req.json ?? {}) as { title?: string; content?: string };
      if (!this.replies.posts) this.posts.set(id, { title: String(body.title ?? ''), content: String(body.content ?? '') });
      return this.replies.posts ?? { status: 201, body: { id, link: `${this.url}/?p=${id}`, status: (req.json as { status?: string }).status } };
    }
    const postItem = /^\/wp-json\/wp\/v2\/posts\/(\d+)$/.exec(req.path);
    if (postItem && (req.method === 'DELETE' || req.method === 'POST')) {
      // DELETE moves the post to the trash (410 when it is there already); POST updates its title / content
      const id = Number(postItem[1]);
      if (this.trashed.has(id)) {
        return req.method === 'DELETE'
          ? { status: 410, body: { code: 'rest_already_trashed', message: 'The post has already been deleted.', data: { status: 410 } } }
          : { status: 200, body: { id, link: `${this.url}/?p=${id}`, status: 'trash' } };
      }
      const post = this.posts.get(id);
      if (!post) return { status: 404, body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } } };
      if (req.method === 'DELETE') {
        this.posts.delete(id);
        this.trashed.add(id);
        return { status: 200, body: { id, link: `${this.url}/?p=${id}`, status: 'trash' } };
      }
      const body = (req.json ?? {}) as { title?: string; content?: string };
      this.posts.set(id, { title: body.title ?? post.title, content: body.content ?? post.content });
      return { status: 200, body: { id, link: `${this.url}/?p=${id}`, status: 'publish' } };
    }
    return { status: 404, body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } } };
  }
}

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
 * tests override any route's answer through `replies`.
 */
export class FakeWordpress extends NetworkSimulator {
  replies: Partial<Record<'me' | 'media' | 'posts', FakeReply>> = {};
  nextPostId = 101;
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
      return this.replies.posts ?? { status: 201, body: { id, link: `${this.url}/?p=${id}`, status: (req.json as { status?: string }).status } };
    }
    return { status: 404, body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } } };
  }
}

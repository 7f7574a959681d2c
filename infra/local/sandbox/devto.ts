import { type FakeReply, NetworkSimulator, type RecordedRequest } from './server';

export const DEVTO_KEY = 'devto-test-key-123';

/**
 * A loopback Forem (dev.to) API: GET /api/users/me and POST /api/articles. Checks the `api-key` header like dev.to
 * (401 {error:'unauthorized', status:401}); tests override a route's answer through `replies`.
 */
export class FakeDevto extends NetworkSimulator {
  replies: Partial<Record<'me' | 'articles', FakeReply>> = {};
  nextId = 1001;


  protected route(req: RecordedRequest): FakeReply {
    if (req.headers['api-key'] !== DEVTO_KEY) return { status: 401, body: { error: 'unauthorized', status: 401 } };
    if (req.method === 'GET' && req.path === '/api/users/me') {
      return this.replies.me ?? { status: 200, body: { id: 42, username: 'ada', name: 'Ada L', profile_image: 'https://x/p.png' } };
    }
    if (req.method === 'POST' && req.path === '/api/articles') {
      if (this.replies.articles) return this.replies.articles;
      const id = this.nextId++;
      const article = (req.json as { article: { title: string; published: boolean } }).article;
      const slug = article.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
      const url = `https://dev.to/ada/${slug}${article.published ? '' : '-temp-slug-99'}`;
      return { status: 201, body: { id, url, slug, published: article.published } };
    }
    return { status: 404, body: { error: 'not found', status: 404 } };
  }
}

import { SimulatedFigures } from '../sandbox-kit/figures';
import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';
import { readByPaths, type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

export const DEVTO_KEY = 'devto-test-key-123';

/**
 * A loopback Forem (dev.to) API: GET /api/users/me, POST /api/articles, PUT /api/articles/{id} (update: title,
 * body_markdown, published), GET /api/articles/me/published (what it received, newest first) and GET
 * /api/articles/me/all (every article, with growing page_views_count, public_reactions_count, comments_count). Checks the `api-key` header like dev.to
 * (401 {error:'unauthorized', status:401}); tests override a route's answer through `replies`.
 */
export class FakeDevto extends NetworkSimulator {
  replies: Partial<Record<'me' | 'articles' | 'published' | 'update', FakeReply>> = {};
  nextId = 1001;
  /** The account's articles, newest first: created here, or seeded by a test. */
  readonly articles: Array<{ id: number; title: string; body_markdown: string; url: string; published: boolean; published_at: string | null }> = [];
  /** The fake's clock for published_at (a test sets its manual clock). */
  now: () => number = Date.now;
  /** Page views, reactions and comments of the articles made here: plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());

  override reset(): void {
    super.reset();
    this.articles.length = 0;
    this.replies = {};
  }


  protected route(req: RecordedRequest): FakeReply {
    if (req.headers['api-key'] !== DEVTO_KEY) return { status: 401, body: { error: 'unauthorized', status: 401 } };
    if (req.method === 'GET' && req.path === '/api/users/me') {
      return this.replies.me ?? { status: 200, body: { id: 42, username: 'ada', name: 'Ada L', profile_image: 'https://x/p.png' } };
    }
    if (req.method === 'POST' && req.path === '/api/articles') {
      if (this.replies.articles) return this.replies.articles;
      const id = this.nextId++;
      const article = (req.json as { article: { title: string; body_markdown?: string; published: boolean } }).article;
      const slug = article.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
      const url = `https://dev.to/ada/${slug}${article.published ? '' : '-temp-slug-99'}`;
      this.articles.unshift({ id, title: article.title, body_markdown: article.body_markdown ?? '', url, published: article.published, published_at: article.published ? new Date(this.now()).toISOString() : null });
      return { status: 201, body: { id, url, slug, published: article.published } };
    }
    const put = /^\/api\/articles\/(\d+)$/.exec(req.path);
    if (req.method === 'PUT' && put) {
      if (this.replies.update) return this.replies.update;
      const a = this.articles.find((x) => x.id === Number(put[1]));
      if (!a) return { status: 404, body: { error: 'not found', status: 404 } };
      const article = ((req.json ?? {}) as { article?: { title?: string; body_markdown?: string; published?: boolean } }).article ?? {};
      if (article.title !== undefined) {
        if (!article.title.trim()) return { status: 422, body: { error: "Title can't be blank", status: 422 } };
        a.title = article.title;
      }
      if (article.body_markdown !== undefined) a.body_markdown = article.body_markdown;
      if (article.published === false) { a.published = false; a.published_at = null; }
      if (article.published === true && !a.published) { a.published = true; a.published_at = new Date(this.now()).toISOString(); }
      return { status: 200, body: { id: a.id, title: a.title, url: a.url, published: a.published } };
    }
    if (req.method === 'GET' && req.path === '/api/articles/me/all') {
      // the author's articles, published or not, with growing page views, reactions and comments (post analytics)
      const perPage = Math.min(Number(req.url.searchParams.get('per_page') ?? 30) || 30, 1000);
      const page = Number(req.url.searchParams.get('page') ?? 1) || 1;
      return {
        status: 200,
        body: this.articles.slice((page - 1) * perPage, page * perPage).map((a) => {
          const f = this.figures.of(String(a.id), a.published_at ? Date.parse(a.published_at) : undefined);
          return { type_of: 'article', ...a, published_timestamp: a.published_at, page_views_count: a.published ? f.views : 0, public_reactions_count: a.published ? f.likes : 0, comments_count: a.published ? f.comments : 0 };
        }),
      };
    }
    if (req.method === 'GET' && req.path === '/api/articles/me/published') {
      if (this.replies.published) return this.replies.published;
      const perPage = Number(req.url.searchParams.get('per_page') ?? 30) || 30;
      const page = Number(req.url.searchParams.get('page') ?? 1) || 1;
      const published = this.articles.filter((a) => a.published).slice((page - 1) * perPage, page * perPage);
      return { status: 200, body: published.map((a) => ({ type_of: 'article', ...a, published_timestamp: a.published_at })) };
    }
    return { status: 404, body: { error: 'not found', status: 404 } };
  }
}

const readDevto = readByPaths(/^\/api\/articles$/, [['PUT', /^\/api\/articles\/\d+$/, 'edited']]);

/** DEV in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<FakeDevto> = {
  create: () => new FakeDevto(),
  servers: (fake) => ({ devto: fake.server }),
  env: (_fake, base) => ({ DEVTO_API_BASE: base('devto') }),
  credentials: () => ({ api_key: DEVTO_KEY }),
  // an unpublish is an update with published: false
  read: (req, fields) => {
    const seen = readDevto(req);
    return seen?.kind === 'edited' && (fields.article as { published?: unknown } | undefined)?.published === false ? { kind: 'deleted' } : seen;
  },
};

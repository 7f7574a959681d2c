import { type FakeReply, NetworkSimulator, type RecordedRequest } from '../sandbox-kit/fake-server';
import { SimulatedFigures } from '../sandbox-kit/figures';
import { type SandboxSimulator } from '../sandbox-kit/sandbox-simulator';

export const HASHNODE_TOKEN = 'hn-pat-0123456789';
export const PUB_ID = '64a1b2c3d4e5f60718293a4b';
export const PUB2_ID = '64a1b2c3d4e5f60718293a4c';

export interface GqlBody { query: string; variables?: { input?: Record<string, unknown> } }

/**
 * A loopback Hashnode GraphQL endpoint (POST /). Answers `me`, `publishPost`, `createDraft`, `removePost` / `updatePost` (NOT_FOUND for an unknown id), `publication(id) { posts }` (what was published here, newest first) and aliased
 * `post(id:) { views reactionCount responseCount }` (growing figures; null for a post not made here) by looking at the
 * query text. A missing or wrong `Authorization` gives HTTP 200 with errors[UNAUTHENTICATED], as Hashnode does.
 * `schema: 'current'` refuses `coverImageOptions` on PublishPostInput the way Apollo refuses an unknown input field.
 */
export class FakeHashnode extends NetworkSimulator {
  replies: Partial<Record<'me' | 'publish' | 'draft' | 'posts', FakeReply>> = {};
  schema: 'legacy' | 'current' = 'legacy';
  /** Posts of the publication, newest first: published here, or seeded by a test. */
  readonly posts: Array<{ id: string; title: string; url: string; publishedAt: string; content: { markdown: string } }> = [];
  /** The fake's clock for publishedAt (a test sets its manual clock). */
  now: () => number = Date.now;
  /** views, reactionCount and responseCount of the posts made here: plausible and growing (sandbox-kit/figures.ts). */
  readonly figures = new SimulatedFigures(() => this.now());

  override reset(): void {
    super.reset();
    this.posts.length = 0;
    this.replies = {};
  }
  publications = [
    { id: PUB_ID, title: 'Ada writes', url: 'https://ada.hashnode.dev' },
    { id: PUB2_ID, title: 'Team blog', url: 'https://blog.example.com' },
  ];

  body(i: number): GqlBody { return this.server.requests[i].json as GqlBody; }

  protected route(req: RecordedRequest): FakeReply {
    if (req.method !== 'POST' || req.path !== '/') return { status: 404, body: 'Not found' };
    const { query, variables } = req.json as GqlBody;
    if (req.headers.authorization !== HASHNODE_TOKEN) {
      return { status: 200, body: { data: null, errors: [{ message: 'You must be logged in to perform this action.', extensions: { code: 'UNAUTHENTICATED' } }] } };
    }
    if (/\bme\s*\{/.test(query)) {
      return this.replies.me ?? {
        status: 200,
        body: { data: { me: { id: 'u1', username: 'ada', publications: { edges: this.publications.map((node) => ({ node })) } } } },
      };
    }
    if (query.includes('publishPost(')) {
      if (this.replies.publish) return this.replies.publish;
      if (this.schema === 'current' && variables?.input && 'coverImageOptions' in variables.input) {
        return {
          status: 400,
          body: { errors: [{ message: 'Variable "$input" got invalid value; Field "coverImageOptions" is not defined by type "PublishPostInput". Did you mean "coverImage"?', extensions: { code: 'BAD_USER_INPUT' } }] },
        };
      }
      const input = (variables?.input ?? {}) as { title?: string; contentMarkdown?: string };
      const [id, url] = ['6a603fb103e2cb323e7851f6', 'https://ada.hashnode.dev/hello'];
      this.posts.unshift({ id, title: input.title ?? '', url, publishedAt: new Date(this.now()).toISOString(), content: { markdown: input.contentMarkdown ?? '' } });
      this.figures.published(id);
      return { status: 200, body: { data: { publishPost: { post: { id, slug: 'hello', url } } } } };
    }
    if (query.includes('publication(id: $id)')) {
      if (this.replies.posts) return this.replies.posts;
      const v = (variables ?? {}) as { id?: string; first?: number; after?: string };
      if (!this.publications.some((p) => p.id === v.id)) return { status: 200, body: { data: { publication: null } } };
      const first = Math.min(v.first ?? 20, 50);
      const from = v.after ? Number(v.after) : 0;
      const edges = this.posts.slice(from, from + first).map((node) => ({ node }));
      return { status: 200, body: { data: { publication: { posts: { edges, pageInfo: { hasNextPage: from + first < this.posts.length, endCursor: String(from + first) } } } } } };
    }
    if (/\bpost\(id: \$/.test(query)) {
      // aliased `pN: post(id: $pN) { id views reactionCount responseCount }`: each post made here, else null
      const data: Record<string, unknown> = {};
      for (const [, alias, variable] of query.matchAll(/(\w+): post\(id: \$(\w+)\)/g)) {
        const post = this.posts.find((p) => p.id === (variables as Record<string, unknown> | undefined)?.[variable]);
        const f = post ? this.figures.of(post.id) : undefined;
        data[alias] = post && f ? { id: post.id, views: f.views, reactionCount: f.likes, responseCount: f.comments } : null;
      }
      return { status: 200, body: { data } };
    }
    if (query.includes('removePost(') || query.includes('updatePost(')) {
      const input = (variables?.input ?? {}) as { id?: string; title?: string; contentMarkdown?: string };
      const post = this.posts.find((p) => p.id === input.id);
      if (!post) return { status: 200, body: { data: null, errors: [{ message: 'Post not found', extensions: { code: 'NOT_FOUND' } }] } };
      if (query.includes('removePost(')) {
        this.posts.splice(this.posts.indexOf(post), 1);
        return { status: 200, body: { data: { removePost: { post: { id: post.id } } } } };
      }
      if (input.title !== undefined) post.title = input.title;
      if (input.contentMarkdown !== undefined) post.content = { markdown: input.contentMarkdown };
      return { status: 200, body: { data: { updatePost: { post: { id: post.id, url: post.url } } } } };
    }
    if (query.includes('createDraft(')) {
      return this.replies.draft ?? { status: 200, body: { data: { createDraft: { draft: { id: '6a603fb103e2cb323e785200' } } } } };
    }
    return { status: 400, body: { errors: [{ message: 'Cannot query field', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } };
  }
}

/** Hashnode in the sandbox of `npm start` (shared/networks/sandbox-kit/sandbox-simulator.ts). */
export const simulator: SandboxSimulator<FakeHashnode> = {
  create: () => new FakeHashnode(),
  servers: (fake) => ({ hashnode: fake.server }),
  env: (_fake, base) => ({ HASHNODE_API_BASE: base('hashnode') }),
  credentials: () => ({ token: HASHNODE_TOKEN }),
  // GraphQL on one path: the operation says what a request does
  read: (req, fields) => {
    if (req.method !== 'POST' || req.path !== '/') return undefined;
    const query = String(fields.query ?? '');
    if (/publishPost|createDraft/.test(query)) return { kind: 'post' };
    return /removePost\(/.test(query) ? { kind: 'deleted' } : /updatePost\(/.test(query) ? { kind: 'edited' } : undefined;
  },
};

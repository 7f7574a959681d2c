import { type FakeReply, NetworkSimulator, type RecordedRequest } from './server';

export const HASHNODE_TOKEN = 'hn-pat-0123456789';
export const PUB_ID = '64a1b2c3d4e5f60718293a4b';
export const PUB2_ID = '64a1b2c3d4e5f60718293a4c';

export interface GqlBody { query: string; variables?: { input?: Record<string, unknown> } }

/**
 * A loopback Hashnode GraphQL endpoint (POST /). Answers `me`, `publishPost` and `createDraft` by looking at the
 * query text. A missing or wrong `Authorization` gives HTTP 200 with errors[UNAUTHENTICATED], as Hashnode does.
 * `schema: 'current'` refuses `coverImageOptions` on PublishPostInput the way Apollo refuses an unknown input field.
 */
export class FakeHashnode extends NetworkSimulator {
  replies: Partial<Record<'me' | 'publish' | 'draft', FakeReply>> = {};
  schema: 'legacy' | 'current' = 'legacy';
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
      return { status: 200, body: { data: { publishPost: { post: { id: '6a603fb103e2cb323e7851f6', slug: 'hello', url: 'https://ada.hashnode.dev/hello' } } } } };
    }
    if (query.includes('createDraft(')) {
      return this.replies.draft ?? { status: 200, body: { data: { createDraft: { draft: { id: '6a603fb103e2cb323e785200' } } } } };
    }
    return { status: 400, body: { errors: [{ message: 'Cannot query field', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } };
  }
}

import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { jsonInit, request } from '../http';
import { articleStatus } from '../article-status';
import { articleTitle } from '../article-title';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { OBJECT_ID } from './limits';

const PAGE = 20;
export const POSTS_QUERY = 'query Posts($id: ObjectId!, $first: Int!, $after: String) { publication(id: $id) { posts(first: $first, after: $after) '
  + '{ edges { node { id title url publishedAt content { markdown } } } pageInfo { hasNextPage endCursor } } } }';

interface PostsAnswer { data?: { publication?: { posts?: { edges?: Array<{ node?: Record<string, unknown> }>; pageInfo?: { hasNextPage?: boolean; endCursor?: string } } } | null }; errors?: unknown[] }

/**
 * Hashnode read-back: `publication(id) { posts(first: 20, after) { … publishedAt content { markdown } } }` over the
 * GraphQL endpoint (header `Authorization: <token>`), newest first. Drafts are not read back (`unreadable`).
 */
export function hashnodeReadBack(apiBase: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('hashnode', async () => {
    const token = (ctx.credentials.token ?? '').trim();
    const publication = (ctx.credentials.publication ?? '').trim();
    if (!token || !OBJECT_ID.test(publication)) return { state: 'unreadable', reason: 'hashnode: the connection has no token or publication id (connect again)' };
    if (articleStatus(ctx.credentials.default_status) === 'draft') return { state: 'unreadable', reason: 'hashnode: drafts are not read back' };
    return scanListing('hashnode', q, [q.text, content.text], async (after) => {
      const res = await request(ctx, apiBase, jsonInit('POST', { query: POSTS_QUERY, variables: { id: publication, first: PAGE, ...(after ? { after } : {}) } }, { authorization: token }));
      const body = res.json as PostsAnswer | undefined;
      const posts = body?.data?.publication?.posts;
      if (res.status !== 200 || body?.errors?.length || !posts) return unreadableAnswer('hashnode', res, 'listing the publication\'s posts');
      const listed = (posts.edges ?? []).map(({ node = {} }): ListedPost => ({
        id: String(node.id ?? ''),
        url: typeof node.url === 'string' ? node.url : '',
        text: String((node.content as { markdown?: unknown } | undefined)?.markdown ?? ''),
        title: typeof node.title === 'string' ? node.title : '',
        at: timeOf(node.publishedAt),
      }));
      return { posts: listed, next: posts.pageInfo?.hasNextPage ? posts.pageInfo.endCursor : undefined };
    }, { title: q.title ?? articleTitle(content) });
  });
}

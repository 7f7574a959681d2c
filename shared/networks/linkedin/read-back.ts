import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { request } from '../http';
import { readingBack, scanListing, unreadableAnswer, type ListedPost } from '../read-back-match';
import { isRecord } from '../../domain/values';
import { escapeLittleText } from './limits';

const PAGE = 20;

/**
 * LinkedIn read-back: `GET /rest/posts?author=<urn>&q=author&count=20&sortBy=CREATED&start=N` (Posts API "find posts
 * by author", headers LinkedIn-Version and X-Restli-Protocol-Version 2.0.0), newest first. `commentary` is the escaped
 * "little text" we sent; `createdAt` is in ms. Reading needs r_member_social (a restricted scope) for a member
 * author, r_organization_social for a page: without it LinkedIn answers 403 and the result is `unreadable`.
 */
export function linkedinReadBack(apiBase: string, version: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('linkedin', async () => {
    const token = (ctx.credentials.access_token ?? '').trim();
    const author = (ctx.credentials.author_urn ?? '').trim();
    if (!token || !author) return { state: 'unreadable', reason: 'linkedin: the connection has no access_token or author_urn' };
    const headers = { authorization: `Bearer ${token}`, 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0', accept: 'application/json' };
    return scanListing('linkedin', q, [escapeLittleText(content.text), escapeLittleText(q.text)], async (cursor) => {
      const start = Number(cursor ?? 0);
      const res = await request(ctx, `${apiBase}/rest/posts?author=${encodeURIComponent(author)}&q=author&count=${PAGE}&sortBy=CREATED&start=${start}`, { headers });
      const body = isRecord(res.json) ? res.json : {};
      if (res.status !== 200 || !Array.isArray(body.elements)) return unreadableAnswer('linkedin', res, 'listing the author\'s posts');
      const posts = (body.elements as Array<Record<string, unknown>>).map((p): ListedPost => {
        const id = String(p.id ?? '');
        return { id, url: `https://www.linkedin.com/feed/update/${id}`, text: String(p.commentary ?? ''), at: typeof p.createdAt === 'number' ? p.createdAt : Number.NaN };
      });
      // a short page may come from LinkedIn's own filtering: only an empty page ends the listing
      return { posts, next: posts.length ? String(start + PAGE) : undefined };
    });
  });
}

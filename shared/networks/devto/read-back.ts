import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { request } from '../http';
import { articleStatus } from '../article-status';
import { articleTitle } from '../article-title';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';

const PAGE = 30;

/**
 * dev.to read-back: `GET /api/articles/me/published?page=N&per_page=30` (header `api-key`), the account's published
 * articles newest first by published_at, each with its title and body_markdown. Drafts carry no date in that API
 * (published_at is null and created_at is not served), so a draft cannot be placed in the window: with
 * default_status 'draft' the answer is `unreadable`.
 */
export function devtoReadBack(base: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('devto', async () => {
    const apiKey = (ctx.credentials.api_key ?? '').trim();
    if (!apiKey) return { state: 'unreadable', reason: 'devto: the connection has no api_key' };
    if (articleStatus(ctx.credentials.default_status) === 'draft') {
      return { state: 'unreadable', reason: 'devto: drafts carry no creation time in the API, so a draft cannot be told apart from an older one' };
    }
    const title = q.title ?? articleTitle(content);
    return scanListing('devto', q, [q.text, content.text], async (cursor) => {
      const page = Number(cursor ?? 1);
      const res = await request(ctx, `${base}/api/articles/me/published?page=${page}&per_page=${PAGE}`, {
        headers: { 'api-key': apiKey, accept: 'application/vnd.forem.api-v1+json' },
      });
      if (res.status !== 200 || !Array.isArray(res.json)) return unreadableAnswer('devto', res, 'listing the account\'s articles');
      const posts = res.json.map((a: Record<string, unknown>): ListedPost => ({
        id: String(a.id ?? ''),
        url: typeof a.url === 'string' ? a.url : '',
        text: typeof a.body_markdown === 'string' ? a.body_markdown : '',
        title: typeof a.title === 'string' ? a.title : '',
        at: timeOf(a.published_at),
      }));
      return { posts, next: res.json.length === PAGE ? String(page + 1) : undefined };
    }, { title });
  });
}

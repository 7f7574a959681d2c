import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { isRecord } from '../../domain/values';
import { graphGet } from '../facebook/graph';

const PAGE = 50;

/**
 * Instagram read-back: `GET /{ig-user-id}/media?fields=id,caption,timestamp,permalink&limit=50` with the Page token
 * (else the user token), newest first, older pages with paging.cursors.after while paging.next is present. The
 * caption is the text we sent. Stories are not in that listing (and expire): they are not read back (`unreadable`).
 */
export function instagramReadBack(apiBase: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('instagram', async () => {
    const igUserId = (ctx.credentials.ig_user_id ?? '').trim();
    const token = (ctx.credentials.page_access_token ?? '').trim() || (ctx.credentials.access_token ?? '').trim();
    if (!igUserId || !token) return { state: 'unreadable', reason: 'instagram: the connection has no ig_user_id or token' };
    if (content.options?.story) return { state: 'unreadable', reason: 'instagram: stories are not read back' };
    return scanListing('instagram', q, [q.text, content.text], async (after) => {
      const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(igUserId)}/media`, token, {
        fields: 'id,caption,timestamp,permalink', limit: String(PAGE), ...(after ? { after } : {}),
      });
      const body = isRecord(res.json) ? res.json : {};
      if (res.status !== 200 || !Array.isArray(body.data)) return unreadableAnswer('instagram', res, 'listing the account\'s media');
      const posts = (body.data as Array<Record<string, unknown>>).map((m): ListedPost => ({
        id: String(m.id ?? ''), url: typeof m.permalink === 'string' ? m.permalink : '', text: String(m.caption ?? ''), at: timeOf(m.timestamp),
      }));
      const paging = isRecord(body.paging) ? body.paging : {};
      const cursor = isRecord(paging.cursors) && typeof paging.cursors.after === 'string' ? paging.cursors.after : undefined;
      return { posts, next: typeof paging.next === 'string' ? cursor : undefined };
    });
  });
}

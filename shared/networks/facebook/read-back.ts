import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { isRecord } from '../../domain/values';
import { graphGet } from './graph';

const PAGE = 100;

/**
 * Facebook Page read-back: `GET /{page-id}/published_posts?fields=id,message,created_time,permalink_url&limit=100`
 * with the Page token, newest first; older pages with paging.cursors.after while paging.next is present (cursor
 * paging only: Graph's time-based `since` is not mixed with cursors). A post's
 * `message` is the text, or the caption / description of a photo or video post. Reels are published as videos, not
 * Page posts with our id: they are not read back (`unreadable`).
 */
export function facebookReadBack(apiBase: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('facebook', async () => {
    const pageId = (ctx.credentials.page_id ?? '').trim();
    const token = (ctx.credentials.page_access_token ?? '').trim();
    if (!pageId || !token) return { state: 'unreadable', reason: 'facebook: the connection has no page_id or page_access_token' };
    if (content.options?.reel) return { state: 'unreadable', reason: 'facebook: reels are not read back' };
    return scanListing('facebook', q, [q.text, content.text], async (after) => {
      const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(pageId)}/published_posts`, token, {
        fields: 'id,message,created_time,permalink_url', limit: String(PAGE), ...(after ? { after } : {}),
      });
      const body = isRecord(res.json) ? res.json : {};
      if (res.status !== 200 || !Array.isArray(body.data)) return unreadableAnswer('facebook', res, 'listing the Page\'s posts');
      const posts = (body.data as Array<Record<string, unknown>>).map((p): ListedPost => {
        const id = String(p.id ?? '');
        return { id, url: typeof p.permalink_url === 'string' ? p.permalink_url : `https://www.facebook.com/${id}`, text: String(p.message ?? ''), at: timeOf(p.created_time) };
      });
      const paging = isRecord(body.paging) ? body.paging : {};
      const cursor = isRecord(paging.cursors) && typeof paging.cursors.after === 'string' ? paging.cursors.after : undefined;
      return { posts, next: typeof paging.next === 'string' ? cursor : undefined };
    });
  });
}

import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { isRecord } from '../../domain/values';
import { CLOCK_SKEW_MS, readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { threadsGet } from './oauth';

const PAGE = 100;

/**
 * Threads read-back: `GET /{threads-user-id}/threads?fields=id,text,timestamp,permalink&since=&limit=100` (the
 * user's own top-level posts, only those from `since` on — the send time less the clock skew, in epoch
 * seconds), older pages with `after` = paging.cursors.after while paging.next is present. The text is what we sent
 * (for a carousel, the carousel container's text).
 */
export function threadsReadBack(apiBase: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('threads', async () => {
    const userId = (ctx.credentials.threads_user_id ?? '').trim();
    const token = (ctx.credentials.access_token ?? '').trim();
    if (!userId || !token) return { state: 'unreadable', reason: 'threads: the connection has no threads_user_id or token' };
    const since = String(Math.floor((q.since - CLOCK_SKEW_MS) / 1000));
    // the listing's order is not documented: `since` bounds it, and only its end answers absent
    return scanListing('threads', q, [q.text, content.text], async (after) => {
      const res = await threadsGet(ctx, apiBase, `/${encodeURIComponent(userId)}/threads`, token, {
        fields: 'id,text,timestamp,permalink', since, limit: String(PAGE), ...(after ? { after } : {}),
      });
      const body = isRecord(res.json) ? res.json : {};
      if (res.status !== 200 || !Array.isArray(body.data)) return unreadableAnswer('threads', res, "listing the profile's posts");
      const posts = (body.data as Array<Record<string, unknown>>).map((m): ListedPost => ({
        id: String(m.id ?? ''), url: typeof m.permalink === 'string' ? m.permalink : '', text: String(m.text ?? ''), at: timeOf(m.timestamp),
      }));
      const paging = isRecord(body.paging) ? body.paging : {};
      const cursor = isRecord(paging.cursors) && typeof paging.cursors.after === 'string' ? paging.cursors.after : undefined;
      return { posts, next: typeof paging.next === 'string' ? cursor : undefined };
    }, { unordered: true });
  });
}

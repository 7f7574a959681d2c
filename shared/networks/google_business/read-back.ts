import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { isRecord } from '../../domain/values';
import { request } from '../http';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { bearer } from '../youtube/oauth';

const PAGE = 100;

/**
 * Google Business Profile read-back: `GET /v4/accounts/{a}/locations/{l}/localPosts?pageSize=100` (localPosts.list),
 * further pages with `pageToken` = nextPageToken. Google documents no order for that listing, so only its end
 * answers absent. A local post is ours when its summary is the text we sent, created (createTime) inside the window;
 * its id is its `name`, its link `searchUrl`.
 */
export function googleBusinessReadBack(postsBase: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('google_business', async () => {
    const accountId = (ctx.credentials.account_id ?? '').trim();
    const locationId = (ctx.credentials.location_id ?? '').trim();
    const token = (ctx.credentials.access_token ?? '').trim();
    if (!accountId || !locationId || !token) return { state: 'unreadable', reason: 'google_business: the connection has no account, location or token' };
    const path = `/v4/accounts/${encodeURIComponent(accountId)}/locations/${encodeURIComponent(locationId)}/localPosts`;
    return scanListing('google_business', q, [q.text, content.text], async (pageToken) => {
      const params = new URLSearchParams({ pageSize: String(PAGE), ...(pageToken ? { pageToken } : {}) });
      const res = await request(ctx, `${postsBase}${path}?${params}`, { headers: bearer(token) });
      const body = isRecord(res.json) ? res.json : {};
      if (res.status !== 200) return unreadableAnswer('google_business', res, "listing the location's posts");
      // a location without posts answers {} (no localPosts field)
      const list = Array.isArray(body.localPosts) ? (body.localPosts as Array<Record<string, unknown>>) : [];
      const posts = list.map((p): ListedPost => ({
        id: String(p.name ?? ''), url: typeof p.searchUrl === 'string' ? p.searchUrl : '', text: String(p.summary ?? ''), at: timeOf(p.createTime),
      }));
      return { posts, next: typeof body.nextPageToken === 'string' && body.nextPageToken ? body.nextPageToken : undefined };
    }, { unordered: true });
  });
}

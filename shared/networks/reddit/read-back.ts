import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { request } from '../http';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { isRecord } from '../../domain/values';
import { submission } from './limits';

const PAGE = 100;

/**
 * Reddit read-back: `GET /user/<username>/submitted?sort=new&limit=100&raw_json=1` (older pages with `after`, the
 * listing's `data.after`), bearer token and the service's User-Agent. A submission is ours when its subreddit,
 * title and body (self text, or the link of a link post) are what we submitted, at created_utc inside the window.
 */
export function redditReadBack(apiBase: string, userAgent: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('reddit', async () => {
    const token = (ctx.credentials.access_token ?? '').trim();
    const username = (ctx.credentials.username ?? '').trim();
    if (!token || !username) return { state: 'unreadable', reason: 'reddit: the connection has no access_token or username' };
    const sub = submission(content);
    if ('ok' in sub) return { state: 'unreadable', reason: `reddit: ${sub.error}` };
    const body = sub.kind === 'self' ? sub.text ?? '' : sub.url ?? '';
    return scanListing('reddit', q, [body], async (after) => {
      const params = new URLSearchParams({ sort: 'new', limit: String(PAGE), raw_json: '1', ...(after ? { after } : {}) });
      const res = await request(ctx, `${apiBase}/user/${encodeURIComponent(username)}/submitted?${params}`, {
        headers: { authorization: `Bearer ${token}`, 'user-agent': userAgent, accept: 'application/json' },
      });
      const data = isRecord(res.json) && isRecord(res.json.data) ? res.json.data : undefined;
      if (res.status !== 200 || !data || !Array.isArray(data.children)) return unreadableAnswer('reddit', res, 'listing the user\'s submissions');
      const posts = (data.children as Array<{ data?: Record<string, unknown> }>).map(({ data: p = {} }): ListedPost => {
        const sameSub = String(p.subreddit ?? '').toLowerCase() === sub.sr.toLowerCase();
        const shown = p.is_self ? String(p.selftext ?? '') : String(p.url ?? '');
        return {
          id: String(p.name ?? ''),
          url: typeof p.permalink === 'string' ? `https://www.reddit.com${p.permalink}` : String(p.url ?? ''),
          text: sameSub && Boolean(p.is_self) === (sub.kind === 'self') ? shown : '\u0000',
          title: String(p.title ?? ''),
          at: timeOf(p.created_utc),
        };
      });
      return { posts, next: typeof data.after === 'string' && data.after ? data.after : undefined };
    }, { title: sub.title });
  });
}

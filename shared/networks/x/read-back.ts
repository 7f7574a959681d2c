import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { request } from '../http';
import { CLOCK_SKEW_MS, readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { isRecord } from '../../domain/values';

const PAGE = 100;

interface UrlEntity { url?: string; expanded_url?: string; media_key?: string }

/**
 * The text a post shows through the API, back as we sent it: the long-post text (note_tweet) when present, t.co links
 * back to their expanded URLs, the link X appends for attached media removed, and X's &amp; &lt; &gt; unescaped.
 */
function sentText(tweet: Record<string, unknown>): string {
  const note = isRecord(tweet.note_tweet) ? tweet.note_tweet : undefined;
  let text = String(note?.text ?? tweet.text ?? '');
  const entities = isRecord(note?.entities) ? note.entities : isRecord(tweet.entities) ? tweet.entities : {};
  const urls = Array.isArray(entities.urls) ? (entities.urls as UrlEntity[]) : [];
  for (const u of urls) if (u.url) text = text.split(u.url).join(u.media_key ? '' : (u.expanded_url ?? u.url));
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * X read-back: `GET /2/users/:id/tweets?start_time&max_results=100&tweet.fields=created_at,entities,note_tweet
 * &exclude=retweets` (the user's own posts in the window, newest first; `pagination_token` = meta.next_token) with the
 * user's bearer token. X itself keeps only posts since the window opened (no end_time: a post of the last seconds must not be left out), so
 * the listing covers the window once there is no next_token.
 */
export function xReadBack(api: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('x', async () => {
    const token = (ctx.credentials.access_token ?? '').trim();
    const userId = (ctx.credentials.user_id ?? '').trim();
    if (!token || !userId) return { state: 'unreadable', reason: 'x: the connection has no access_token or user_id' };
    const username = ctx.credentials.username;
    const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    return scanListing('x', q, [q.text, content.text], async (next) => {
      const params = new URLSearchParams({
        start_time: second(q.since - CLOCK_SKEW_MS),
        max_results: String(PAGE), 'tweet.fields': 'created_at,entities,note_tweet', exclude: 'retweets', ...(next ? { pagination_token: next } : {}),
      });
      const res = await request(ctx, `${api}/2/users/${encodeURIComponent(userId)}/tweets?${params}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      const body = isRecord(res.json) ? res.json : {};
      if (res.status !== 200 || (body.data !== undefined && !Array.isArray(body.data))) return unreadableAnswer('x', res, 'listing the user\'s posts');
      const posts = ((body.data ?? []) as Array<Record<string, unknown>>).map((t): ListedPost => {
        const id = String(t.id ?? '');
        return { id, url: username ? `https://x.com/${encodeURIComponent(username)}/status/${id}` : `https://x.com/i/web/status/${id}`, text: sentText(t), at: timeOf(t.created_at) };
      });
      const token2 = isRecord(body.meta) && typeof body.meta.next_token === 'string' ? body.meta.next_token : undefined;
      return { posts, next: token2 };
    });
  });
}

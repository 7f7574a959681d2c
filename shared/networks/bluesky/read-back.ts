import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { request } from '../http';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { field, openSession, str, type SessionCache } from './xrpc';

const PAGE = 50;

/**
 * Bluesky read-back: a session (the adapter's cache), then `app.bsky.feed.getAuthorFeed?actor=<did>&limit=50
 * &filter=posts_with_replies` newest first, older pages with `cursor`. Reposts (items with a `reason`) are skipped;
 * the record's `text` and `createdAt` are what we sent (facets are kept apart from the text).
 */
export function blueskyReadBack(base: string, sessions: SessionCache): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('bluesky', async () => {
    const session = await openSession(ctx, base, sessions);
    if (!session.ok) return { state: 'unreadable', reason: `bluesky sign-in for the read-back failed: ${session.error}` };
    return scanListing('bluesky', q, [q.text, content.text], async (cursor) => {
      const params = new URLSearchParams({ actor: session.did, limit: String(PAGE), filter: 'posts_with_replies', ...(cursor ? { cursor } : {}) });
      const res = await request(ctx, `${base}/xrpc/app.bsky.feed.getAuthorFeed?${params}`, {
        headers: { authorization: `Bearer ${session.accessJwt}`, accept: 'application/json' },
      });
      const feed = field(res.json, 'feed');
      if (res.status !== 200 || !Array.isArray(feed)) return unreadableAnswer('bluesky', res, 'reading the author feed');
      const posts = feed.filter((item) => field(item, 'reason') === undefined).map((item): ListedPost => {
        const post = field(item, 'post');
        const uri = str(field(post, 'uri')) ?? '';
        const record = field(post, 'record');
        return {
          id: uri,
          url: `https://bsky.app/profile/${session.handle}/post/${uri.split('/').pop() ?? ''}`,
          text: str(field(record, 'text')) ?? '',
          at: timeOf(field(record, 'createdAt')),
        };
      });
      return { posts, next: str(field(res.json, 'cursor')) };
    });
  });
}

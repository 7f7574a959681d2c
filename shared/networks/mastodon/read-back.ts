import type { NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { request } from '../http';
import { htmlToText, readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { field, normaliseInstanceUrl, str } from './rules';

const PAGE = 40;

/**
 * Mastodon read-back: `GET /api/v1/accounts/verify_credentials` (the account id), then
 * `GET /api/v1/accounts/:id/statuses?limit=40&exclude_reblogs=true` newest first, older pages with `max_id` until an
 * empty page.
 * A status's `content` is HTML: it is compared as plain text (remote mentions show as @user, as Mastodon renders them).
 */
export function mastodonReadBack(content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> {
  return readingBack('mastodon', async () => {
    const base = normaliseInstanceUrl(ctx.credentials.instance_url);
    const token = (ctx.credentials.access_token ?? '').trim();
    if (!base || !token) return { state: 'unreadable', reason: 'mastodon: the connection has no instance_url or access_token' };
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const me = await request(ctx, `${base}/api/v1/accounts/verify_credentials`, { headers });
    const id = str(field(me.json, 'id'));
    if (me.status !== 200 || !id) return unreadableAnswer('mastodon', me, 'reading the account');
    const texts = [q.text, content.text].map((t) => t.replace(/(@[\w.-]+)@[\w.-]+\.[a-z]{2,}/gi, '$1'));
    return scanListing('mastodon', q, texts, async (maxId) => {
      const params = new URLSearchParams({ limit: String(PAGE), exclude_reblogs: 'true', ...(maxId ? { max_id: maxId } : {}) });
      const res = await request(ctx, `${base}/api/v1/accounts/${encodeURIComponent(id)}/statuses?${params}`, { headers });
      if (res.status !== 200 || !Array.isArray(res.json)) return unreadableAnswer('mastodon', res, 'listing the account statuses');
      const posts = res.json.map((s): ListedPost => ({
        id: str(field(s, 'id')) ?? '',
        url: str(field(s, 'url')) ?? str(field(s, 'uri')) ?? '',
        text: htmlToText(str(field(s, 'content')) ?? ''),
        at: timeOf(field(s, 'created_at')),
      }));
      // a short page is not the end (Mastodon drops statuses it may not show after fetching): only an empty one is
      return { posts, next: posts[posts.length - 1]?.id };
    });
  });
}

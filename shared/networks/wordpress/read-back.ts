import type { NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { request } from '../http';
import { articleTitle } from '../article-title';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { escapeHtml, htmlParagraphs, normaliseStatus } from './limits';

const PAGE = 20;

/**
 * WordPress read-back: `GET <site>/wp-json/wp/v2/posts?context=edit&status=<publish|draft>&author=<me>&orderby=date
 * &order=desc&per_page=20&page=N` (Basic auth; `context=edit` serves `title.raw` and `content.raw`, the HTML we sent;
 * the author id comes from `GET /wp-json/wp/v2/users/me`). Compared on `date_gmt` (UTC without a zone suffix).
 */
export function wordpressReadBack(content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> {
  return readingBack('wordpress', async () => {
    const raw = (ctx.credentials.site_url ?? '').trim();
    const username = (ctx.credentials.username ?? '').trim();
    const password = (ctx.credentials.app_password ?? '').trim();
    const status = normaliseStatus(ctx.credentials.default_status);
    if (!raw || !username || !password || !status) return { state: 'unreadable', reason: 'wordpress: the connection lacks site_url, username or app_password' };
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
    const base = `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/wp-json$/i, '')}`;
    const headers = { authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`, accept: 'application/json' };
    const me = await request(ctx, `${base}/wp-json/wp/v2/users/me`, { headers });
    const author = (me.json as { id?: unknown } | undefined)?.id;
    if (me.status !== 200 || typeof author !== 'number') return unreadableAnswer('wordpress', me, 'reading the user');
    const title = escapeHtml(q.title ?? articleTitle(content));
    return scanListing('wordpress', q, [htmlParagraphs(content.text), htmlParagraphs(q.text)], async (cursor) => {
      const page = Number(cursor ?? 1);
      const params = new URLSearchParams({ context: 'edit', status, author: String(author), orderby: 'date', order: 'desc', per_page: String(PAGE), page: String(page) });
      const res = await request(ctx, `${base}/wp-json/wp/v2/posts?${params}`, { headers });
      if (res.status !== 200 || !Array.isArray(res.json)) return unreadableAnswer('wordpress', res, 'listing the posts');
      const posts = res.json.map((p: Record<string, unknown>): ListedPost => ({
        id: String(p.id ?? ''),
        url: typeof p.link === 'string' ? p.link : '',
        text: String((p.content as { raw?: unknown } | undefined)?.raw ?? ''),
        title: String((p.title as { raw?: unknown } | undefined)?.raw ?? ''),
        at: typeof p.date_gmt === 'string' ? timeOf(`${p.date_gmt}Z`) : Number.NaN,
      }));
      const pages = Number(res.headers.get('x-wp-totalpages') ?? 1);
      return { posts, next: page < pages ? String(page + 1) : undefined };
    }, { title });
  });
}

import type { NetworkAdapter, NetworkContext, PublishContent, ReadBackOutcome, ReadBackQuery } from '../../ports/networks';
import { isRecord } from '../../domain/values';
import { request } from '../http';
import { readingBack, scanListing, timeOf, unreadableAnswer, type ListedPost } from '../read-back-match';
import { bearer } from './oauth';

const PAGE = 250;

/**
 * Pinterest read-back: the Pins of the board the post went to (per_platform board_id, else the connection's
 * default board), `GET /v5/boards/{board_id}/pins?page_size=250`, further pages with `bookmark` while one is
 * answered. Pinterest documents no order for that listing, so only its end answers absent. A Pin is ours when its
 * description is the text we sent (and its title ours, when both have one), created inside the window.
 */
export function pinterestReadBack(apiBase: string): NonNullable<NetworkAdapter['readBack']> {
  return (content: PublishContent, q: ReadBackQuery, ctx: NetworkContext): Promise<ReadBackOutcome> => readingBack('pinterest', async () => {
    const token = (ctx.credentials.access_token ?? '').trim();
    const board = content.options?.board_id ?? (ctx.credentials.board_id ?? '').trim();
    if (!token || !board) return { state: 'unreadable', reason: 'pinterest: the connection has no token, or the post names no board' };
    return scanListing('pinterest', q, [q.text, content.text], async (bookmark) => {
      const params = new URLSearchParams({ page_size: String(PAGE), ...(bookmark ? { bookmark } : {}) });
      const res = await request(ctx, `${apiBase}/v5/boards/${encodeURIComponent(board)}/pins?${params}`, { headers: bearer(token) });
      const body = isRecord(res.json) ? res.json : {};
      if (res.status !== 200 || !Array.isArray(body.items)) return unreadableAnswer('pinterest', res, `listing the Pins of board ${board}`);
      const posts = (body.items as Array<Record<string, unknown>>).map((p): ListedPost => ({
        id: String(p.id ?? ''), url: `https://www.pinterest.com/pin/${String(p.id ?? '')}/`, text: String(p.description ?? ''), at: timeOf(p.created_at),
        ...(typeof p.title === 'string' && p.title ? { title: p.title } : {}),
      }));
      return { posts, next: typeof body.bookmark === 'string' && body.bookmark ? body.bookmark : undefined };
    }, { unordered: true, ...(content.title ? { title: content.title } : {}) });
  });
}

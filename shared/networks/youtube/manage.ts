import type { ChangeOutcome, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, jsonInit, rejected, request } from '../http';
import { field, str } from '../oauth-tokens';
import { checkContent, errorReason, youtubeFailure } from './rules';

/**
 * Deleting and editing an uploaded video (YouTube Data API v3, developers.google.com/youtube/v3/docs/videos/delete and
 * /update): `DELETE /youtube/v3/videos?id=` → 204 (404 videoNotFound: counted as deleted); an edit reads the snippet
 * first (`GET /youtube/v3/videos?part=snippet&id=`) because videos.update replaces the whole snippet part (a field
 * left out is cleared, and title and categoryId are required), then `PUT /youtube/v3/videos?part=snippet` {id,
 * snippet} with the new description (the post's text) and title (the post's title, else the current one); category,
 * tags and language are sent back as read. The status part (privacy) is not touched. Bearer token as for uploads;
 * failures sorted by youtubeFailure (401 reauth, quota → rate_limited until midnight Pacific, 4xx rejected).
 */
export function createYouTubeManagement(api: string): Required<PostManagement> {
  const headers = (ctx: NetworkContext) => {
    const t = (ctx.credentials.access_token ?? '').trim();
    return t ? { authorization: `Bearer ${t}`, accept: 'application/json' } : undefined;
  };
  const noToken: ChangeOutcome = { ok: false, kind: 'reauth', error: 'youtube credentials have no access_token; sign in to youtube again' };
  const videosUrl = (params: Record<string, string>) => `${api}/youtube/v3/videos?${new URLSearchParams(params).toString()}`;

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const h = headers(ctx);
    if (!h) return noToken;
    const res = await request(ctx, videosUrl({ id: ref.id }), { method: 'DELETE', headers: h });
    if (res.status === 204 || res.status === 200 || (res.status === 404 && errorReason(res) === 'videoNotFound')) return { ok: true };
    return youtubeFailure(res, 'delete', ctx.now());
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const h = headers(ctx);
    if (!h) return noToken;
    const current = await request(ctx, videosUrl({ part: 'snippet', id: ref.id }), { headers: h });
    if (current.status !== 200) return youtubeFailure(current, 'edit (reading the video)', ctx.now());
    const items = field(current.json, 'items');
    const snippet = Array.isArray(items) ? field(items[0], 'snippet') : undefined;
    if (!snippet || typeof snippet !== 'object') return rejected('youtube no longer has this video (it was deleted on the network)');
    const title = content.title?.trim() || str(field(snippet, 'title')) || '';
    const invalid = checkContent({ ...content, title, media: [{ url: 'https://youtube.invalid/current.mp4', kind: 'video' }] });
    if (invalid) return invalid;
    const kept: Record<string, unknown> = {};
    for (const key of ['categoryId', 'tags', 'defaultLanguage']) if (field(snippet, key) !== undefined) kept[key] = field(snippet, key);
    const res = await request(ctx, videosUrl({ part: 'snippet' }), jsonInit('PUT', { id: ref.id, snippet: { ...kept, title, description: content.text } }, h));
    if (res.status === 404) return rejected('youtube no longer has this video (it was deleted on the network)');
    if (res.status !== 200) return youtubeFailure(res, 'edit', ctx.now());
    return { ok: true, ...(ref.url ? { url: ref.url } : {}) };
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}

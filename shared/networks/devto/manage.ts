import type { ChangeOutcome, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, jsonInit, rejected, request } from '../http';
import { articleTitle } from '../article-title';
import { checkDevto } from './limits';
import { devtoFailure } from './failure';

/**
 * Taking back and editing an article (Forem API v1, developers.forem.com/api/v1 "Update an article" `PUT
 * /api/articles/{id}`; the API has no delete-article endpoint, and `PUT /api/articles/{id}/unpublish` is for admins
 * and moderators only): delete = unpublish — `PUT /api/articles/{id} {article: {published: false}}` turns the article
 * back into a draft only its author sees (the author can delete it for good on dev.to); an article already gone (404)
 * counts as deleted. Edit = `PUT /api/articles/{id} {article: {title, body_markdown}}` (tags, cover image and
 * published state kept). Header `api-key`; 401 → reauth, 429 → rate_limited, 422 → rejected.
 */
export function createDevtoManagement(base: string): Required<PostManagement> {
  const headers = (ctx: NetworkContext) => {
    const key = (ctx.credentials.api_key ?? '').trim();
    return key ? { 'api-key': key, accept: 'application/vnd.forem.api-v1+json' } : undefined;
  };
  const noKey: ChangeOutcome = { ok: false, kind: 'reauth', error: 'api_key is missing: connect dev.to again' };
  const badId = (ref: PublishedRef) => !/^\d+$/.test(ref.id);

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const h = headers(ctx);
    if (!h) return noKey;
    if (badId(ref)) return rejected(`dev.to article ids are numbers; got ${ref.id.slice(0, 40)}`);
    const res = await request(ctx, `${base}/api/articles/${ref.id}`, jsonInit('PUT', { article: { published: false } }, h));
    if (res.status === 200 || res.status === 404) return { ok: true };
    return devtoFailure(res, 'unpublishing the article');
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const h = headers(ctx);
    if (!h) return noKey;
    if (badId(ref)) return rejected(`dev.to article ids are numbers; got ${ref.id.slice(0, 40)}`);
    const problem = checkDevto({ ...content, media: [] });
    if (problem) return problem;
    const res = await request(ctx, `${base}/api/articles/${ref.id}`, jsonInit('PUT', { article: { title: articleTitle(content), body_markdown: content.text } }, h));
    if (res.status === 404) return rejected('dev.to no longer has this article (it was deleted on the network)');
    if (res.status !== 200) return devtoFailure(res, 'updating the article');
    const url = (res.json as { url?: unknown } | undefined)?.url;
    return { ok: true, ...(typeof url === 'string' ? { url } : ref.url ? { url: ref.url } : {}) };
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}

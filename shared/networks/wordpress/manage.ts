import type { ChangeOutcome, Failure, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import type { HttpResult } from '../http';
import { guarded, jsonInit, rejected, request } from '../http';
import { articleTitle } from '../article-title';
import { checkWordpress, escapeHtml, htmlParagraphs } from './limits';

interface Site { base: string; host: string; auth: string }

/**
 * Deleting and editing a published post (WordPress REST API, developer.wordpress.org
 * `WP_REST_Posts_Controller::delete_item` / `update_item`): `DELETE <site>/wp-json/wp/v2/posts/<id>` moves it to the
 * trash (the site's own undo; `force=true` is not sent), and a post already gone (404 rest_post_invalid_id) or
 * already trashed (410 rest_already_trashed) counts as deleted; `POST <site>/wp-json/wp/v2/posts/<id>`
 * {title, content} edits it (status and featured image kept). Basic auth with the application password.
 */
export function createWordpressManagement({ site, failure }: {
  /** The adapter's credential reading and failure sorting (shared/networks/wordpress/index.ts). */
  site: (credentials: Record<string, string>) => Site | Failure;
  failure: (res: HttpResult, doing: string) => Failure;
}): Required<PostManagement> {
  const postUrl = (s: Site, ref: PublishedRef) => (/^\d+$/.test(ref.id) ? `${s.base}/wp-json/wp/v2/posts/${ref.id}` : undefined);
  const code = (res: HttpResult) => (res.json as { code?: unknown } | undefined)?.code;

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const s = site(ctx.credentials);
    if ('ok' in s) return s;
    const url = postUrl(s, ref);
    if (!url) return rejected(`wordpress: ${ref.id} is not a post id`);
    const res = await request(ctx, url, { method: 'DELETE', headers: { authorization: s.auth, accept: 'application/json' } });
    if (res.status === 200 || (res.status === 404 && code(res) === 'rest_post_invalid_id') || (res.status === 410 && code(res) === 'rest_already_trashed')) return { ok: true };
    return failure(res, 'deleting the post');
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const s = site(ctx.credentials);
    if ('ok' in s) return s;
    const url = postUrl(s, ref);
    if (!url) return rejected(`wordpress: ${ref.id} is not a post id`);
    const invalid = checkWordpress(content, ctx.credentials);
    if (invalid) return invalid;
    const res = await request(ctx, url, jsonInit('POST', { title: escapeHtml(articleTitle(content)), content: htmlParagraphs(content.text) }, { authorization: s.auth }));
    if (res.status === 404 && code(res) === 'rest_post_invalid_id') return rejected('WordPress no longer has this post (it was deleted on the site)');
    if (res.status !== 200) return failure(res, 'editing the post');
    const link = (res.json as { link?: unknown } | undefined)?.link;
    return { ok: true, ...(typeof link === 'string' ? { url: link } : ref.url ? { url: ref.url } : {}) };
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}

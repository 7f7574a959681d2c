import type { ChangeOutcome, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, rejected, request } from '../http';
import { field } from '../oauth-tokens';
import { graphError, graphFailure, graphPost, graphUrl, type GraphError } from './graph';
import { checkFacebook } from './limits';

/** Graph's "object does not exist" (code 100 subcode 33, or the plain message): the post is gone. */
const gone = (e: GraphError) => (e.code === 100 && e.subcode === 33) || /does not exist|cannot be loaded/i.test(e.message);

/**
 * Deleting and editing a published Page post (Pages API, developers.facebook.com/docs/pages-api/posts): `DELETE
 * /{post-id}` with the Page token (a post already gone answers code 100/33: counted as deleted) and `POST /{post-id}
 * {message}` (edit; the answer is {success: true}). Feed and photo posts have `<page>_<post>` ids and take `message`;
 * videos and reels publish under a plain video id and take `description` instead (`POST /{video-id} {description}`).
 * Failures sorted as a publish's (190 / 200-299 reauth, 4/17/32/613 rate_limited, others rejected).
 */
export function createFacebookManagement(apiBase: string): Required<PostManagement> {
  const pageToken = (ctx: NetworkContext) => (ctx.credentials.page_access_token ?? '').trim();
  const noToken: ChangeOutcome = { ok: false, kind: 'reauth', error: 'facebook needs the page_access_token: connect Facebook again and pick a Page' };

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const token = pageToken(ctx);
    if (!token) return noToken;
    const res = await request(ctx, graphUrl(apiBase, `/${encodeURIComponent(ref.id)}`, { access_token: token }), { method: 'DELETE', headers: { accept: 'application/json' } });
    if (res.status === 200 && field(res.json, 'success') !== false) return { ok: true };
    const e = graphError(res);
    if (e && gone(e)) return { ok: true };
    return graphFailure(res, 'facebook delete', ctx.now());
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const token = pageToken(ctx);
    if (!token) return noToken;
    const invalid = checkFacebook({ ...content, media: [], options: undefined });
    if (invalid) return invalid;
    const isVideo = !ref.id.includes('_');
    const res = await graphPost(ctx, apiBase, `/${encodeURIComponent(ref.id)}`, token, isVideo ? { description: content.text } : { message: content.text });
    if (res.status === 200 && field(res.json, 'success') !== false) return { ok: true, ...(ref.url ? { url: ref.url } : {}) };
    return graphFailure(res, 'facebook edit', ctx.now(), (e) => (gone(e) ? rejected('facebook no longer has this post (it was deleted on the network)') : undefined));
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}

import type { ChangeOutcome, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, jsonInit, rejected, request } from '../http';
import { checkLinkedin, escapeLittleText, linkedinFailure } from './rules';
import { encodeUrn } from './media';

/**
 * Deleting and editing a published post (Posts API, learn.microsoft.com/linkedin/marketing/community-management/shares/
 * posts-api "Delete Posts" / "Update Posts"): `DELETE /rest/posts/{encoded urn}` → 204 (a post already gone answers
 * 404: counted as deleted); `POST /rest/posts/{encoded urn}` with `X-RestLi-Method: PARTIAL_UPDATE` and
 * `{patch: {$set: {commentary}}}` → 204 (only the commentary of an organic post can change; media, visibility and author
 * stay as published). Headers as for a publish (Bearer, LinkedIn-Version, X-Restli-Protocol-Version 2.0.0); failures
 * sorted by linkedinFailure (401/403 reauth, 429 rate_limited, other 4xx rejected).
 */
export function createLinkedinManagement(apiBase: string, version: string): Required<PostManagement> {
  const headers = (ctx: NetworkContext) => {
    const token = (ctx.credentials.access_token ?? '').trim();
    return token ? { authorization: `Bearer ${token}`, 'linkedin-version': version, 'x-restli-protocol-version': '2.0.0', accept: 'application/json' } : undefined;
  };
  const noToken: ChangeOutcome = { ok: false, kind: 'reauth', error: 'linkedin needs an access_token: connect LinkedIn again' };
  const badId = (ref: PublishedRef) => !/^urn:li:(share|ugcPost):[^\s]+$/.test(ref.id);

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const h = headers(ctx);
    if (!h) return noToken;
    if (badId(ref)) return rejected(`linkedin post ids are urn:li:share / urn:li:ugcPost URNs; got ${ref.id.slice(0, 80)}`);
    const res = await request(ctx, `${apiBase}/rest/posts/${encodeUrn(ref.id)}`, { method: 'DELETE', headers: h });
    if (res.status === 204 || res.status === 200 || res.status === 404 || res.status === 410) return { ok: true };
    return linkedinFailure(res, 'delete', ctx.now());
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const h = headers(ctx);
    if (!h) return noToken;
    if (badId(ref)) return rejected(`linkedin post ids are urn:li:share / urn:li:ugcPost URNs; got ${ref.id.slice(0, 80)}`);
    const invalid = checkLinkedin({ ...content, media: [] });
    if (invalid) return invalid;
    const res = await request(ctx, `${apiBase}/rest/posts/${encodeUrn(ref.id)}`,
      jsonInit('POST', { patch: { $set: { commentary: escapeLittleText(content.text) } } }, { ...h, 'x-restli-method': 'PARTIAL_UPDATE' }));
    if (res.status === 404 || res.status === 410) return rejected('linkedin no longer has this post (it was deleted on the network)');
    if (res.status !== 204 && res.status !== 200) return linkedinFailure(res, 'edit', ctx.now());
    return { ok: true, ...(ref.url ? { url: ref.url } : {}) };
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}

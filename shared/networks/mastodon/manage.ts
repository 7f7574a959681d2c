import type { ChangeOutcome, NetworkContext, PostManagement, PublishContent, PublishedRef } from '../../ports/networks';
import { guarded, jsonInit, rejected, request } from '../http';
import { checkContent, mastodonFailure, normaliseInstanceUrl } from './rules';

/**
 * Deleting and editing a published status (Mastodon REST API, docs.joinmastodon.org/methods/statuses):
 * `DELETE /api/v1/statuses/:id` (a status already gone answers 404: counted as deleted) and `PUT /api/v1/statuses/:id`
 * JSON {status} (edit, Mastodon 3.5+; media and visibility are kept as published). Bearer access_token; failures
 * sorted as a publish's (429 rate_limited, 401/403 reauth, 422 rejected).
 */
export function createMastodonManagement(): Required<PostManagement> {
  const account = (ctx: NetworkContext) => {
    const base = normaliseInstanceUrl(ctx.credentials.instance_url);
    const token = (ctx.credentials.access_token ?? '').trim();
    return base && token ? { base, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } } : undefined;
  };

  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const a = account(ctx);
    if (!a) return { ok: false, kind: 'reauth', error: 'The stored mastodon credentials are incomplete; reconnect Mastodon' };
    const res = await request(ctx, `${a.base}/api/v1/statuses/${encodeURIComponent(ref.id)}`, { method: 'DELETE', headers: a.headers });
    if (res.status === 200 || res.status === 404) return { ok: true };
    return mastodonFailure(res, 'delete', ctx.now());
  }

  async function edit(ref: PublishedRef, content: PublishContent, ctx: NetworkContext): Promise<ChangeOutcome> {
    const a = account(ctx);
    if (!a) return { ok: false, kind: 'reauth', error: 'The stored mastodon credentials are incomplete; reconnect Mastodon' };
    const invalid = checkContent({ ...content, media: [] }, ctx.credentials);
    if (invalid) return invalid;
    const res = await request(ctx, `${a.base}/api/v1/statuses/${encodeURIComponent(ref.id)}`, jsonInit('PUT', { status: content.text }, a.headers));
    if (res.status === 404) return rejected('mastodon no longer has this status (it was deleted on the network)');
    if (res.status !== 200) return mastodonFailure(res, 'edit', ctx.now());
    return { ok: true, ...(ref.url ? { url: ref.url } : {}) };
  }

  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)), edit: (ref, content, ctx) => guarded(() => edit(ref, content, ctx)) };
}

import type { ChangeOutcome, NetworkContext, PostManagement, PublishedRef } from '../../ports/networks';
import { guarded, rejected, request } from '../http';
import { xFailure } from './errors';
import { bearer } from './oauth';

/**
 * Deleting a published post (the X API has no edit): `DELETE /2/tweets/:id` with the user's OAuth 2.0 token
 * (scopes tweet.read, tweet.write, users.read; 50 requests per 15 minutes per user), answering
 * `{data: {deleted: true}}` (developer.x.com manage-tweets API reference). A post X no longer has (404, or
 * `deleted: false`) counts as deleted.
 */
export function createXManagement({ api }: { api: string }): Pick<PostManagement, 'delete'> {
  async function remove(ref: PublishedRef, ctx: NetworkContext): Promise<ChangeOutcome> {
    const token = (ctx.credentials.access_token ?? '').trim();
    if (!token) return { ok: false, kind: 'reauth', error: 'x credentials have no access_token; sign in to x again' };
    if (!/^\d{1,19}$/.test(ref.id)) return rejected(`x: ${ref.id} is not a post id`);
    const res = await request(ctx, `${api}/2/tweets/${ref.id}`, { method: 'DELETE', headers: { ...bearer(token), accept: 'application/json' } });
    if (res.status === 200 || res.status === 404) return { ok: true };
    return xFailure(res, 'delete', ctx.now());
  }
  return { delete: (ref, ctx) => guarded(() => remove(ref, ctx)) };
}

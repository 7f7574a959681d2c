import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded } from '../http';
import { field, str } from '../oauth-tokens';
import { FACEBOOK_API_BASE, graphFailure, graphGet } from '../facebook/graph';
import { trimBase } from '../../domain/values';
import { instagramRefine } from './rules';
import type { InstagramOptions } from './oauth';

/** The Instagram user id, token and username of the credentials. */
export interface Account { igUserId: string; token: string; username?: string }

export function account(credentials: Record<string, string>): Account | Failure {
  const igUserId = (credentials.ig_user_id ?? '').trim();
  const token = (credentials.page_access_token ?? '').trim() || (credentials.access_token ?? '').trim();
  if (!igUserId || !token) return { ok: false, kind: 'reauth', error: 'instagram needs the ig_user_id and a token: connect Instagram again' };
  return { igUserId, token, username: credentials.username?.trim() || undefined };
}

/** Instagram's credential check: `GET /{ig_user_id}?fields=id,username` with the Page token. */
export function createInstagramVerifier(opts: InstagramOptions = {}): NetworkVerifier {
  const apiBase = trimBase(opts.apiBase ?? FACEBOOK_API_BASE);
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const res = await graphGet(ctx, apiBase, `/${encodeURIComponent(a.igUserId)}`, a.token, { fields: 'id,username' });
    if (res.status !== 200) return graphFailure(res, 'instagram account check', ctx.now(), instagramRefine);
    const username = str(field(res.json, 'username')) ?? a.username;
    const credentials = { ...ctx.credentials, ig_user_id: a.igUserId, ...(username ? { username } : {}) };
    return { ok: true, handle: username ? `@${username}` : a.igUserId, credentials };
  }
  return { name: 'instagram', verify: (ctx) => guarded(() => verify(ctx)) };
}

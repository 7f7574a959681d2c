import type { Failure, NetworkContext, NetworkVerifier, VerifiedAccount } from '../../ports/networks';
import { guarded, request } from '../http';
import { field, str } from '../oauth-tokens';
import { trimBase } from '../../domain/values';
import { PINTEREST_API_BASE, bearer, pinterestFailure, type PinterestOptions } from './oauth';

/** The token, username and default board of the credentials. */
export interface Account { token: string; username?: string; boardId?: string }

export function account(credentials: Record<string, string>): Account | Failure {
  const token = (credentials.access_token ?? '').trim();
  if (!token) return { ok: false, kind: 'reauth', error: 'pinterest needs a token: connect Pinterest again' };
  return { token, username: credentials.username?.trim() || undefined, boardId: credentials.board_id?.trim() || undefined };
}

/** Pinterest's credential check: `GET /v5/user_account` with the token (→ @username). */
export function createPinterestVerifier(opts: PinterestOptions = {}): NetworkVerifier {
  const api = trimBase(opts.apiBase ?? PINTEREST_API_BASE);
  async function verify(ctx: NetworkContext): Promise<VerifiedAccount | Failure> {
    const a = account(ctx.credentials);
    if ('ok' in a) return a;
    const res = await request(ctx, `${api}/v5/user_account`, { headers: bearer(a.token) });
    if (res.status !== 200) return pinterestFailure(res, 'account check');
    const username = str(field(res.json, 'username')) ?? a.username;
    return { ok: true, handle: username ? `@${username}` : 'pinterest', credentials: { ...ctx.credentials, ...(username ? { username } : {}) } };
  }
  return { name: 'pinterest', verify: (ctx) => guarded(() => verify(ctx)) };
}

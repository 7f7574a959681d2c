import type { Failure, NetworkVerifier } from '../../ports/networks';
import { guarded } from '../http';
import { trimBase } from '../../domain/values';
import { userInfo, TIKTOK_API_BASE, type TikTokOptions } from './oauth';

/** The stored access token, or a reauth Failure when there is none. */
export function accessToken(credentials: Record<string, string>): string | Failure {
  const t = (credentials.access_token ?? '').trim();
  return t || { ok: false, kind: 'reauth', error: 'tiktok credentials have no access_token; sign in to tiktok again' };
}

/** TikTok's credential check: `GET /v2/user/info/` with the token (open_id stored; the handle from the connection). */
export function createTikTokVerifier(opts: TikTokOptions = {}): NetworkVerifier {
  const api = trimBase(opts.apiBase ?? TIKTOK_API_BASE);
  return {
    name: 'tiktok',
    verify: (ctx) => guarded(async () => {
      const t = accessToken(ctx.credentials);
      if (typeof t !== 'string') return t;
      const user = await userInfo(ctx, api, t);
      if ('ok' in user) return user;
      const username = ctx.credentials.username;
      return { ok: true as const, handle: username ? `@${username}` : user.display_name ?? user.open_id, credentials: { ...ctx.credentials, open_id: user.open_id } };
    }),
  };
}

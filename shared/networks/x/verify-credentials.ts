import type { Failure, NetworkVerifier } from '../../ports/networks';
import { guarded } from '../http';
import { trimBase } from '../../domain/values';
import { me, X_API_BASE, type XOptions } from './oauth';

/** The stored access token, or a reauth Failure when there is none. */
export function accessToken(credentials: Record<string, string>): string | Failure {
  const t = (credentials.access_token ?? '').trim();
  return t || { ok: false, kind: 'reauth', error: 'x credentials have no access_token; sign in to x again' };
}

/** X's credential check: `GET /2/users/me` with the access token (→ @username; user_id and username stored). */
export function createXVerifier(opts: XOptions = {}): NetworkVerifier {
  const api = trimBase(opts.apiBase ?? X_API_BASE);
  return {
    name: 'x',
    verify: (ctx) => guarded(async () => {
      const t = accessToken(ctx.credentials);
      if (typeof t !== 'string') return t;
      const user = await me(ctx, api, t);
      if ('ok' in user) return user;
      return { ok: true as const, handle: `@${user.username}`, credentials: { ...ctx.credentials, user_id: user.id, username: user.username } };
    }),
  };
}

import type { Failure, NetworkVerifier } from '../../ports/networks';
import { guarded } from '../http';
import { trimBase } from '../../domain/values';
import { identity, REDDIT_API_BASE, REDDIT_DEFAULT_USER_AGENT, type RedditOptions } from './oauth';

/** The stored access token, or a reauth Failure when there is none. */
export function accessToken(credentials: Record<string, string>): string | Failure {
  const t = (credentials.access_token ?? '').trim();
  return t || { ok: false, kind: 'reauth', error: 'reddit needs an access_token: connect Reddit again' };
}

/** Reddit's credential check: `GET /api/v1/me` with the token (→ u/name; username and user_id stored). */
export function createRedditVerifier(opts: RedditOptions = {}): NetworkVerifier {
  const apiBase = trimBase(opts.apiBase ?? REDDIT_API_BASE);
  const userAgent = opts.userAgent ?? REDDIT_DEFAULT_USER_AGENT;
  return {
    name: 'reddit',
    verify: (ctx) => guarded(async () => {
      const t = accessToken(ctx.credentials);
      if (typeof t !== 'string') return t;
      const me = await identity(ctx, apiBase, userAgent, t);
      if ('ok' in me) return me;
      return { ok: true as const, handle: `u/${me.name}`, credentials: { ...ctx.credentials, access_token: t, username: me.name, user_id: me.id } };
    }),
  };
}

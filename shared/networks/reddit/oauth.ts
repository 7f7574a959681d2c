import type { OAuthAccount, OAuthApp, OAuthProvider, TokenSet } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { guarded, request } from '../http';
import { basicAuth, field, formInit, idString, oauthError, str, tokenFailure, tokenSetFrom, urlWithQuery } from '../oauth-tokens';
import { redditFailure } from './rules';
import { trimBase } from '../../domain/values';

export const REDDIT_API_BASE = 'https://oauth.reddit.com';
export const REDDIT_AUTH_BASE = 'https://www.reddit.com';
export const REDDIT_SCOPES = ['identity', 'submit', 'history', 'edit', 'read'] as const;
/** Reddit throttles or blocks generic agents; the format it asks for is `<platform>:<app id>:<version> (by /u/<user>)`. */
export const REDDIT_DEFAULT_USER_AGENT = 'server:open-social-publishing-api:0.1.0 (self-hosted)';

export interface RedditOptions {
  /** API origin (`/api/v1/me`, `/api/submit`). Default https://oauth.reddit.com. */
  apiBase?: string;
  /** Origin of /api/v1/authorize and /api/v1/access_token. Default https://www.reddit.com. */
  authBase?: string;
  /** User-Agent sent on every call (required by Reddit). */
  userAgent?: string;
}

/**
 * Reddit sign-in (no PKCE): authorize `/api/v1/authorize?...&duration=permanent&scope=identity submit history` (history: reading the user's submissions back); token
 * `POST /api/v1/access_token` with HTTP Basic client auth and a form body. Access tokens live ~1 h; the permanent
 * refresh token does not expire and is kept when a refresh answers without one. Reddit answers some token errors
 * with HTTP 200 and `{error}`: those are failures too (invalid_grant → reauth).
 * accounts(): `GET {apiBase}/api/v1/me` → one account, credentials {username, user_id}.
 */
export function createRedditProvider(opts: RedditOptions = {}): OAuthProvider {
  const authBase = trimBase(opts.authBase ?? REDDIT_AUTH_BASE);
  const apiBase = trimBase(opts.apiBase ?? REDDIT_API_BASE);
  const userAgent = opts.userAgent ?? REDDIT_DEFAULT_USER_AGENT;

  async function tokenCall(ctx: NetworkContext, app: OAuthApp, params: Record<string, string>, what: string, previous?: TokenSet): Promise<TokenSet | Failure> {
    const res = await request(ctx, `${authBase}/api/v1/access_token`, formInit('POST', params, {
      authorization: basicAuth(app.clientId, app.clientSecret), 'user-agent': userAgent,
    }));
    if (res.status !== 200 || oauthError(res)) return tokenFailure(res, 'reddit', what, 'REDDIT');
    return tokenSetFrom(res.json, ctx.now(), previous) ?? { ok: false, kind: 'transient', error: `reddit ${what} answered without an access_token` };
  }

  return {
    name: 'reddit',
    pkce: false,
    authorizeUrl: async ({ app, state }) => urlWithQuery(authBase, '/api/v1/authorize', {
      client_id: app.clientId, response_type: 'code', state, redirect_uri: app.redirectUri, duration: 'permanent', scope: REDDIT_SCOPES.join(' '),
    }),
    exchangeCode: ({ app, code }, ctx) => guarded(() => tokenCall(ctx, app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }, 'code exchange')),
    refresh: (tokens, app, ctx) => guarded(async () => {
      if (!tokens.refresh_token) return { ok: false, kind: 'reauth', error: 'reddit gave no refresh token: sign in to Reddit again' };
      return tokenCall(ctx, app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, 'token refresh', tokens);
    }),
    accounts: (tokens, ctx) => guarded(async (): Promise<OAuthAccount[] | Failure> => {
      const me = await identity(ctx, apiBase, userAgent, tokens.access_token);
      if ('ok' in me) return me;
      return [{ id: me.id, handle: `u/${me.name}`, credentials: { username: me.name, user_id: me.id } }];
    }),
  };
}

/** `GET /api/v1/me` → the user's id and name. */
export async function identity(ctx: NetworkContext, apiBase: string, userAgent: string, token: string): Promise<{ id: string; name: string } | Failure> {
  const res = await request(ctx, `${apiBase}/api/v1/me`, { headers: { authorization: `Bearer ${token}`, 'user-agent': userAgent, accept: 'application/json' } });
  if (res.status !== 200) return redditFailure(res, 'identity check', ctx.now(), true);
  const name = str(field(res.json, 'name'));
  if (!name) return { ok: false, kind: 'transient', error: 'reddit /api/v1/me answered without a name' };
  return { id: idString(field(res.json, 'id')) ?? name, name };
}

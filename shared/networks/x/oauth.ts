import type { OAuthAccount, OAuthApp, OAuthProvider, TokenSet } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { guarded, rejected, request } from '../http';
import { basicAuth, field, formInit, idString, oauthError, str, tokenFailure, tokenSetFrom, urlWithQuery } from '../oauth-tokens';
import { xFailure } from './errors';
import { trimBase } from '../../domain/values';

export const X_API_BASE = 'https://api.x.com';
export const X_AUTH_BASE = 'https://x.com';
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'offline.access', 'media.write'] as const;

export interface XOptions {
  /** Origin of API v2 and of the token endpoint (POST /2/oauth2/token). */
  apiBase?: string;
  /** Origin of the authorize page (/i/oauth2/authorize). X serves it on x.com, apart from the API. */
  authBase?: string;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

export interface XUser { id: string; username: string; name?: string }

/** GET /2/users/me: who the token posts as. */
export async function me(ctx: NetworkContext, api: string, token: string): Promise<XUser | Failure> {
  const res = await request(ctx, `${api}/2/users/me`, { headers: bearer(token) });
  if (res.status !== 200) return xFailure(res, 'user lookup', ctx.now());
  const data = field(res.json, 'data');
  const id = idString(field(data, 'id'));
  const username = str(field(data, 'username'));
  if (!id || !username) return { ok: false, kind: 'transient', error: 'x answered /2/users/me without an id and username' };
  return { id, username, name: str(field(data, 'name')) };
}

/**
 * X OAuth 2.0 authorization code with PKCE (required, S256), for a confidential client.
 * Authorize: `{authBase}/i/oauth2/authorize?response_type=code&client_id&redirect_uri&scope=<space-separated>&state
 * &code_challenge&code_challenge_method=S256`. Token: `POST {apiBase}/2/oauth2/token` (form: grant_type, code,
 * redirect_uri, code_verifier, client_id) with `Authorization: Basic base64(client_id:client_secret)`.
 * Access tokens live 2 h; refresh tokens (offline.access) are single-use: each refresh answer carries the next one,
 * which replaces the old (the caller must store it before using the new access token). A refused refresh
 * (invalid_grant, or invalid_request "token was invalid") → reauth.
 * accounts(): the user from /2/users/me → {id, handle: @username, credentials {user_id, username}}.
 */
export function createXProvider({ apiBase = X_API_BASE, authBase = X_AUTH_BASE }: XOptions = {}): OAuthProvider {
  const api = trimBase(apiBase);
  const auth = trimBase(authBase);

  async function token(ctx: NetworkContext, app: OAuthApp, params: Record<string, string | undefined>, what: string, previous?: TokenSet): Promise<TokenSet | Failure> {
    const res = await request(ctx, `${api}/2/oauth2/token`, formInit('POST', params, { authorization: basicAuth(app.clientId, app.clientSecret) }));
    const tokens = res.status === 200 ? tokenSetFrom(res.json, ctx.now(), previous) : undefined;
    if (tokens) return tokens;
    const failure = tokenFailure(res.status === 200 ? { ...res, status: 400 } : res, 'x', what, 'X');
    // X answers a spent or revoked refresh token with invalid_request ("Value passed for the token was invalid").
    if (previous && failure.kind === 'rejected' && oauthError(res) === 'invalid_request') return { ok: false, kind: 'reauth', error: `${failure.error}; sign in to x again` };
    return failure;
  }

  async function accounts(tokens: TokenSet, ctx: NetworkContext): Promise<OAuthAccount[] | Failure> {
    const user = await me(ctx, api, tokens.access_token);
    if ('ok' in user) return user;
    return [{ id: user.id, handle: `@${user.username}`, credentials: { user_id: user.id, username: user.username } }];
  }

  return {
    name: 'x',
    pkce: true,
    authorizeUrl: async ({ app, state, codeChallenge }) => {
      if (!codeChallenge) throw new Error('x requires PKCE: authorizeUrl needs a code challenge');
      return urlWithQuery(auth, '/i/oauth2/authorize', {
        response_type: 'code', client_id: app.clientId, redirect_uri: app.redirectUri, scope: X_SCOPES.join(' '), state,
        code_challenge: codeChallenge, code_challenge_method: 'S256',
      });
    },
    exchangeCode: ({ app, code, codeVerifier }, ctx) => guarded(async () => {
      if (!codeVerifier) return rejected('x requires PKCE: the code exchange needs the code verifier');
      return token(ctx, app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, code_verifier: codeVerifier, client_id: app.clientId }, 'code exchange');
    }),
    refresh: (tokens, app, ctx) => guarded(async () => {
      if (!tokens.refresh_token) return { ok: false, kind: 'reauth', error: 'x tokens have no refresh token (offline.access); sign in to x again' };
      return token(ctx, app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: app.clientId }, 'token refresh', tokens);
    }),
    accounts: (tokens, ctx) => guarded(() => accounts(tokens, ctx)),
  };
}

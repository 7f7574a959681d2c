import type { OAuthAccount, OAuthProvider, TokenSet } from '../ports/oauth';
import type { Failure, NetworkContext } from '../ports/networks';
import type { PlatformName } from '../domain/platforms';
import { trimBase } from '../domain/values';
import { guarded, request } from './http';
import { formInit, tokenFailure, tokenSetFrom, urlWithQuery } from './oauth-tokens';

export const GOOGLE_AUTH_BASE = 'https://accounts.google.com';
export const GOOGLE_TOKEN_BASE = 'https://oauth2.googleapis.com';

export interface GoogleSignInOptions {
  network: PlatformName;
  /** Prefix of the network's environment variables, named in a failure's fix (YOUTUBE, GOOGLE_BUSINESS). */
  envPrefix: string;
  scopes: readonly string[];
  /** Origin of the authorize page (/o/oauth2/v2/auth); default accounts.google.com. */
  authBase?: string;
  /** Origin of the token endpoint (/token); default authBase when given (one fake serves both), else oauth2.googleapis.com. */
  tokenBase?: string;
  /** The accounts the tokens can post as (channels, locations): what the connect picker lists. */
  accounts(tokens: TokenSet, ctx: NetworkContext): Promise<OAuthAccount[] | Failure>;
  /** The reauth message when stored tokens have no refresh token. */
  noRefreshToken: string;
}

/**
 * Google's OAuth web-server sign-in, as YouTube and Business Profile use it: authorize at `{authBase}/o/oauth2/v2/auth`
 * with access_type=offline and prompt=consent (so every sign-in returns a refresh token), the scopes space-separated,
 * PKCE S256 when a challenge is given. Token: `POST {tokenBase}/token` (form, client_id + client_secret in the body);
 * a refresh keeps the stored refresh token unless Google sends a new one.
 */
export function googleSignIn(opts: GoogleSignInOptions): OAuthProvider {
  const auth = trimBase(opts.authBase ?? GOOGLE_AUTH_BASE);
  const tokenBase = trimBase(opts.tokenBase ?? (opts.authBase ? auth : GOOGLE_TOKEN_BASE));

  async function token(ctx: NetworkContext, params: Record<string, string | undefined>, what: string, previous?: TokenSet): Promise<TokenSet | Failure> {
    const res = await request(ctx, `${tokenBase}/token`, formInit('POST', params));
    const tokens = res.status === 200 ? tokenSetFrom(res.json, ctx.now(), previous) : undefined;
    return tokens ?? tokenFailure(res.status === 200 ? { ...res, status: 400 } : res, opts.network, what, opts.envPrefix);
  }

  return {
    name: opts.network,
    pkce: true,
    authorizeUrl: async ({ app, state, codeChallenge }) => urlWithQuery(auth, '/o/oauth2/v2/auth', {
      client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', scope: opts.scopes.join(' '),
      access_type: 'offline', prompt: 'consent', state,
      code_challenge: codeChallenge, code_challenge_method: codeChallenge ? 'S256' : undefined,
    }),
    exchangeCode: ({ app, code, codeVerifier }, ctx) => guarded(() => token(ctx, {
      code, client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: app.redirectUri, grant_type: 'authorization_code', code_verifier: codeVerifier,
    }, 'code exchange')),
    refresh: (tokens, app, ctx) => guarded(async () => {
      if (!tokens.refresh_token) return { ok: false, kind: 'reauth', error: opts.noRefreshToken };
      return token(ctx, { client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, 'token refresh', tokens);
    }),
    accounts: (tokens, ctx) => guarded(() => opts.accounts(tokens, ctx)),
  };
}

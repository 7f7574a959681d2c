import type { OAuthAccount, OAuthApp, OAuthProvider, TokenSet } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { guarded, jsonInit, request, type HttpResult } from '../http';
import { field, formInit, idString, num, str, tokenFailure, tokenSetFrom, urlWithQuery } from '../oauth-tokens';
import { succeeded, tiktokFailure } from './rules';
import { trimBase } from '../../domain/values';

export const TIKTOK_API_BASE = 'https://open.tiktokapis.com';
export const TIKTOK_AUTH_BASE = 'https://www.tiktok.com';
/** video.list: the post analytics read (video query counts). */
export const TIKTOK_SCOPES = ['user.info.basic', 'video.publish', 'video.upload', 'video.list'] as const;

export interface TikTokOptions {
  /** Origin of the Content Posting API, the user info API and the token endpoint (/v2/oauth/token/). */
  apiBase?: string;
  /** Origin of the authorize page (/v2/auth/authorize/). TikTok serves it on www.tiktok.com, apart from the API. */
  authBase?: string;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, accept: 'application/json' });
/** TikTok asks for JSON bodies as `application/json; charset=UTF-8`. */
export const tiktokJson = (body: unknown, token: string): RequestInit =>
  jsonInit('POST', body, { ...bearer(token), 'content-type': 'application/json; charset=UTF-8' });

export interface CreatorInfo {
  username?: string;
  nickname?: string;
  privacyOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
}

/** POST /v2/post/publish/creator_info/query/ (required before a Direct Post). */
export async function creatorInfo(ctx: NetworkContext, api: string, token: string): Promise<CreatorInfo | Failure> {
  const res = await request(ctx, `${api}/v2/post/publish/creator_info/query/`, {
    method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json; charset=UTF-8' },
  });
  if (!succeeded(res)) return tiktokFailure(res, 'creator info', ctx.now());
  const data = field(res.json, 'data');
  const options = field(data, 'privacy_level_options');
  return {
    username: str(field(data, 'creator_username')),
    nickname: str(field(data, 'creator_nickname')),
    privacyOptions: Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : [],
    commentDisabled: field(data, 'comment_disabled') === true,
    duetDisabled: field(data, 'duet_disabled') === true,
    stitchDisabled: field(data, 'stitch_disabled') === true,
  };
}

export interface TikTokUser { open_id: string; display_name?: string }

/** GET /v2/user/info/ with the fields user.info.basic grants. */
export async function userInfo(ctx: NetworkContext, api: string, token: string): Promise<TikTokUser | Failure> {
  const res = await request(ctx, `${api}/v2/user/info/?fields=open_id,union_id,avatar_url,display_name`, { headers: bearer(token) });
  if (!succeeded(res)) return tiktokFailure(res, 'user info', ctx.now());
  const user = field(field(res.json, 'data'), 'user');
  const openId = idString(field(user, 'open_id'));
  if (!openId) return { ok: false, kind: 'transient', error: 'tiktok user info answered without an open_id' };
  return { open_id: openId, display_name: str(field(user, 'display_name')) };
}

/**
 * TikTok Login Kit (OAuth v2) for a web app with a server-side secret.
 * Authorize: `{authBase}/v2/auth/authorize/?client_key&scope=<comma-separated>&response_type=code&redirect_uri&state`.
 * PKCE: TikTok requires it for desktop and mobile apps only (and wants a hex SHA-256 challenge there); web apps
 * authenticate with the client secret, so `pkce` is false. A challenge given anyway is passed on (S256).
 * Token: `POST {apiBase}/v2/oauth/token/` (form) with client_key + client_secret in the body; the answer carries
 * open_id, expires_in (24 h classically) and refresh_expires_in (365 d). A refresh answer's refresh token replaces the
 * old one when it differs (TikTok may rotate it). invalid_grant → reauth.
 * accounts(): the user (GET /v2/user/info/) plus the creator's @username from creator_info (best effort).
 */
export function createTikTokProvider({ apiBase = TIKTOK_API_BASE, authBase = TIKTOK_AUTH_BASE }: TikTokOptions = {}): OAuthProvider {
  const api = trimBase(apiBase);
  const auth = trimBase(authBase);

  async function token(ctx: NetworkContext, params: Record<string, string | undefined>, what: string, previous?: TokenSet): Promise<TokenSet | Failure> {
    const res: HttpResult = await request(ctx, `${api}/v2/oauth/token/`, formInit('POST', params, { 'cache-control': 'no-cache' }));
    const tokens = res.status === 200 ? tokenSetFrom(res.json, ctx.now(), previous) : undefined;
    if (!tokens) return tokenFailure(res.status === 200 ? { ...res, status: 400 } : res, 'tiktok', what, 'TIKTOK');
    const refreshIn = num(field(res.json, 'refresh_expires_in'));
    if (refreshIn !== undefined && refreshIn > 0) tokens.refresh_expires_at = ctx.now() + refreshIn * 1000;
    return tokens;
  }

  async function accounts(tokens: TokenSet, ctx: NetworkContext): Promise<OAuthAccount[] | Failure> {
    const user = await userInfo(ctx, api, tokens.access_token);
    if ('ok' in user) return user;
    const creator = await creatorInfo(ctx, api, tokens.access_token).catch(() => undefined);
    const username = creator && !('ok' in creator) ? creator.username : undefined;
    const credentials: Record<string, string> = { open_id: user.open_id };
    if (username) credentials.username = username;
    if (user.display_name) credentials.display_name = user.display_name;
    return [{ id: user.open_id, handle: username ? `@${username}` : user.display_name ?? user.open_id, credentials }];
  }

  return {
    name: 'tiktok',
    pkce: false,
    authorizeUrl: async ({ app, state, codeChallenge }) => urlWithQuery(auth, '/v2/auth/authorize/', {
      client_key: app.clientId, scope: TIKTOK_SCOPES.join(','), response_type: 'code', redirect_uri: app.redirectUri, state,
      code_challenge: codeChallenge, code_challenge_method: codeChallenge ? 'S256' : undefined,
    }),
    exchangeCode: ({ app, code, codeVerifier }, ctx) => guarded(() => token(ctx, {
      client_key: app.clientId, client_secret: app.clientSecret, code, grant_type: 'authorization_code', redirect_uri: app.redirectUri, code_verifier: codeVerifier,
    }, 'code exchange')),
    refresh: (tokens: TokenSet, app: OAuthApp, ctx) => guarded(async () => {
      if (!tokens.refresh_token) return { ok: false, kind: 'reauth', error: 'tiktok tokens have no refresh token; sign in to tiktok again' };
      return token(ctx, { client_key: app.clientId, client_secret: app.clientSecret, grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, 'token refresh', tokens);
    }),
    accounts: (tokens, ctx) => guarded(() => accounts(tokens, ctx)),
  };
}

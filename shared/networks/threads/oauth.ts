import type { OAuthAccount, OAuthProvider, TokenSet } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { guarded, rejected, request, type HttpResult } from '../http';
import { field, formInit, idString, str, tokenSetFrom, urlWithQuery } from '../oauth-tokens';
import { graphFailure, type GraphError } from '../facebook/graph';
import { trimBase } from '../../domain/values';

export const THREADS_API_BASE = 'https://graph.threads.net';
export const THREADS_AUTH_BASE = 'https://threads.net';
/** One pinned version of the Threads Graph API for every call. */
export const THREADS_VERSION = 'v1.0';
/** threads_manage_replies: the reply that carries a first comment and `reply_to` posts. */
export const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_manage_insights'] as const;

export interface ThreadsOptions {
  /** Origin of the Threads Graph API (also serves /oauth/access_token, /access_token, /refresh_access_token). */
  apiBase?: string;
  /** Origin of the authorization window (/oauth/authorize). */
  authBase?: string;
}

export const threadsUrl = (base: string, path: string, params: Record<string, string | undefined> = {}) =>
  urlWithQuery(base, `/${THREADS_VERSION}${path}`, params);

export function threadsGet(ctx: NetworkContext, base: string, path: string, token: string, params: Record<string, string> = {}): Promise<HttpResult> {
  return request(ctx, threadsUrl(base, path, { ...params, access_token: token }), { headers: { accept: 'application/json' } });
}

export function threadsPost(ctx: NetworkContext, base: string, path: string, token: string, params: Record<string, string | undefined>): Promise<HttpResult> {
  return request(ctx, `${trimBase(base)}/${THREADS_VERSION}${path}`, formInit('POST', { ...params, access_token: token }));
}

const loginRefine = (e: GraphError, message: string): Failure | undefined => {
  if (/client secret|client_id|app(lication)? id|invalid client/i.test(e.message) || e.code === 101) {
    return rejected(`${message}; check THREADS_CLIENT_ID / THREADS_CLIENT_SECRET (the Threads app id and secret, not the Meta app's)`);
  }
  if (e.code === 190 || /authorization code|expired|session/i.test(e.message)) return { ok: false, kind: 'reauth', error: `${message}; sign in to threads again` };
  return undefined;
};

/**
 * Threads sign-in (Threads use case of a Meta app): the authorization window `{authBase}/oauth/authorize` with the
 * scopes comma-separated; the code → a short-lived token (`POST {apiBase}/oauth/access_token`, form with client id
 * and secret) → a long-lived one (`GET /access_token?grant_type=th_exchange_token&client_secret&access_token`,
 * 60 days). A long-lived token renews itself (`GET /refresh_access_token?grant_type=th_refresh_token&access_token`,
 * once it is a day old and not yet expired): Threads has no separate refresh token, so the provider keeps the
 * long-lived token as its own `refresh_token`, which the service's renewal then hands back to `refresh`.
 * accounts(): the signed-in profile only (`GET /me?fields=id,username`), credentials {threads_user_id, username}.
 */
export function createThreadsProvider(opts: ThreadsOptions = {}): OAuthProvider {
  const api = trimBase(opts.apiBase ?? THREADS_API_BASE);
  const auth = trimBase(opts.authBase ?? THREADS_AUTH_BASE);

  const longLived = (json: unknown, now: number): TokenSet | undefined => {
    const tokens = tokenSetFrom(json, now);
    if (tokens) tokens.refresh_token = tokens.access_token;
    return tokens;
  };

  async function exchange(ctx: NetworkContext, app: { clientId: string; clientSecret: string; redirectUri: string }, code: string): Promise<TokenSet | Failure> {
    const short = await request(ctx, `${api}/oauth/access_token`, formInit('POST', {
      client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', redirect_uri: app.redirectUri, code,
    }));
    if (short.status !== 200) return graphFailure(short, 'threads code exchange', ctx.now(), loginRefine);
    const shortToken = str(field(short.json, 'access_token'));
    if (!shortToken) return { ok: false, kind: 'transient', error: 'threads code exchange answered without an access_token' };
    const long = await request(ctx, urlWithQuery(api, '/access_token', { grant_type: 'th_exchange_token', client_secret: app.clientSecret, access_token: shortToken }), { headers: { accept: 'application/json' } });
    if (long.status !== 200) return graphFailure(long, 'threads long-lived token exchange', ctx.now(), loginRefine);
    return longLived(long.json, ctx.now()) ?? { ok: false, kind: 'transient', error: 'threads long-lived token exchange answered without an access_token' };
  }

  async function refresh(tokens: TokenSet, ctx: NetworkContext): Promise<TokenSet | Failure> {
    const current = tokens.refresh_token ?? tokens.access_token;
    const res = await request(ctx, urlWithQuery(api, '/refresh_access_token', { grant_type: 'th_refresh_token', access_token: current }), { headers: { accept: 'application/json' } });
    if (res.status !== 200) return graphFailure(res, 'threads token refresh', ctx.now(), loginRefine);
    return longLived(res.json, ctx.now()) ?? { ok: false, kind: 'transient', error: 'threads token refresh answered without an access_token' };
  }

  async function accounts(tokens: TokenSet, ctx: NetworkContext): Promise<OAuthAccount[] | Failure> {
    const res = await threadsGet(ctx, api, '/me', tokens.access_token, { fields: 'id,username' });
    if (res.status !== 200) return graphFailure(res, 'threads profile lookup', ctx.now());
    const id = idString(field(res.json, 'id'));
    if (!id) return { ok: false, kind: 'transient', error: 'threads profile lookup answered without an id' };
    const username = str(field(res.json, 'username'));
    return [{ id, handle: username ? `@${username}` : id, credentials: { threads_user_id: id, ...(username ? { username } : {}) } }];
  }

  return {
    name: 'threads',
    pkce: false,
    authorizeUrl: async ({ app, state }) => urlWithQuery(auth, '/oauth/authorize', {
      client_id: app.clientId, redirect_uri: app.redirectUri, scope: THREADS_SCOPES.join(','), response_type: 'code', state,
    }),
    exchangeCode: ({ app, code }, ctx) => guarded(() => exchange(ctx, app, code)),
    refresh: (tokens, _app, ctx) => guarded(() => refresh(tokens, ctx)),
    accounts: (tokens, ctx) => guarded(() => accounts(tokens, ctx)),
  };
}

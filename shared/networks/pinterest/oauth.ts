import type { OAuthAccount, OAuthProvider, TokenSet } from '../../ports/oauth';
import type { Failure, NetworkContext } from '../../ports/networks';
import { classifyStatus, guarded, request, type HttpResult } from '../http';
import { basicAuth, field, formInit, str, tokenFailure, tokenSetFrom, urlWithQuery } from '../oauth-tokens';
import { trimBase } from '../../domain/values';

export const PINTEREST_API_BASE = 'https://api.pinterest.com';
export const PINTEREST_AUTH_BASE = 'https://www.pinterest.com';
export const PINTEREST_SCOPES = ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'] as const;
/** Boards read at connect (pages of 100 through `bookmark`). */
const MAX_BOARD_PAGES = 5;

export interface PinterestOptions {
  /** Origin of API v5 (also serves /v5/oauth/token). */
  apiBase?: string;
  /** Origin of the authorize page (/oauth/). */
  authBase?: string;
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

/**
 * Sorts a failed API v5 answer (`{code, message}`): 401 → reauth; 403 → reauth naming the missing scope; 429 →
 * rate_limited (Retry-After, else 60 s); 404 on a board → rejected naming per_platform.pinterest.board_id; other
 * 4xx → rejected with Pinterest's message; 5xx → transient.
 */
export function pinterestFailure(res: HttpResult, what: string): Failure {
  const text = str(field(res.json, 'message')) ?? (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
  const code = field(res.json, 'code');
  const message = `pinterest ${what} failed (HTTP ${res.status}${code !== undefined ? `, code ${String(code)}` : ''})${text ? `: ${text.slice(0, 300)}` : ''}`;
  if (res.status === 401) return { ok: false, kind: 'reauth', error: `${message}; sign in to pinterest again` };
  if (res.status === 403) return { ok: false, kind: 'reauth', error: `${message}; connect again and grant ${PINTEREST_SCOPES.join(', ')}` };
  if (res.status === 404 && /board/i.test(`${what} ${text}`)) {
    return { ok: false, kind: 'rejected', code: 'rejected', error: `${message}; the board does not exist or is not yours: send another per_platform.pinterest.board_id or reconnect to choose a default board` };
  }
  return classifyStatus(res, message);
}

export interface Board { id: string; name: string }

/** `GET /v5/boards?page_size=100` following `bookmark`: the boards the user can pin to. */
export async function listBoards(ctx: NetworkContext, api: string, token: string): Promise<Board[] | Failure> {
  const boards: Board[] = [];
  let bookmark: string | undefined;
  for (let page = 0; page < MAX_BOARD_PAGES; page++) {
    const res = await request(ctx, urlWithQuery(api, '/v5/boards', { page_size: '100', bookmark }), { headers: bearer(token) });
    if (res.status !== 200) return pinterestFailure(res, 'board list');
    const items = field(res.json, 'items');
    for (const b of Array.isArray(items) ? items : []) {
      const id = str(field(b, 'id'));
      if (id) boards.push({ id, name: str(field(b, 'name')) ?? id });
    }
    bookmark = str(field(res.json, 'bookmark'));
    if (!bookmark) break;
  }
  return boards;
}

/**
 * Pinterest sign-in: authorize at `{authBase}/oauth/` (scopes comma-separated); code and refresh at
 * `POST {apiBase}/v5/oauth/token` (form, client id and secret as HTTP Basic). Access tokens live 30 days, refresh
 * tokens a year; a refresh answer without a refresh token keeps the old one.
 * accounts(): one per board (`GET /v5/user_account`, `GET /v5/boards`): the board picked at connect is the
 * connection's default board {username, board_id, board_name}; a post may name another (per_platform.pinterest.board_id).
 */
export function createPinterestProvider(opts: PinterestOptions = {}): OAuthProvider {
  const api = trimBase(opts.apiBase ?? PINTEREST_API_BASE);
  const auth = trimBase(opts.authBase ?? PINTEREST_AUTH_BASE);

  async function token(ctx: NetworkContext, app: { clientId: string; clientSecret: string }, params: Record<string, string>, what: string, previous?: TokenSet): Promise<TokenSet | Failure> {
    const res = await request(ctx, `${api}/v5/oauth/token`, formInit('POST', params, { authorization: basicAuth(app.clientId, app.clientSecret) }));
    const tokens = res.status === 200 ? tokenSetFrom(res.json, ctx.now(), previous) : undefined;
    return tokens ?? tokenFailure(res.status === 200 ? { ...res, status: 400 } : res, 'pinterest', what, 'PINTEREST');
  }

  async function accounts(tokens: TokenSet, ctx: NetworkContext): Promise<OAuthAccount[] | Failure> {
    const me = await request(ctx, `${api}/v5/user_account`, { headers: bearer(tokens.access_token) });
    if (me.status !== 200) return pinterestFailure(me, 'profile lookup');
    const username = str(field(me.json, 'username')) ?? 'pinterest';
    const boards = await listBoards(ctx, api, tokens.access_token);
    if (!Array.isArray(boards)) return boards;
    if (boards.length === 0) return { ok: false, kind: 'rejected', code: 'rejected', error: 'pinterest: this account has no board to pin to; create a board on pinterest.com, then connect again' };
    return boards.map((b) => ({ id: b.id, handle: `@${username} · ${b.name}`, credentials: { username, board_id: b.id, board_name: b.name } }));
  }

  return {
    name: 'pinterest',
    pkce: false,
    authorizeUrl: async ({ app, state }) => urlWithQuery(auth, '/oauth/', {
      client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', scope: PINTEREST_SCOPES.join(','), state,
    }),
    exchangeCode: ({ app, code }, ctx) => guarded(() => token(ctx, app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri }, 'code exchange')),
    refresh: (tokens, app, ctx) => guarded(async () => {
      if (!tokens.refresh_token) return { ok: false, kind: 'reauth', error: 'pinterest tokens have no refresh token; sign in to pinterest again' };
      return token(ctx, app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, 'token refresh', tokens);
    }),
    accounts: (tokens, ctx) => guarded(() => accounts(tokens, ctx)),
  };
}

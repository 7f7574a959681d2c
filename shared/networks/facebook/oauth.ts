import type { OAuthAccount, OAuthProvider } from '../../ports/oauth';
import type { Failure } from '../../ports/networks';
import { guarded } from '../http';
import { field, idString, str } from '../oauth-tokens';
import { FACEBOOK_API_BASE, FACEBOOK_AUTH_BASE, dialogUrl, exchangeFacebookCode, listPages, type GraphOptions } from './graph';
import { trimBase } from '../../domain/values';

export const FACEBOOK_SCOPES = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video', 'pages_manage_engagement', 'read_insights'] as const;

export interface FacebookOptions extends GraphOptions {
  /**
   * Origin for video uploads (`POST /<version>/<page>/videos`). Defaults to apiBase: Meta deprecated the
   * graph-video.facebook.com host and now documents graph.facebook.com for uploads.
   */
  videoBase?: string;
}

/** Tasks that allow posting as the page; a page listed without any of them is not offered. */
const POSTING_TASKS = new Set(['CREATE_CONTENT', 'MANAGE']);

/**
 * Facebook Login for Pages (no PKCE, no refresh): dialog `https://www.facebook.com/<v>/dialog/oauth` with
 * `pages_show_list, pages_read_engagement, pages_manage_posts, publish_video, pages_manage_engagement` (comments); code → short-lived → long-lived user
 * token (graph.ts). accounts(): `GET /me/accounts?fields=id,name,access_token,tasks` → one account per Page the user
 * can post to, credentials {page_id, page_name, page_access_token}; the user picks one. Page tokens from a
 * long-lived user token do not expire, so `refresh` is absent.
 */
export function createFacebookProvider(opts: FacebookOptions = {}): OAuthProvider {
  const apiBase = trimBase(opts.apiBase ?? FACEBOOK_API_BASE);
  const authBase = trimBase(opts.authBase ?? FACEBOOK_AUTH_BASE);
  return {
    name: 'facebook',
    pkce: false,
    authorizeUrl: async ({ app, state }) => dialogUrl(authBase, app, state, FACEBOOK_SCOPES),
    exchangeCode: ({ app, code }, ctx) => guarded(() => exchangeFacebookCode(ctx, apiBase, app, code, 'facebook')),
    accounts: (tokens, ctx) => guarded(async (): Promise<OAuthAccount[] | Failure> => {
      const pages = await listPages(ctx, apiBase, tokens.access_token, 'id,name,access_token,tasks', 'facebook page list');
      if (!Array.isArray(pages)) return pages;
      const accounts: OAuthAccount[] = [];
      for (const page of pages) {
        const id = idString(field(page, 'id'));
        const token = str(field(page, 'access_token'));
        const tasks = field(page, 'tasks');
        if (!id || !token) continue;
        if (Array.isArray(tasks) && !tasks.some((t) => typeof t === 'string' && POSTING_TASKS.has(t))) continue;
        const name = str(field(page, 'name')) ?? id;
        accounts.push({ id, handle: name, credentials: { page_id: id, page_name: name, page_access_token: token } });
      }
      return accounts;
    }),
  };
}

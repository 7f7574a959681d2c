import type { OAuthAccount, OAuthProvider } from '../../ports/oauth';
import type { Failure } from '../../ports/networks';
import { guarded } from '../http';
import { field, idString, str } from '../oauth-tokens';
import { FACEBOOK_API_BASE, FACEBOOK_AUTH_BASE, dialogUrl, exchangeFacebookCode, listPages, type GraphOptions } from '../facebook/graph';
import { trimBase } from '../../domain/values';

export const INSTAGRAM_SCOPES = ['instagram_basic', 'instagram_content_publish', 'pages_show_list', 'pages_read_engagement', 'business_management', 'instagram_manage_comments', 'instagram_manage_insights'] as const;

export interface InstagramOptions extends GraphOptions {
  /** Wait between container status polls inside one call. Default 2000 ms. */
  pollIntervalMs?: number;
  /** Time kept before the deadline for media_publish and the permalink read. Default 5000 ms. */
  reserveMs?: number;
  /** When a container is still IN_PROGRESS at the deadline: ask to be resumed after this many seconds. Default 20. */
  resumeAfterSeconds?: number;
}

/**
 * Instagram with Facebook Login (same Meta app and Graph base as Facebook, FACEBOOK_API_BASE): dialog scopes
 * `instagram_basic, instagram_content_publish, pages_show_list, pages_read_engagement, business_management`;
 * code → long-lived user token as for Facebook (no expiry kept, no refresh). accounts():
 * `GET /me/accounts?fields=id,name,access_token,instagram_business_account{id,username}` → one account per Page with a
 * linked Instagram professional account, credentials {ig_user_id, username, page_id, page_access_token}.
 * Publishing uses the Page token (it does not expire); the user token is the fallback when no Page token is stored.
 */
export function createInstagramProvider(opts: InstagramOptions = {}): OAuthProvider {
  const apiBase = trimBase(opts.apiBase ?? FACEBOOK_API_BASE);
  const authBase = trimBase(opts.authBase ?? FACEBOOK_AUTH_BASE);
  return {
    name: 'instagram',
    pkce: false,
    authorizeUrl: async ({ app, state }) => dialogUrl(authBase, app, state, INSTAGRAM_SCOPES),
    exchangeCode: ({ app, code }, ctx) => guarded(() => exchangeFacebookCode(ctx, apiBase, app, code, 'instagram')),
    accounts: (tokens, ctx) => guarded(async (): Promise<OAuthAccount[] | Failure> => {
      const pages = await listPages(ctx, apiBase, tokens.access_token, 'id,name,access_token,instagram_business_account{id,username}', 'instagram account list');
      if (!Array.isArray(pages)) return pages;
      const accounts: OAuthAccount[] = [];
      for (const page of pages) {
        const ig = field(page, 'instagram_business_account');
        const igId = idString(field(ig, 'id'));
        const pageId = idString(field(page, 'id'));
        if (!igId || !pageId) continue;
        const username = str(field(ig, 'username'));
        const credentials: Record<string, string> = { ig_user_id: igId, page_id: pageId };
        if (username) credentials.username = username;
        const pageToken = str(field(page, 'access_token'));
        if (pageToken) credentials.page_access_token = pageToken;
        accounts.push({ id: igId, handle: username ? `@${username}` : (str(field(page, 'name')) ?? igId), credentials });
      }
      return accounts;
    }),
  };
}

import type { Deps } from '../deps';
import { randomToken } from '../../domain/ids';

/**
 * Binding a sign-in to the browser that started it. Each sign-in gets a random nonce: its SHA-256
 * is stored with the state, and the nonce itself goes to the browser in a short-lived HttpOnly cookie set by this
 * service just before the browser leaves for the network (the connect page's button, or GET
 * /api/oauth/{platform}/callback?start=… for a URL from POST /api/oauth/{platform}/url). The callback refuses a state whose
 * nonce the browser does not hold, so a code obtained in one browser cannot be replayed with a state from another.
 */

/** The cookie holding a sign-in's nonce, one per network (a second sign-in to the same network replaces it). */
export const browserCookieName = (platform: string) => `svc_oauth_${platform}`;

/** A new nonce for a sign-in. */
export const newBrowserNonce = () => randomToken();

/** Set-Cookie for the nonce: HttpOnly, SameSite=Lax (sent on the network's top-level redirect back), 15 minutes. */
export function browserCookie(deps: Pick<Deps, 'settings'>, platform: string, nonce: string, maxAgeSec = 900): string {
  const secure = deps.settings.publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  return `${browserCookieName(platform)}=${nonce}; Path=/api/oauth/; Max-Age=${maxAgeSec}; HttpOnly; SameSite=Lax${secure}`;
}

/** Set-Cookie that removes the nonce once the callback used it. */
export const clearBrowserCookie = (deps: Pick<Deps, 'settings'>, platform: string) => browserCookie(deps, platform, '', 0);

/** The nonce cookie of `platform` from an API Gateway v2 `cookies` list or a Cookie header. */
export function browserNonceOf(platform: string, cookies: readonly string[] | undefined, header: string | undefined): string | undefined {
  const name = browserCookieName(platform);
  const all = [...(cookies ?? []), ...(header ? header.split(/;\s*/) : [])];
  for (const c of all) {
    const at = c.indexOf('=');
    if (at > 0 && c.slice(0, at).trim() === name) return c.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

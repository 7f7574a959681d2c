import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ForbiddenError } from '../domain/errors';

/**
 * Hosted forms (connect page, OAuth picker, upload page) accept posts only from this service's own pages:
 * 1. `Origin`, when the browser sends a real one, must be the service's origin (the pages' no-referrer policy makes
 *    browsers send `Origin: null` for their own forms, which says nothing), and `Sec-Fetch-Site`, when sent, must be
 *    same-origin (or none: typed by the person). Anything else is 403 `cross_site_form`.
 * 2. The connect page's forms also carry a per-page token (`form_token`) that must equal the `svc_form` cookie the
 *    page set (HttpOnly, SameSite=Strict, scoped to /connect/): another site can neither read it nor make the
 *    browser send it, so it cannot post the page's forms on someone's behalf (403 `form_token_invalid`). The upload
 *    page does the same for its two requests: the token in the `X-Form-Token` header, the cookie scoped to its
 *    link's /api/media/upload-link/{token}/ path.
 */
export const FORM_COOKIE = 'svc_form';
/** The header the upload page's script sends its per-page token in. */
export const FORM_TOKEN_HEADER = 'x-form-token';

type Headers = Record<string, string | undefined>;

export function assertSameOrigin(headers: Headers, publicBaseUrl: string): void {
  const own = new URL(publicBaseUrl).origin;
  const origin = headers.origin;
  const site = headers['sec-fetch-site'];
  if ((origin !== undefined && origin !== 'null' && origin !== own) || (site !== undefined && site !== 'same-origin' && site !== 'none')) {
    throw new ForbiddenError('This form can only be sent from its own page on this service', { code: 'cross_site_form' });
  }
}

/** A fresh per-page token and the Set-Cookie that holds it for the page's forms (sent only to `path`). */
export function newFormToken(publicBaseUrl: string, path = '/connect/'): { token: string; cookie: string } {
  const token = randomBytes(24).toString('base64url');
  const secure = publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  return { token, cookie: `${FORM_COOKIE}=${token}; Path=${path}; Max-Age=3600; HttpOnly; SameSite=Strict${secure}` };
}

/** The page token of the request's cookies (API Gateway v2 `cookies`, or a Cookie header). */
export function formCookie(cookies: readonly string[] | undefined, header: string | undefined): string | undefined {
  for (const c of [...(cookies ?? []), ...(header ? header.split(/;\s*/) : [])]) {
    const at = c.indexOf('=');
    if (at > 0 && c.slice(0, at).trim() === FORM_COOKIE) return c.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * Browsers always send `Origin` or `Sec-Fetch-Site` with a form post, and only a browser can be made to post on
 * someone's behalf: a request with neither (curl, a script) is not checked for the page token.
 */
export function assertFormToken(sent: string | undefined, cookie: string | undefined, headers: Headers): void {
  if (headers.origin === undefined && headers['sec-fetch-site'] === undefined) return;
  const ok = !!sent && !!cookie && sent.length === cookie.length && timingSafeEqual(Buffer.from(sent), Buffer.from(cookie));
  if (!ok) throw new ForbiddenError('This form is out of date or was not sent from its page: reload the page and try again', { code: 'form_token_invalid' });
}

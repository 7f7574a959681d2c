import { timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { SESSION_TTL_SECONDS } from '../app/dashboard/sign-in';

/**
 * The dashboard session cookie: an opaque id, HttpOnly, SameSite=Lax, 7 days; over https it is
 * `__Host-session` with Secure (bound to the exact host, path /), over plain http (local runtime) `session`.
 */
export const SESSION_COOKIE_SECURE = '__Host-session';
export const SESSION_COOKIE_PLAIN = 'session';

export const isHttps = (publicBaseUrl: string) => publicBaseUrl.startsWith('https://');
export const sessionCookieName = (publicBaseUrl: string) => (isHttps(publicBaseUrl) ? SESSION_COOKIE_SECURE : SESSION_COOKIE_PLAIN);

/** Set-Cookie value that starts the session. */
export function sessionCookie(publicBaseUrl: string, sessionId: string, maxAgeSeconds = SESSION_TTL_SECONDS): string {
  return `${sessionCookieName(publicBaseUrl)}=${sessionId}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${isHttps(publicBaseUrl) ? '; Secure' : ''}`;
}

/** Set-Cookie value that removes the session cookie (sign-out). */
export function clearedSessionCookie(publicBaseUrl: string): string {
  return `${sessionCookieName(publicBaseUrl)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${isHttps(publicBaseUrl) ? '; Secure' : ''}`;
}

/** A cookie's value from an API Gateway v2 event (cookies[] or, failing that, the Cookie header). */
export function readCookie(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const all = event.cookies ?? (event.headers?.cookie ? event.headers.cookie.split(/;\s*/) : []);
  for (const c of all) {
    const i = c.indexOf('=');
    if (i > 0 && c.slice(0, i).trim() === name) return c.slice(i + 1).trim() || undefined;
  }
  return undefined;
}

/** The CSRF token a state-changing request presents: header x-csrf-token, or form field `csrf`. */
export function presentedCsrf(event: APIGatewayProxyEventV2): string | undefined {
  const header = event.headers?.['x-csrf-token'];
  if (header) return header;
  const type = (event.headers?.['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' || !event.body) return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  return new URLSearchParams(raw).get('csrf') ?? undefined;
}

export function csrfMatches(presented: string | undefined, expected: string): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

import { config } from '../config';

/**
 * The browser origins the MCP endpoint and the OAuth endpoints accept (Origin allow-list, MCP spec 2025-11-25
 * "Streamable HTTP" security warning): PUBLIC_BASE_URL's origin (the dashboard), MCP_ALLOWED_ORIGINS, and in the
 * local runtime any loopback origin (the machine's own browser tools, e.g. the MCP Inspector on localhost:6274). A
 * request without Origin (an SDK, curl, a server-side client) is not a browser request and is not refused here.
 * A page on another site (DNS rebinding included: its Origin names that site) is refused with 403.
 */
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

let cached: { key: string; set: Set<string>; local: boolean } | undefined;
function allowList(): { set: Set<string>; local: boolean } {
  const cfg = config();
  const key = `${cfg.PUBLIC_BASE_URL}|${cfg.MCP_ALLOWED_ORIGINS}|${cfg.RUNTIME}`;
  if (cached?.key !== key) {
    const set = new Set<string>();
    for (const raw of [cfg.PUBLIC_BASE_URL, ...cfg.MCP_ALLOWED_ORIGINS.split(',')]) {
      const v = raw.trim();
      if (!v) continue;
      try { set.add(new URL(v).origin.toLowerCase()); } catch { /* not a URL: config() already refuses PUBLIC_BASE_URL; others are skipped */ }
    }
    cached = { key, set, local: cfg.RUNTIME === 'local' };
  }
  return cached;
}

/** Whether this Origin header value may call; undefined (no Origin) is allowed. */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined || origin === '') return true;
  const { set, local } = allowList();
  const o = origin.trim().toLowerCase();
  return set.has(o) || (local && LOOPBACK_ORIGIN.test(o));
}

/** The request's Origin header (API Gateway v2 lower-cases header names). */
export const originOf = (headers: Record<string, string | undefined> | undefined): string | undefined => headers?.origin;

export const CORS_METHODS = 'GET, POST, DELETE, OPTIONS';
const ALLOW_HEADERS = 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id, mcp-method, mcp-name';
const EXPOSE_HEADERS = 'www-authenticate, mcp-session-id, mcp-protocol-version, retry-after';

/**
 * CORS headers for an allow-listed browser Origin (none for a request without Origin). Credentials are bearer
 * tokens in Authorization, never cookies, so no Access-Control-Allow-Credentials.
 */
export function corsHeaders(origin: string | undefined, methods = CORS_METHODS): Record<string, string> {
  if (!origin || !originAllowed(origin)) return {};
  return {
    'access-control-allow-origin': origin, vary: 'Origin',
    'access-control-allow-methods': methods, 'access-control-allow-headers': ALLOW_HEADERS,
    'access-control-expose-headers': EXPOSE_HEADERS, 'access-control-max-age': '600',
  };
}

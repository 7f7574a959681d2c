/**
 * The parameters of an OAuth form post (application/x-www-form-urlencoded, or a JSON object of strings). A
 * parameter sent twice is refused, as RFC 6749 §3.2 requires.
 */
import { OAuthProtocolError } from '../app/mcp-oauth/authorization-server';

export function oauthForm(req: { rawBody?: string; body?: unknown }): Record<string, string> {
  const out: Record<string, string> = {};
  const pairs = req.rawBody !== undefined ? [...new URLSearchParams(req.rawBody)] : Object.entries((req.body ?? {}) as Record<string, string>);
  for (const [k, v] of pairs) {
    if (k in out) throw new OAuthProtocolError(400, 'invalid_request', `${k} is sent more than once`);
    out[k] = v;
  }
  return out;
}

import type { RouteDef } from '../route';
import { corsHeaders, originAllowed, originOf } from '../origins';
import { JSON_HEADERS } from '../reply';
import type { Mw, Req } from './request-state';

/**
 * Browser clients on the MCP and OAuth routes (route.browserCors): a foreign Origin is refused with 403 before
 * anything runs (DNS rebinding, cross-site calls), OPTIONS is the CORS preflight (204), and every answer to an
 * allow-listed Origin, errors included, carries the CORS headers.
 */
export function browserCors(route: Pick<RouteDef, 'browserCors'>): Mw {
  const add = (req: Req) => {
    const cors = corsHeaders(originOf(req.event.headers));
    if (req.response && Object.keys(cors).length) req.response = { ...req.response, headers: { ...req.response.headers, ...cors } };
  };
  return {
    before: (req: Req) => {
      if (!route.browserCors) return;
      const origin = originOf(req.event.headers);
      if (!originAllowed(origin)) {
        return { statusCode: 403, headers: JSON_HEADERS, body: JSON.stringify({ error: `Origin ${origin} is not allowed: browser clients must be served from an allow-listed origin (MCP_ALLOWED_ORIGINS)`, code: 'origin_not_allowed' }) };
      }
      if (req.event.requestContext?.http?.method === 'OPTIONS') return { statusCode: 204, headers: { 'cache-control': 'no-store', ...corsHeaders(origin) }, body: '' };
      return undefined;
    },
    after: (req: Req) => { if (route.browserCors) add(req); },
    onError: (req: Req) => { if (route.browserCors) add(req); },
  };
}

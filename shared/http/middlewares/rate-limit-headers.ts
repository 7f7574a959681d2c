import { stateOf, type Mw, type Req } from './request-state';

/**
 * The IETF RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers) of the limits the request
 * was counted against (the key's per-minute rate, and the route's own per-account limit), on every answer
 * (429 included, which keeps Retry-After). Registered first, so it runs after the error handler built the answer.
 */
export function rateLimitHeaders(): Mw {
  const write = (req: Req) => {
    const rates = stateOf(req.context)?.rates;
    if (!rates?.length || !req.response) return;
    req.response.headers = {
      ...req.response.headers,
      'RateLimit-Policy': rates.map((r) => `"${r.name}";q=${r.rule.limit};w=${r.rule.windowSeconds}`).join(', '),
      RateLimit: rates.map((r) => `"${r.name}";r=${r.remaining};t=${r.reset}`).join(', '),
    };
  };
  return { after: write, onError: write };
}

import { routeList } from '../../functions/routes';
import { ErrorBody } from '../../shared/api/schemas';
import { middlewareResponses } from '../../shared/http/openapi';
import type { ResponseDef, RouteDef } from '../../shared/http/route';

const templates = routeList.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The route of the table that answers `method path` (a literal path before a templated one), if any. */
export function routeFor(method: string, path: string): RouteDef | undefined {
  const pathname = path.split('?')[0];
  const hits = templates.filter((t) => (t.route.method === method || t.route.extraMethods?.includes(method as RouteDef['method'])) && t.pattern.test(pathname));
  return (hits.find((t) => !t.route.path.includes('{')) ?? hits[0])?.route;
}

/**
 * What an answer breaks in its route's declared responses (the ones the OpenAPI document is made from): a status the
 * route does not declare, or a JSON body its declared schema rejects. Undefined when it conforms, or when the path
 * is no route of the table (pages of the sandbox, /dev helpers, unknown paths answered 404 by the router).
 */
export function responseViolation(method: string, path: string, status: number, contentType: string | null, text: string): string | undefined {
  // OPTIONS on a browser route is the CORS preflight (204), not the route's answer: the document lists no OPTIONS
  const route = method === 'OPTIONS' ? undefined : routeFor(method, path);
  if (!route) return undefined;
  // the route's own answers, and those the shared middleware chain adds to it in the OpenAPI document
  const middleware = middlewareResponses(route);
  const declared: ResponseDef | undefined = route.responses[status] ?? (middleware[status] ? { description: '', schema: ErrorBody } : undefined);
  if (!declared) {
    const statuses = [...new Set([...Object.keys(route.responses), ...Object.keys(middleware)])].join(', ');
    return `${method} ${path} answered ${status}, which route ${route.id} does not declare (${statuses})`;
  }
  if (!declared.schema || !contentType?.includes('application/json') || method === 'HEAD') return undefined;
  let body: unknown;
  try { body = JSON.parse(text); } catch { return `${method} ${path} answered ${status} with JSON that does not parse`; }
  const parsed = declared.schema.safeParse(body);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
  return `${method} ${path} answered ${status} with a body route ${route.id} does not declare: ${issues}`;
}

const watchedOrigins = new Set<string>();

/**
 * Judges every answer of the runtime at `base` that this test file fetches, however it fetches it (the e2e client,
 * a raw `fetch` of an OAuth endpoint or a page's JSON action, the MCP SDK client): an answer its route does not
 * declare (responseViolation) makes that fetch throw. Other origins (loopback fakes, simulators) are not judged.
 */
export function watchResponses(base: string): void {
  const first = watchedOrigins.size === 0;
  const at = new URL(base);
  watchedOrigins.add(at.origin);
  // the runtime listens on loopback: localhost and 127.0.0.1 reach the same server
  if (at.hostname === 'localhost' || at.hostname === '127.0.0.1') for (const host of ['localhost', '127.0.0.1']) watchedOrigins.add(`${at.protocol}//${host}:${at.port}`);
  if (!first) return;
  const plainFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await plainFetch(input, init);
    // a followed redirect is judged where it ended (the 302 itself is the declared answer of the first route)
    const url = new URL(res.redirected ? res.url : input instanceof Request ? input.url : String(input));
    if (!watchedOrigins.has(url.origin)) return res;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const contentType = res.headers.get('content-type');
    // only a JSON body is judged: a page, a file or an event stream is not read here
    const text = contentType?.includes('application/json') && method !== 'HEAD' ? await res.clone().text() : '';
    const violation = responseViolation(method, url.pathname + url.search, res.status, contentType, text);
    if (violation) throw new Error(violation);
    return res;
  };
}

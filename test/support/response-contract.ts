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
  const route = routeFor(method, path);
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

import { corsHeaders, originAllowed, originOf } from './origins';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { RouteDef } from './route';
import type { Deps } from '../app/deps';
import type { Principal } from '../app/auth';
import { authenticate, requireScope } from '../app/auth';
import { requiredScope } from '../domain/api-key';
import { hit, perMinute, type RateRule, type WindowLeft } from '../app/rate-limit';
import { PLANS } from '../domain/plans';
import { AppError, BadRequestError, ForbiddenError, NotFoundError, PayloadTooLargeError, RateLimitedError, ServiceUnavailableError, UnsupportedMediaTypeError } from '../domain/errors';
import { isOutage, OUTAGE_RETRY_AFTER_SECONDS } from './outage';
import { clientIp } from './client-ip';
import { config } from '../config';
import { appendLogContext, errorFields, log } from '../log';
import { sessionPrincipal, type SessionPrincipal } from '../app/dashboard/sign-in';
import { csrfMatches, presentedCsrf, readCookie, sessionCookieName } from './session';
import { extraFields, isOpenObject, knownFieldsAt, prototypeKeys, unknownFieldError, unknownFieldsOf, type UnknownField } from '../app/unknown-fields';

/** Per-request state the middlewares fill in for the route function. */
export interface RequestState {
  deps: Deps;
  startedAt: number;
  ip: string;
  requestId: string;
  principal?: Principal;
  /** The signed-in dashboard owner (session routes). */
  session?: SessionPrincipal;
  body?: unknown;
  rawBody?: string;
  /** The body's exact bytes (routes with `rawBody`). */
  rawBytes?: Buffer;
  contentType?: string;
  query?: unknown;
  params?: unknown;
  /** The request limits this request was counted against (RateLimit-Policy / RateLimit headers), by policy name. */
  rates?: Array<{ name: string } & WindowLeft>;
}

export type HttpContext = Context & { state: RequestState };
type Req = Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;
type Mw = MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;

/** The state the first middleware attached to the Lambda context. */
export const stateOf = (context: Context): RequestState => (context as HttpContext).state;

export const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** Sets up the request state (deps, client IP, request id). */
export function requestState(getDeps: () => Deps): Mw {
  return {
    before: (req: Req) => {
      const e = req.event;
      const deps = getDeps();
      (req.context as HttpContext).state = {
        deps,
        startedAt: deps.clock.now(),
        ip: clientIp(e, config().EDGE_ORIGIN_SECRET),
        requestId: e.requestContext?.requestId ?? req.context.awsRequestId ?? 'local',
      };
    },
  };
}

/** One structured log line per request: route, status, duration (never headers or bodies). */
export function requestLog(route: RouteDef): Mw {
  const write = (req: Req) => {
    const s = stateOf(req.context);
    const status = req.response?.statusCode ?? 500;
    const fields = { route: route.id, method: route.method, status, duration_ms: s ? s.deps.clock.now() - s.startedAt : undefined, request_id: s?.requestId, account_id: (s?.principal ?? s?.session)?.account.id };
    if (status >= 500) log.error('request', fields); else log.info('request', fields);
  };
  return { after: write, onError: write };
}

/** 503 with Retry-After for a backing service that could not be reached or throttled; nothing was changed. */
function unavailable(code: string, what: string): ServiceUnavailableError {
  return new ServiceUnavailableError(`${what} is unavailable right now: nothing was changed; retry in a few seconds`, {
    code, details: { retry_after: OUTAGE_RETRY_AFTER_SECONDS }, headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
  });
}

/**
 * Exposes AppError messages as `{error, code, ...}` with their status; an outage of a backing service is 503
 * (`webhooks_unavailable` on webhook routes, `service_unavailable` elsewhere; the auth path answers
 * `auth_unavailable` itself); everything else is hidden behind a 500.
 */
export function errorHandler(route?: Pick<RouteDef, 'tag'>): Mw {
  return {
    onError: (req: Req) => {
      let err = req.error;
      if (!(err instanceof AppError) && isOutage(err)) {
        log.warn('backing service unavailable', { request_id: stateOf(req.context)?.requestId, ...errorFields(err) });
        err = route?.tag === 'Webhooks' ? unavailable('webhooks_unavailable', 'The webhook service') : unavailable('service_unavailable', 'The service');
      }
      if (err instanceof AppError) {
        req.response = { statusCode: err.status, headers: { ...JSON_HEADERS, ...err.headers }, body: JSON.stringify(err.toBody()) };
        return;
      }
      log.error('unhandled error', { request_id: stateOf(req.context)?.requestId, ...errorFields(err) });
      req.response = {
        statusCode: 500, headers: JSON_HEADERS,
        body: JSON.stringify({ error: 'Internal error: nothing was changed; try again', code: 'internal_error', request_id: stateOf(req.context)?.requestId }),
      };
    },
  };
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/**
 * Local-only routes (/dev/*) answer only to a loopback Host header, so a page on another site cannot read the
 * outbox through DNS rebinding (its requests carry that site's host name); anything else is 404.
 */
export function loopbackOnly(route: Pick<RouteDef, 'localOnly'>): Mw {
  return {
    before: (req: Req) => {
      if (route.localOnly && !LOOPBACK_HOST.test(req.event.headers?.host ?? '')) throw new NotFoundError('Not found');
    },
  };
}

/** Dashboard pages (paths under /dashboard) redirect to the sign-in page instead of answering 403. */
const isPage = (route: RouteDef) => route.path === '/dashboard' || route.path.startsWith('/dashboard/');

/**
 * Session routes: the session cookie must name a live session (an API key, or no session, is 403
 * `session_required`; a dashboard page GET without a session is a 303 to the sign-in page with a return path), and
 * every state-changing request must present the session's CSRF token (403 `csrf_failed`, nothing changed).
 */
async function authSession(route: RouteDef, req: Req): Promise<void> {
  const s = stateOf(req.context);
  const e = req.event;
  const required = () => new ForbiddenError('This can be done only from a signed-in dashboard session, never with an API key', { code: 'session_required' });
  if (/^Bearer\s/i.test(e.headers?.authorization ?? '')) throw required();
  const id = readCookie(e, sessionCookieName(s.deps.settings.publicBaseUrl));
  const principal = id ? await sessionPrincipal(s.deps, id) : undefined;
  if (!principal) {
    if (isPage(route) && (route.method === 'GET' || route.method === 'HEAD')) {
      const back = e.rawPath + (e.rawQueryString ? `?${e.rawQueryString}` : '');
      const location = `/dashboard/sign-in?return=${encodeURIComponent(back)}`;
      throw new AppError(303, 'session_required', 'Sign in to the dashboard first', { headers: { location } });
    }
    throw required();
  }
  if (route.method !== 'GET' && route.method !== 'HEAD' && !csrfMatches(presentedCsrf(e), principal.csrf)) {
    throw new ForbiddenError('The form is out of date or did not come from the dashboard: reload the page and try again', { code: 'csrf_failed' });
  }
  s.session = principal;
}

/** Authenticates the bearer key and checks its scope (key routes), or the dashboard session (session routes). */
export function auth(route: RouteDef): Mw {
  return {
    before: async (req: Req) => {
      if (route.auth === 'open') return;
      const s = stateOf(req.context);
      try {
        if (route.auth === 'session') return await authSession(route, req);
        s.principal = await authenticate(s.deps, req.event.headers?.authorization, { publishing: requiredScope(route) === 'publish' });
      } catch (err) {
        if (!(err instanceof AppError) && isOutage(err)) throw unavailable('auth_unavailable', 'Authentication');
        throw err;
      }
      appendLogContext({ account_id: s.principal.account.id });
      requireScope(s.principal, requiredScope(route));
    },
  };
}

/**
 * Request limits shared across instances: the plan's requests a minute per key, then the route's own limit per
 * account (key routes) or per IP (open routes). What is left of each is kept for the RateLimit headers.
 */
export function rateLimit(route: RouteDef): Mw {
  return {
    before: async (req: Req) => {
      const s = stateOf(req.context);
      const count = async (name: string, subject: string, rule: RateRule) => {
        try {
          const left = await hit(s.deps, subject, rule);
          if (left) (s.rates ??= []).push({ name, ...left });
        } catch (err) {
          if (err instanceof RateLimitedError) (s.rates ??= []).push({ name, rule, remaining: 0, reset: err.retryAfter });
          throw err;
        }
      };
      if (s.principal) {
        const plan = PLANS[s.principal.account.plan];
        await count('key', `key#${s.principal.key.id}`, perMinute(plan.api_requests_per_minute_per_key));
      }
      if (route.rateLimit && s.principal) {
        await count(route.id, `${route.id}#acc#${s.principal.account.id}`, route.rateLimit);
      } else if (route.rateLimit) {
        const account = s.session?.account;
        await hit(s.deps, `${route.id}#${account ? `acc#${account.id}` : `ip#${s.ip}`}`, route.rateLimit);
      }
    },
  };
}

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

function decodeBody(event: APIGatewayProxyEventV2): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

function issues(error: z.ZodError) {
  return error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

/**
 * Fields of a request object that its schema does not name (open objects, with a catchall, take any): the top level
 * checked here for every route, nested objects by their strict schemas.
 */
function unknownFields(schema: z.ZodType, value: unknown, error?: z.ZodError): UnknownField[] {
  const top = !isOpenObject(schema) && value !== null && typeof value === 'object' && !Array.isArray(value)
    ? extraFields(value as Record<string, unknown>, knownFieldsAt(schema, [])) : [];
  const nested = error ? unknownFieldsOf(schema, error) : [];
  return [...top, ...nested.filter((n) => !top.some((t) => t.field === n.field))];
}

/** A route that takes no body: a JSON object with fields is refused (its fields are unknown); nothing else is read. */
function refuseUnexpectedJson(e: APIGatewayProxyEventV2): void {
  const contentType = (e.headers?.['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') return;
  let json: unknown;
  try { json = JSON.parse(decodeBody(e) || 'null'); } catch { return; }
  if (json !== null && typeof json === 'object' && !Array.isArray(json) && Object.keys(json).length) {
    throw unknownFieldError(extraFields(json as Record<string, unknown>, []));
  }
}

/**
 * Parses and validates path parameters, query and body with the route's zod schemas (400/413/415 on bad input).
 * Request objects are strict: an unknown body field or query parameter is 400 unknown_field, naming it.
 */
export function parseRequest(route: RouteDef, maxBodyBytes: () => number): Mw {
  return {
    before: (req: Req) => {
      const s = stateOf(req.context);
      const e = req.event;
      if (route.params) {
        const res = route.params.safeParse(e.pathParameters ?? {});
        // an id, token or name that cannot be valid (too long, wrong shape) names nothing: 404, as spec §7 says for ids
        if (!res.success) throw new NotFoundError('Not found: no such item', { details: { issues: issues(res.error) } });
        s.params = res.data;
      }
      if (route.query) {
        const extra = unknownFields(route.query, e.queryStringParameters ?? {});
        if (extra.length) throw unknownFieldError(extra, 'query');
        const res = route.query.safeParse(e.queryStringParameters ?? {});
        if (!res.success) throw new BadRequestError('Invalid query parameters', { details: { issues: issues(res.error) } });
        s.query = res.data;
      }
      if (!route.query && e.queryStringParameters && Object.keys(e.queryStringParameters).length) {
        // a route that takes no query: every parameter is unknown
        throw unknownFieldError(extraFields(e.queryStringParameters, []), 'query');
      }
      if (route.rawBody) {
        const bytes = !e.body ? Buffer.alloc(0) : Buffer.from(e.body, e.isBase64Encoded ? 'base64' : 'utf8');
        if (bytes.length > maxBodyBytes()) throw new PayloadTooLargeError(`The request body is larger than ${maxBodyBytes()} bytes`);
        s.rawBytes = bytes;
        return;
      }
      if (!route.body) {
        refuseUnexpectedJson(e);
        return;
      }
      const raw = decodeBody(e);
      if (Buffer.byteLength(raw) > maxBodyBytes()) {
        throw new PayloadTooLargeError(`The request body is larger than ${maxBodyBytes()} bytes`);
      }
      const contentType = (e.headers?.['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      s.contentType = contentType;
      if (raw.trim() === '' && route.optionalBody) {
        s.body = route.body.parse({});
        return;
      }
      if (route.extraContentTypes?.includes(contentType)) {
        s.rawBody = raw;
        return;
      }
      if (contentType !== 'application/json' && !contentType.endsWith('+json')) {
        throw new UnsupportedMediaTypeError('Send the body as JSON with Content-Type: application/json', {
          details: { accepted: ['application/json', ...(route.extraContentTypes ?? [])] },
        });
      }
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        throw new BadRequestError('The body is not valid JSON', { code: 'invalid_json' });
      }
      const proto = prototypeKeys(json);
      if (proto.length) throw unknownFieldError(proto);
      const res = route.body.safeParse(json);
      const extra = unknownFields(route.body, json, res.error);
      if (extra.length) throw unknownFieldError(extra);
      if (!res.success) throw new BadRequestError('The request body is invalid', { details: { issues: issues(res.error) } });
      s.body = res.data;
    },
  };
}

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

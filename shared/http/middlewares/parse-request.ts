import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { z } from 'zod';
import type { RouteDef } from '../route';
import { BadRequestError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../domain/errors';
import { extraFields, isOpenObject, knownFieldsAt, prototypeKeys, unknownFieldError, unknownFieldsOf, type UnknownField } from '../../app/unknown-fields';
import { stateOf, type Mw, type Req } from './request-state';

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

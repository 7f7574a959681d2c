import type { RouteDef } from '../route';
import { AppError, ServiceUnavailableError } from '../../domain/errors';
import { isOutage, OUTAGE_RETRY_AFTER_SECONDS } from '../outage';
import { JSON_HEADERS } from '../reply';
import { errorFields, log } from '../../log';
import { stateOf, type Mw, type Req } from './request-state';

/** 503 with Retry-After for a backing service that could not be reached or throttled; nothing was changed. */
export function unavailable(code: string, what: string): ServiceUnavailableError {
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

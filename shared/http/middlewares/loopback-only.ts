import type { RouteDef } from '../route';
import { NotFoundError } from '../../domain/errors';
import type { Mw, Req } from './request-state';

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

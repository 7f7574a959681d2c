import type { RouteDef } from '../route';
import { log } from '../../log';
import { stateOf, type Mw, type Req } from './request-state';

/** One structured log line per request: route, status, duration (never headers or bodies). */
export function requestLog(route: Pick<RouteDef, 'id' | 'method'>): Mw {
  const write = (req: Req) => {
    const s = stateOf(req.context);
    const status = req.response?.statusCode ?? 500;
    const fields = { route: route.id, method: route.method, status, duration_ms: s ? s.deps.clock.now() - s.startedAt : undefined, request_id: s?.requestId, account_id: (s?.principal ?? s?.session)?.account.id };
    if (status >= 500) log.error('request', fields); else log.info('request', fields);
  };
  return { after: write, onError: write };
}

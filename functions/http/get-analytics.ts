import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { analyticsRoutes as routes } from '../routes/analytics';
import { analyticsFilter, queryAnalytics } from '../../shared/app/analytics/query-analytics';

export const handler = httpHandler(routes.getAnalytics, async (req) =>
  ok(await queryAnalytics(req.deps, req.principal.account.id, analyticsFilter(req.query, req.deps.clock.now()))));

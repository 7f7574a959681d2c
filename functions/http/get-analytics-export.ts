import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { analyticsRoutes as routes } from '../routes/analytics';
import { analyticsFilter } from '../../shared/app/analytics/query-analytics';
import { exportAnalytics } from '../../shared/app/analytics/export-analytics';

export const handler = httpHandler(routes.getAnalyticsExport, async (req) =>
  ok(await exportAnalytics(req.deps, req.principal.account.id, analyticsFilter(req.query, req.deps.clock.now()))));

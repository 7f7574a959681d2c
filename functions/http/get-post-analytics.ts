import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { analyticsRoutes as routes } from '../routes/analytics';
import { getPostAnalytics } from '../../shared/app/analytics/post-analytics';

export const handler = httpHandler(routes.getPostAnalytics, async (req) =>
  ok(await getPostAnalytics(req.deps, req.principal.account.id, req.params.id, { refresh: req.query.refresh === '1' || req.query.refresh === 'true' })));

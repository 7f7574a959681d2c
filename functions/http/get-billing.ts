import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { billingRoutes as routes } from '../routes/billing';
import { billingOverview } from '../../shared/app/billing/overview';

/** GET /api/billing: plan, subscription, scheduled change, grace period and plan-change history. */
export const handler = httpHandler(routes.getBilling, async (req) => ok(await billingOverview(req.deps, req.principal.account)));

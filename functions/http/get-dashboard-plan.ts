import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { planPage } from '../../shared/http/dashboard/plan-page';

/** The Plan page (every upgrade_url points here): the plan table, billing (checkout, portal, plan changes) and usage. */
export const handler = httpHandler(routes.getDashboardPlan, async (req) => planPage(req.deps, req.principal, req.query));

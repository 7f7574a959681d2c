import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { overviewBody } from '../../shared/http/dashboard/overview-views';
import { overview } from '../../shared/app/dashboard/overview';

/** Overview: the plan and every usage limit as a bar. */
export const handler = httpHandler(routes.getDashboard, async (req) => {
  const p = req.principal;
  const data = await overview(req.deps, p.account);
  return pageReply(200, dashboardShell({ title: 'Overview', active: 'overview', csrf: p.csrf, email: p.account.email, body: overviewBody({ email: p.account.email, ...data }) }));
});

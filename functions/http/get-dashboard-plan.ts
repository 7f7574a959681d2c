import { httpHandler } from '../../shared/http/handler';
import { routes } from '../../infra/routes';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { planBody } from '../../shared/http/dashboard/overview-views';
import { overview } from '../../shared/app/dashboard/overview';

/** The Plan page (every upgrade_url points here): the plan table and what the account uses. */
export const handler = httpHandler(routes.getDashboardPlan, async (req) => {
  const p = req.principal;
  const data = await overview(req.deps, p.account);
  return pageReply(200, dashboardShell({ title: 'Plan', active: 'plan', csrf: p.csrf, email: p.account.email, body: planBody({ current: data.plan, hint: req.query.plan, usage: data.usage }) }));
});

import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardHeaders, dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { composeBody } from '../../shared/http/dashboard/compose-views';
import { composePage } from '../../shared/app/dashboard/compose';

/** Compose: write one post for a brand's connected networks. */
export const handler = httpHandler(routes.getDashboardCompose, async (req) => {
  const p = req.principal;
  const page = await composePage(req.deps, p.account, req.query.brand);
  const body = composeBody({ page, csrf: p.csrf });
  return pageReply(200, dashboardShell({ title: 'Compose', active: 'compose', csrf: p.csrf, email: p.account.email, body }), dashboardHeaders({ script: true }));
});

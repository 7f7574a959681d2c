import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { flashOf } from '../../shared/http/dashboard/flash';
import { webhooksBody } from '../../shared/http/dashboard/settings-views';
import { webhooksPage } from '../../shared/app/dashboard/settings';

/** Webhooks: endpoints, test, rotate, delivery log with redeliver. */
export const handler = httpHandler(routes.getDashboardWebhooks, async (req) => {
  const p = req.principal;
  const body = webhooksBody(await webhooksPage(req.deps, p.account, req.query.log), p.csrf, flashOf(req.query));
  return pageReply(200, dashboardShell({ title: 'Webhooks', active: 'webhooks', csrf: p.csrf, email: p.account.email, body }));
});

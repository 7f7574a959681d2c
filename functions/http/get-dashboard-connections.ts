import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { flashOf } from '../../shared/http/dashboard/flash';
import { connectionsBody } from '../../shared/http/dashboard/settings-views';
import { connectionsPage } from '../../shared/app/dashboard/settings';

/** Connections per brand: check, reconnect link, disconnect. */
export const handler = httpHandler(routes.getDashboardConnections, async (req) => {
  const p = req.principal;
  const body = connectionsBody(await connectionsPage(req.deps, p.account.id), p.csrf, flashOf(req.query));
  return pageReply(200, dashboardShell({ title: 'Connections', active: 'connections', csrf: p.csrf, email: p.account.email, body }));
});

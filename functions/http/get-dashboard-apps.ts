import { httpHandler } from '../../shared/http/handler';
import { mcpRoutes as routes } from '../routes/mcp';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { appsBody } from '../../shared/http/dashboard/apps-views';
import { listApps } from '../../shared/app/mcp-oauth/apps';

/** The AI apps page: the MCP clients the owner allowed, each with a revoke button. */
export const handler = httpHandler(routes.getDashboardApps, async (req) => {
  const p = req.principal;
  const apps = await listApps(req.deps, p.account.id);
  const message = req.query.revoked ? 'The app was revoked: its access ended.' : undefined;
  return pageReply(200, dashboardShell({ title: 'AI apps', active: 'apps', csrf: p.csrf, email: p.account.email, body: appsBody({ apps, csrf: p.csrf, message }) }));
});

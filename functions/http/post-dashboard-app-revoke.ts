import { httpHandler } from '../../shared/http/handler';
import { mcpRoutes as routes } from '../routes/mcp';
import { redirect } from '../../shared/http/dashboard/layout';
import { revokeApp } from '../../shared/app/mcp-oauth/apps';

/** Revoke an AI app, then back to the AI apps page. */
export const handler = httpHandler(routes.postDashboardAppRevoke, async (req) => {
  await revokeApp(req.deps, req.principal.account.id, req.params.id);
  return redirect('/dashboard/apps?revoked=1');
});

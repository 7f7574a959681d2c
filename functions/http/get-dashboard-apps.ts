import { httpHandler } from '../../shared/http/handler';
import { mcpRoutes as routes } from '../routes/mcp';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { appsBody } from '../../shared/http/dashboard/apps-views';
import { appsPage } from '../../shared/app/mcp-oauth/apps';

/** The AI apps page: the MCP clients the owner allowed, each with its guardrails and a revoke button. */
export const handler = httpHandler(routes.getDashboardApps, async (req) => {
  const p = req.principal;
  const data = await appsPage(req.deps, p.account);
  const q = req.query;
  const message = q.revoked ? { kind: 'ok' as const, text: 'The app was revoked: its access ended.' }
    : q.done === 'guardrails' ? { kind: 'ok' as const, text: 'Guardrails saved.' }
      : q.error ? { kind: 'error' as const, text: `The guardrails were not saved (${q.error}).` } : undefined;
  return pageReply(200, dashboardShell({ title: 'AI apps', active: 'apps', csrf: p.csrf, email: p.account.email, body: appsBody({ ...data, csrf: p.csrf, message }) }));
});

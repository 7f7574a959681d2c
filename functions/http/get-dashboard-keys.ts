import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { keysBody } from '../../shared/http/dashboard/keys-views';
import { keysPage } from '../../shared/app/dashboard/keys';
import { flashOf } from '../../shared/http/dashboard/flash';

/** API keys: list, create, revoke, guardrails. */
export const handler = httpHandler(routes.getDashboardKeys, async (req) => {
  const p = req.principal;
  const data = await keysPage(req.deps, p.account);
  return pageReply(200, dashboardShell({ title: 'API keys', active: 'keys', csrf: p.csrf, email: p.account.email, body: keysBody(data, p.csrf, flashOf(req.query)) }));
});

import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { flashOf } from '../../shared/http/dashboard/flash';
import { brandingBody } from '../../shared/http/dashboard/settings-views';
import { brandingPage } from '../../shared/app/dashboard/branding';

/** Branding: the white label of the account and each brand. */
export const handler = httpHandler(routes.getDashboardBranding, async (req) => {
  const p = req.principal;
  const body = brandingBody({ ...(await brandingPage(req.deps, p.account)), csrf: p.csrf, flash: flashOf(req.query) });
  return pageReply(200, dashboardShell({ title: 'Branding', active: 'branding', csrf: p.csrf, email: p.account.email, body }));
});

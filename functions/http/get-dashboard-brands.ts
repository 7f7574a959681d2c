import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { flashOf } from '../../shared/http/dashboard/flash';
import { brandsBody } from '../../shared/http/dashboard/settings-views';

/** Brands: add, rename, time zone, posting slots. */
export const handler = httpHandler(routes.getDashboardBrands, async (req) => {
  const p = req.principal;
  const body = brandsBody(await req.deps.brands.list(p.account.id), p.csrf, flashOf(req.query));
  return pageReply(200, dashboardShell({ title: 'Brands', active: 'brands', csrf: p.csrf, email: p.account.email, body }));
});

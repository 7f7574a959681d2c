import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { brandsAction } from '../../shared/app/dashboard/settings';
import { BrandsForm } from '../../shared/api/dashboard-schemas';

/** Brands page actions: add a brand, or save a brand's name, time zone and slots. */
export const handler = httpHandler(routes.postDashboardBrands, async (req) => {
  try {
    return redirect(`/dashboard/brands?done=${await brandsAction(req.deps, req.principal.account, parseForm(req, BrandsForm))}`);
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return redirect(`/dashboard/brands?error=${err.code}`);
  }
});

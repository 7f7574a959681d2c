import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { AppError } from '../../shared/domain/errors';
import { redirect } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { setBranding } from '../../shared/app/dashboard/branding';
import { BrandingForm } from '../../shared/api/dashboard-schemas';

/** Saves the white label of the account or a brand (Pro and above). */
export const handler = httpHandler(routes.postDashboardBranding, async (req) => {
  try {
    await setBranding(req.deps, req.principal.account, parseForm(req, BrandingForm));
    return redirect('/dashboard/branding?done=saved');
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return redirect(`/dashboard/branding?error=${err.code}`);
  }
});

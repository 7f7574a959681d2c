import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { planPage } from '../../shared/http/dashboard/plan-page';
import { dashboardHeaders } from '../../shared/http/dashboard/layout';
import { openPortal } from '../../shared/app/billing/checkout';
import { AppError } from '../../shared/domain/errors';

/** The Plan page's billing button: 303 to Stripe's customer portal; a refusal shows the Plan page with the reason. */
export const handler = httpHandler(routes.postDashboardPlanPortal, async (req) => {
  try {
    const { url } = await openPortal(req.deps, req.principal.account);
    return { status: 303, headers: { location: url, ...dashboardHeaders() } };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const fix = typeof err.details.fix === 'string' ? ` ${err.details.fix}.` : '';
    return planPage(req.deps, req.principal, {}, { status: err.status, message: { kind: 'error', text: `${err.message}.${fix}` } });
  }
});

import { httpHandler } from '../../shared/http/handler';
import { dashboardRoutes as routes } from '../routes/dashboard';
import { parseForm } from '../../shared/http/dashboard/forms';
import { planPage } from '../../shared/http/dashboard/plan-page';
import { dashboardHeaders } from '../../shared/http/dashboard/layout';
import { startCheckout } from '../../shared/app/billing/checkout';
import { CheckoutBody } from '../../shared/api/billing-schemas';
import { AppError } from '../../shared/domain/errors';

/** The Plan page's checkout form: 303 to Stripe Checkout; a refusal shows the Plan page with the reason. */
export const handler = httpHandler(routes.postDashboardPlanCheckout, async (req) => {
  try {
    const { url } = await startCheckout(req.deps, req.principal.account, parseForm(req, CheckoutBody));
    return { status: 303, headers: { location: url, ...dashboardHeaders() } };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const fix = typeof err.details.fix === 'string' ? ` ${err.details.fix}.` : '';
    return planPage(req.deps, req.principal, {}, { status: err.status, message: { kind: 'error', text: `${err.message}.${fix}` } });
  }
});

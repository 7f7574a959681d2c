import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { billingRoutes as routes } from '../routes/billing';
import { openPortal } from '../../shared/app/billing/checkout';

/** POST /api/billing/portal: the Stripe customer portal URL. */
export const handler = httpHandler(routes.postBillingPortal, async (req) => ok(await openPortal(req.deps, req.principal.account)));

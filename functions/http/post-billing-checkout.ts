import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { billingRoutes as routes } from '../routes/billing';
import { startCheckout } from '../../shared/app/billing/checkout';

/** POST /api/billing/checkout: the Stripe Checkout URL for a paid plan. */
export const handler = httpHandler(routes.postBillingCheckout, async (req) => ok(await startCheckout(req.deps, req.principal.account, req.body)));

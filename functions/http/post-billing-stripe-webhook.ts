import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/reply';
import { billingRoutes as routes } from '../routes/billing';
import { receiveProviderEvent } from '../../shared/app/billing/webhook';

/** POST /billing/stripe-webhook: a signed Stripe event, verified over the raw bytes and applied once. */
export const handler = httpHandler(routes.postBillingStripeWebhook, async (req) =>
  ok(await receiveProviderEvent(req.deps, req.rawBytes ?? Buffer.alloc(0), req.headers['stripe-signature'])));

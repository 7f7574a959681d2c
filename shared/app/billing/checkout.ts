import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { PriceTable } from '../../ports/billing';
import { ConflictError } from '../../domain/errors';
import { BillingUnavailableError } from '../../domain/billing-errors';
import { isLive, type BillingInterval, type PaidPlan } from '../../domain/billing';

type BillingDeps = Pick<Deps, 'payments' | 'billing' | 'settings'>;

/** Where checkout and the portal send the customer back: the dashboard's Plan page. */
export const planPageUrl = (deps: Pick<Deps, 'settings'>, query = '') => `${deps.settings.publicBaseUrl}/dashboard/plan${query}`;

async function pricesOrUnavailable(deps: BillingDeps): Promise<PriceTable> {
  const prices = await deps.payments.prices();
  if (!prices) throw new BillingUnavailableError('Billing is not configured on this server');
  return prices;
}

/** The account's one customer at the provider: created on first need (idempotently), then reused. */
async function customerOf(deps: BillingDeps, account: Account): Promise<string> {
  if (account.billing_customer_id) return account.billing_customer_id;
  const created = await deps.payments.createCustomer({ accountId: account.id, email: account.email }, `customer-${account.id}`);
  return deps.billing.saveCustomer(account.id, created);
}

/**
 * POST /api/billing/checkout: a hosted checkout in subscription mode for the plan's price.
 * 1. Billing must be configured (503 billing_unavailable otherwise, naming /dev/plan for local servers).
 * 2. The plan the account already has: 409 plan_already_active; a live subscription changes plans in the portal:
 *    409 subscription_exists.
 * 3. The price of plan and interval must be configured (503 billing_unavailable naming the setting).
 * 4. The account's customer (created once, reused), then the session with the account id as client_reference_id.
 */
export async function startCheckout(deps: BillingDeps, account: Account, input: { plan: PaidPlan; interval?: BillingInterval }) {
  const prices = await pricesOrUnavailable(deps);
  const interval = input.interval ?? 'month';
  if (account.plan === input.plan) {
    throw new ConflictError(`The account is on the ${input.plan} plan already`, { code: 'plan_already_active', details: { plan: account.plan } });
  }
  if (isLive(account.billing?.status)) {
    throw new ConflictError('The account has a subscription: change its plan in the customer portal', {
      code: 'subscription_exists', details: { plan: account.plan, fix: 'POST /api/billing/portal and change the plan there' },
    });
  }
  const priceId = prices[input.plan]?.[interval];
  if (!priceId) {
    throw new BillingUnavailableError(`The ${input.plan} plan billed ${interval === 'year' ? 'yearly' : 'monthly'} is not on sale on this server`, {
      details: { setting: `STRIPE_PRICE_${input.plan.toUpperCase()}_${interval.toUpperCase()}` },
    });
  }
  const customerId = await customerOf(deps, account);
  const session = await deps.payments.createCheckoutSession({
    customerId, accountId: account.id, plan: input.plan, interval, priceId,
    successUrl: planPageUrl(deps, '?checkout=success&session_id={CHECKOUT_SESSION_ID}'),
    cancelUrl: planPageUrl(deps, '?checkout=canceled'),
  });
  return { url: session.url };
}

/** POST /api/billing/portal: the hosted customer portal (change plan, card, cancel, invoices), back to the Plan page. */
export async function openPortal(deps: BillingDeps, account: Account) {
  await pricesOrUnavailable(deps);
  const customerId = await customerOf(deps, account);
  const session = await deps.payments.createPortalSession({ customerId, returnUrl: planPageUrl(deps) });
  return { url: session.url };
}

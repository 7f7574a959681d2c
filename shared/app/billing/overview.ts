import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import { isLive } from '../../domain/billing';

/** How many plan changes the overview lists. */
export const CHANGES_LISTED = 50;

/**
 * GET /api/billing: the plan in force, whether billing can be used here, the subscription as last known, a change
 * scheduled for the period end, a grace period after a failed payment, and the plan-change history (newest first).
 */
export async function billingOverview(deps: Pick<Deps, 'payments' | 'billing'>, account: Account) {
  const b = account.billing ?? {};
  const [prices, changes] = await Promise.all([deps.payments.prices(), deps.billing.listChanges(account.id, CHANGES_LISTED)]);
  return {
    plan: account.plan,
    billing_available: prices !== undefined,
    subscription: b.subscription_id ? {
      status: b.status ?? 'unknown', live: isLive(b.status), plan: b.plan ?? null, interval: b.interval ?? null,
      current_period_end: b.current_period_end ?? null, cancel_at_period_end: b.cancel_at_period_end ?? false,
    } : null,
    pending_change: b.pending ?? null,
    grace_until: b.grace_until ?? null,
    changes,
  };
}

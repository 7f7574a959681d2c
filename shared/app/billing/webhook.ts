import type { Deps } from '../deps';
import type { BillingEvent } from '../../domain/billing';
import { applyEvent } from '../../domain/billing';
import { ConflictError } from '../../domain/errors';
import { BillingUnavailableError } from '../../domain/billing-errors';
import { commitState, MAX_WRITE_TRIES, stateOf } from './plan-state';
import { bestEffort, log } from '../../log';

/** How long a claimed event is reserved for the function processing it before a retry may take it over. */
export const EVENT_LEASE_MS = 60_000;

type WebhookDeps = Pick<Deps, 'payments' | 'billing' | 'accounts' | 'clock'>;

function customerOf(event: BillingEvent): string | undefined {
  switch (event.kind) {
    case 'subscription': return event.subscription.customer_id;
    default: return event.customer_id;
  }
}

async function accountOf(deps: WebhookDeps, event: BillingEvent): Promise<string | undefined> {
  const customer = customerOf(event);
  const linked = customer ? await deps.billing.findAccountByCustomer(customer) : undefined;
  if (linked) return linked;
  const named = event.kind === 'checkout_completed' ? event.account_id : event.kind === 'subscription' ? event.subscription.account_id : undefined;
  if (named && customer && (await deps.accounts.get(named))) await deps.billing.saveCustomer(named, customer);
  return named;
}

/** Applies one event to its account's plan state; answers the outcome (applied, stale, ignored, unknown_account). */
async function apply(deps: WebhookDeps, event: BillingEvent): Promise<string> {
  if (event.kind === 'ignored') return 'ignored';
  const accountId = await accountOf(deps, event);
  if (!accountId) return 'unknown_account';
  for (let i = 0; i < MAX_WRITE_TRIES; i++) {
    const account = await deps.accounts.get(accountId);
    if (!account) return 'unknown_account';
    const start = stateOf(account);
    const step = applyEvent(start, event, deps.clock.now());
    if (step.state === start) return step.outcome;
    const saved = await commitState(deps, account, step.state, step.changes, { by: 'stripe', event_id: event.id, customer_id: customerOf(event) });
    if (saved) return step.outcome;
  }
  throw new ConflictError('The account changed too often while this event was applied; retry', { code: 'billing_busy' });
}

/**
 * POST /billing/stripe-webhook: one provider event, applied once.
 * 1. The signature over the raw body and its age (300 s, by the injected clock) are verified (400 invalid_signature).
 * 2. The event id is claimed with a conditional put: a finished event answers `duplicate` and changes nothing; one
 *    another delivery is processing answers 409 so the provider retries it later.
 * 3. The event moves the account's plan state (shared/domain/billing: stale events change nothing) under the
 *    account's billing version; then the claim is marked done. On a failure the claim is given back (the provider
 *    retries).
 */
export async function receiveProviderEvent(deps: WebhookDeps, raw: Buffer, signature: string | undefined) {
  const prices = await deps.payments.prices();
  if (!prices) throw new BillingUnavailableError('Billing is not configured on this server');
  const event = await deps.payments.verifyEvent(raw, signature, deps.clock.now(), prices);
  const claim = await deps.billing.claimEvent(event.id, event.kind, deps.clock.now(), EVENT_LEASE_MS);
  if (claim === 'done') return { received: true, event_id: event.id, duplicate: true };
  if (claim === 'busy') throw new ConflictError('This event is being processed by another delivery; retry later', { code: 'event_in_progress' });
  try {
    const outcome = await apply(deps, event);
    await deps.billing.finishEvent(event.id, outcome, deps.clock.now());
    if (outcome === 'unknown_account') log.warn('billing event for an unknown customer', { event_id: event.id, kind: event.kind });
    return { received: true, event_id: event.id, outcome };
  } catch (err) {
    await bestEffort('billing event release', deps.billing.releaseEvent(event.id), { event_id: event.id });
    throw err;
  }
}

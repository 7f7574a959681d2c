import type { AccountBilling, BillingEvent, BillingInterval, PaidPlan, PlanChange } from '../domain/billing';
import type { PlanName } from '../domain/plans';

/** Price ids of the paid plans by billing interval (STRIPE_PRICE_<PLAN>_<MONTH|YEAR>); a missing one is not sold. */
export type PriceTable = Partial<Record<PaidPlan, Partial<Record<BillingInterval, string>>>>;

/**
 * The payment provider (Stripe): customers, hosted checkout and customer-portal sessions, and verification of its
 * signed webhook events. The adapter maps the provider's objects to the service's own terms (shared/domain/billing).
 */
export interface PaymentProvider {
  /** The price table when payments are configured (a secret key is set); undefined when they are not. */
  prices(): Promise<PriceTable | undefined>;
  /** Creates the account's customer; the same idempotency key answers the same customer. */
  createCustomer(input: { accountId: string; email: string }, idempotencyKey: string): Promise<string>;
  /** A hosted checkout in subscription mode for one price. */
  createCheckoutSession(input: {
    customerId: string; accountId: string; plan: PaidPlan; interval: BillingInterval; priceId: string; successUrl: string; cancelUrl: string;
  }): Promise<{ id: string; url: string }>;
  /** A hosted customer portal (change plan, card, cancel, invoices) that returns to `returnUrl`. */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /**
   * Verifies the signature header over the raw body bytes and the signature's age at `nowMs`, then answers the
   * event. Throws InvalidSignatureError for a bad or stale signature, BillingUnavailableError when no webhook
   * secret is configured.
   */
  verifyEvent(raw: Buffer, signature: string | undefined, nowMs: number, prices: PriceTable): Promise<BillingEvent>;
}

export type EventClaim = 'claimed' | 'done' | 'busy';

/**
 * Billing state in the table: the once-only claim of each provider event, the account's billing state (written
 * with its plan under an optimistic version, so concurrent events and reads never lose an update), the customer →
 * account link, and the plan-change history.
 */
export interface BillingStore {
  /** Claims an event for processing, once: a finished event is `done`; one being processed (lease not over) `busy`. */
  claimEvent(eventId: string, type: string, nowMs: number, leaseMs: number): Promise<EventClaim>;
  finishEvent(eventId: string, outcome: string, nowMs: number): Promise<void>;
  /** Gives a claim back after a failure, so the provider's retry can process the event. */
  releaseEvent(eventId: string): Promise<void>;
  /**
   * Writes the account's plan and billing state if its billing version is still `expectedVersion` (0: never
   * written); records `change` on the account in the same write. False when another writer came first.
   */
  saveState(accountId: string, expectedVersion: number, next: { plan: PlanName; billing: AccountBilling; change?: PlanChange }): Promise<boolean>;
  /** Links the customer to the account (first one wins); answers the customer id the account holds. */
  saveCustomer(accountId: string, customerId: string): Promise<string>;
  findAccountByCustomer(customerId: string): Promise<string | undefined>;
  /** Appends to the account's plan-change history (`seq` makes the entry unique; a repeat is a no-op). */
  recordChange(accountId: string, seq: number, change: PlanChange): Promise<void>;
  /** The account's plan changes, newest first. */
  listChanges(accountId: string, limit: number): Promise<PlanChange[]>;
}

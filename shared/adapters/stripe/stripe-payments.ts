import Stripe from 'stripe';
import * as z from 'zod';
import type { PaymentProvider, PriceTable } from '../../ports/billing';
import { BILLING_INTERVALS, PAID_PLANS, type BillingEvent, type BillingInterval, type PaidPlan } from '../../domain/billing';
import { BillingProviderError, BillingUnavailableError, InvalidSignatureError } from '../../domain/billing-errors';

/** Stripe's settings: the secret API key, the webhook signing secret and the price of each plan and interval. */
export interface StripeSettings {
  secretKey?: string;
  webhookSecret?: string;
  prices: PriceTable;
}

/** Age a webhook signature may have (seconds). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Reads STRIPE_PRICE_<PLAN>_<MONTH|YEAR> from a name → value lookup (environment or SSM parameters). */
export function priceTableFrom(read: (name: string) => string | undefined): PriceTable {
  const table: PriceTable = {};
  for (const plan of PAID_PLANS) {
    for (const interval of BILLING_INTERVALS) {
      const id = read(`STRIPE_PRICE_${plan.toUpperCase()}_${interval.toUpperCase()}`)?.trim();
      if (id) (table[plan] ??= {})[interval] = id;
    }
  }
  return table;
}

function planOfPrice(prices: PriceTable, priceId: string | undefined): { plan: PaidPlan; interval: BillingInterval } | undefined {
  if (!priceId) return undefined;
  for (const plan of PAID_PLANS) {
    for (const interval of BILLING_INTERVALS) if (prices[plan]?.[interval] === priceId) return { plan, interval };
  }
  return undefined;
}

const paidPlan = (v: unknown): PaidPlan | undefined => (PAID_PLANS as readonly unknown[]).includes(v) ? v as PaidPlan : undefined;
const interval = (v: unknown): BillingInterval | undefined => (BILLING_INTERVALS as readonly unknown[]).includes(v) ? v as BillingInterval : undefined;

// The fields of Stripe's objects this service reads (API version of the installed package); an id may be expanded.
const Ref = z.union([z.string(), z.object({ id: z.string() }).loose()]).nullish().transform((v) => (typeof v === 'string' ? v : v?.id) ?? undefined);
const Metadata = z.record(z.string(), z.string()).nullish().transform((m) => m ?? {});
const CheckoutSession = z.object({
  id: z.string(), mode: z.string().nullish(), client_reference_id: z.string().nullish(), customer: Ref, subscription: Ref,
  payment_status: z.string().nullish(), metadata: Metadata,
}).loose();
const Subscription = z.object({
  id: z.string(), customer: Ref, status: z.string(), cancel_at_period_end: z.boolean().nullish(), cancel_at: z.number().nullish(),
  current_period_end: z.number().nullish(),
  items: z.object({ data: z.array(z.object({
    current_period_end: z.number().nullish(),
    price: z.object({ id: z.string(), recurring: z.object({ interval: z.string() }).loose().nullish() }).loose().nullish(),
  }).loose()) }).loose().nullish(),
  metadata: Metadata,
}).loose();
const Invoice = z.object({
  id: z.string(), customer: Ref, subscription: Ref.optional(),
  parent: z.object({ subscription_details: z.object({ subscription: Ref }).loose().nullish() }).loose().nullish(),
}).loose();
const EventEnvelope = z.object({ id: z.string(), type: z.string(), created: z.number(), data: z.object({ object: z.unknown() }).loose() }).loose();

/** Maps a verified Stripe event to the service's terms; types it does not act on become `ignored`. */
export function toBillingEvent(raw: unknown, prices: PriceTable): BillingEvent {
  const e = EventEnvelope.parse(raw);
  const base = { id: e.id, created: e.created };
  switch (e.type) {
    case 'checkout.session.completed': {
      const s = CheckoutSession.parse(e.data.object);
      if (s.mode && s.mode !== 'subscription') return { ...base, kind: 'ignored', type: e.type, customer_id: s.customer };
      return {
        ...base, kind: 'checkout_completed', session_id: s.id, account_id: s.client_reference_id ?? s.metadata.account_id,
        customer_id: s.customer, subscription_id: s.subscription, plan: paidPlan(s.metadata.plan), interval: interval(s.metadata.interval),
        paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const s = Subscription.parse(e.data.object);
      const item = s.items?.data[0];
      const priceId = item?.price?.id;
      const priced = planOfPrice(prices, priceId);
      return {
        ...base, kind: 'subscription', action: e.type.slice('customer.subscription.'.length) as 'created' | 'updated' | 'deleted',
        subscription: {
          id: s.id, customer_id: s.customer, status: s.status, price_id: priceId,
          plan: priced?.plan ?? paidPlan(s.metadata.plan), interval: priced?.interval ?? interval(item?.price?.recurring?.interval),
          current_period_end: item?.current_period_end ?? s.current_period_end ?? undefined,
          cancel_at_period_end: s.cancel_at_period_end ?? false, cancel_at: s.cancel_at ?? undefined,
          account_id: s.metadata.account_id,
        },
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const i = Invoice.parse(e.data.object);
      return {
        ...base, kind: 'invoice', action: e.type === 'invoice.paid' ? 'paid' : 'payment_failed', invoice_id: i.id,
        customer_id: i.customer, subscription_id: i.parent?.subscription_details?.subscription ?? i.subscription,
      };
    }
    default:
      return { ...base, kind: 'ignored', type: e.type };
  }
}

/** Client options that point the Stripe package at another origin (STRIPE_API_BASE: a loopback fake in tests). */
export function stripeHostOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

function providerError(what: string, err: unknown): BillingProviderError {
  const message = err instanceof Stripe.errors.StripeError ? err.message : 'no answer';
  return new BillingProviderError(`Stripe could not ${what}: ${message}`, { cause: err });
}

/**
 * The Stripe adapter of PaymentProvider (the `stripe` package). Settings come from `load` (the environment locally,
 * SSM Parameter Store in AWS) on first use and are kept; unset secret key → billing is not configured.
 */
export class StripePayments implements PaymentProvider {
  private settings?: Promise<StripeSettings | undefined>;
  private client?: Stripe;

  constructor(private readonly load: () => Promise<StripeSettings | undefined>, private readonly apiBase?: string) {}

  private async current(): Promise<StripeSettings | undefined> {
    this.settings ??= this.load().catch((err: unknown) => { this.settings = undefined; throw err; });
    return this.settings;
  }

  private async stripe(): Promise<Stripe> {
    const s = await this.current();
    if (!s?.secretKey) throw new BillingUnavailableError('Billing is not configured on this server');
    this.client ??= new Stripe(s.secretKey, { ...stripeHostOptions(this.apiBase), maxNetworkRetries: 1, timeout: 10_000, telemetry: false });
    return this.client;
  }

  async prices(): Promise<PriceTable | undefined> {
    const s = await this.current();
    return s?.secretKey ? s.prices : undefined;
  }

  async createCustomer(input: { accountId: string; email: string }, idempotencyKey: string): Promise<string> {
    const stripe = await this.stripe();
    try {
      const customer = await stripe.customers.create({ email: input.email, metadata: { account_id: input.accountId } }, { idempotencyKey });
      return customer.id;
    } catch (err) { throw providerError('create the customer', err); }
  }

  async createCheckoutSession(input: Parameters<PaymentProvider['createCheckoutSession']>[0]) {
    const stripe = await this.stripe();
    const metadata = { account_id: input.accountId, plan: input.plan, interval: input.interval };
    try {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: input.customerId,
        client_reference_id: input.accountId,
        line_items: [{ price: input.priceId, quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata,
        subscription_data: { metadata },
      });
      if (!session.url) throw new BillingProviderError('Stripe answered a checkout session without a URL');
      return { id: session.id, url: session.url };
    } catch (err) {
      if (err instanceof BillingProviderError) throw err;
      throw providerError('start the checkout', err);
    }
  }

  async createPortalSession(input: { customerId: string; returnUrl: string }) {
    const stripe = await this.stripe();
    try {
      const session = await stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl });
      return { url: session.url };
    } catch (err) { throw providerError('open the customer portal', err); }
  }

  async verifyEvent(raw: Buffer, signature: string | undefined, nowMs: number, prices: PriceTable): Promise<BillingEvent> {
    const s = await this.current();
    if (!s?.webhookSecret) throw new BillingUnavailableError('The Stripe webhook secret is not configured on this server');
    if (!signature) throw new InvalidSignatureError('The Stripe-Signature header is missing');
    // Stripe's check refuses old signatures only: one dated beyond the tolerance in the future is refused too
    const signedAt = Number(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(signature)?.[1]);
    if (Number.isFinite(signedAt) && signedAt * 1000 > nowMs + SIGNATURE_TOLERANCE_SECONDS * 1000) {
      throw new InvalidSignatureError('The signature is dated more than 5 minutes in the future');
    }
    let event: unknown;
    try {
      event = Stripe.webhooks.constructEvent(raw, signature, s.webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs);
    } catch (err) {
      const stale = /tolerance/i.test((err as Error).message);
      throw new InvalidSignatureError(stale ? 'The signature is older than 5 minutes' : 'The signature does not match the body');
    }
    const parsed = EventEnvelope.safeParse(event);
    if (!parsed.success) throw new InvalidSignatureError('The signed body is not a Stripe event');
    try {
      return toBillingEvent(event, prices);
    } catch {
      return { id: parsed.data.id, created: parsed.data.created, kind: 'ignored', type: parsed.data.type };
    }
  }
}

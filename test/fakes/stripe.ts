import Stripe from 'stripe';
import { FakeServer, type RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';

/** Price ids the tests configure (STRIPE_PRICE_<PLAN>_<MONTH|YEAR>). */
export const TEST_PRICES = {
  STRIPE_PRICE_STARTER_MONTH: 'price_starter_m', STRIPE_PRICE_STARTER_YEAR: 'price_starter_y',
  STRIPE_PRICE_PRO_MONTH: 'price_pro_m', STRIPE_PRICE_PRO_YEAR: 'price_pro_y',
  STRIPE_PRICE_AGENCY_MONTH: 'price_agency_m', STRIPE_PRICE_AGENCY_YEAR: 'price_agency_y',
  STRIPE_PRICE_SCALE_MONTH: 'price_scale_m', STRIPE_PRICE_SCALE_YEAR: 'price_scale_y',
} as const;
export const TEST_SECRET_KEY = 'sk_test_fake_123';
export const TEST_WEBHOOK_SECRET = 'whsec_test_fake_secret';

/** The form fields of a Stripe API request (`line_items[0][price]` → that key). */
export const formOf = (req: RecordedRequest): Record<string, string> => Object.fromEntries(new URLSearchParams(req.text));

/**
 * A loopback stand-in for the parts of the Stripe API the service calls: customers (honouring Idempotency-Key as
 * Stripe does), Checkout Sessions and Billing Portal sessions. Answers objects of Stripe's shape.
 */
export class FakeStripe {
  readonly server = new FakeServer((req) => this.route(req));
  private seq = 0;
  private readonly customersByKey = new Map<string, Record<string, unknown>>();
  /** The next request to this path is refused with Stripe's error shape. */
  refuseNext?: { path: string; status: number; message: string };

  start() { return this.server.start(); }
  stop() { return this.server.stop(); }
  get requests() { return this.server.requests; }
  /** The environment that points the service at this fake. */
  env(): Record<string, string> {
    return { STRIPE_SECRET_KEY: TEST_SECRET_KEY, STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, STRIPE_API_BASE: this.server.url, ...TEST_PRICES };
  }
  calls(path: string) { return this.requests.filter((r) => r.method === 'POST' && r.path === path); }

  private route(req: RecordedRequest) {
    if (req.headers.authorization !== `Bearer ${TEST_SECRET_KEY}`) return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    if (this.refuseNext && this.refuseNext.path === req.path) {
      const { status, message } = this.refuseNext;
      this.refuseNext = undefined;
      return { status, body: { error: { type: 'invalid_request_error', message } } };
    }
    const form = formOf(req);
    const n = ++this.seq;
    if (req.method === 'POST' && req.path === '/v1/customers') {
      const key = String(req.headers['idempotency-key'] ?? `none-${n}`);
      const customer = this.customersByKey.get(key) ?? { id: `cus_fake${n}`, object: 'customer', email: form.email, metadata: { account_id: form['metadata[account_id]'] } };
      this.customersByKey.set(key, customer);
      return { body: customer };
    }
    if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
      return { body: { id: `cs_test_${n}`, object: 'checkout.session', mode: form.mode, customer: form.customer, client_reference_id: form.client_reference_id, url: `https://checkout.stripe.com/c/pay/cs_test_${n}`, status: 'open', payment_status: 'unpaid' } };
    }
    if (req.method === 'POST' && req.path === '/v1/billing_portal/sessions') {
      return { body: { id: `bps_${n}`, object: 'billing_portal.session', customer: form.customer, return_url: form.return_url, url: `https://billing.stripe.com/p/session/bps_${n}` } };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path})` } } };
  }
}

let eventSeq = 0;
/** A Stripe event envelope around `object`. */
export function stripeEvent(type: string, object: Record<string, unknown>, created: number, id = `evt_test_${++eventSeq}_${Math.random().toString(36).slice(2, 8)}`) {
  return { id, object: 'event', api_version: '2026-10-28.endive', created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } };
}

/** A subscription object as Stripe sends it (the period end lives on the item in current API versions). */
export function subscriptionObject(o: { id: string; customer: string; status?: string; price: string; periodEnd: number; cancelAtPeriodEnd?: boolean; accountId?: string }) {
  return {
    id: o.id, object: 'subscription', customer: o.customer, status: o.status ?? 'active', cancel_at_period_end: o.cancelAtPeriodEnd ?? false, cancel_at: null,
    items: { object: 'list', data: [{ id: `si_${o.id}`, object: 'subscription_item', current_period_end: o.periodEnd, current_period_start: o.periodEnd - 30 * 86_400, price: { id: o.price, object: 'price', recurring: { interval: 'month' } } }] },
    metadata: o.accountId ? { account_id: o.accountId } : {},
  };
}

export function checkoutSessionObject(o: { accountId: string; customer: string; subscription: string; plan: string; interval?: string }) {
  return {
    id: `cs_test_${o.subscription}`, object: 'checkout.session', mode: 'subscription', status: 'complete', payment_status: 'paid',
    client_reference_id: o.accountId, customer: o.customer, subscription: o.subscription,
    metadata: { account_id: o.accountId, plan: o.plan, interval: o.interval ?? 'month' },
  };
}

export function invoiceObject(o: { id: string; customer: string; subscription: string }) {
  return { id: o.id, object: 'invoice', customer: o.customer, parent: { type: 'subscription_details', subscription_details: { subscription: o.subscription } } };
}

/** The body and Stripe-Signature header of a delivery, signed with Stripe's own test helper. */
export function signedDelivery(event: unknown, opts: { secret?: string; timestampSec?: number } = {}) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? TEST_WEBHOOK_SECRET, timestamp: opts.timestampSec });
  return { payload, signature };
}

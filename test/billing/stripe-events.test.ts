import { priceTableFrom, stripeHostOptions, toBillingEvent } from '../../shared/adapters/stripe/stripe-payments';
import { TEST_PRICES, checkoutSessionObject, stripeEvent, subscriptionObject } from '../fakes/stripe';

const prices = priceTableFrom((n) => (TEST_PRICES as Record<string, string>)[n]);

describe("Stripe's events in the service's terms (the adapter's mapping)", () => {
  it('reads the price table from STRIPE_PRICE_<PLAN>_<MONTH|YEAR>, leaving out unset ones', () => {
    expect(priceTableFrom((n) => ({ STRIPE_PRICE_PRO_YEAR: ' price_py ', STRIPE_PRICE_STARTER_MONTH: '' } as Record<string, string>)[n])).toEqual({ pro: { year: 'price_py' } });
    expect(prices.scale).toEqual({ month: 'price_scale_m', year: 'price_scale_y' });
  });

  it('a subscription: plan and interval from the configured price, period end from the item (or the subscription in older API versions)', () => {
    const sub = subscriptionObject({ id: 'sub_1', customer: 'cus_1', price: TEST_PRICES.STRIPE_PRICE_AGENCY_YEAR, periodEnd: 1_800_000_000, cancelAtPeriodEnd: true, accountId: 'acc_1' });
    expect(toBillingEvent(stripeEvent('customer.subscription.updated', sub, 100, 'evt_1'), prices)).toEqual({
      id: 'evt_1', created: 100, kind: 'subscription', action: 'updated',
      subscription: { id: 'sub_1', customer_id: 'cus_1', status: 'active', price_id: 'price_agency_y', plan: 'agency', interval: 'year', current_period_end: 1_800_000_000, cancel_at_period_end: true, cancel_at: undefined, account_id: 'acc_1' },
    });
    const legacy = { ...sub, current_period_end: 1_700_000_000, items: { data: [{ price: { id: 'price_unknown', recurring: { interval: 'month' } } }] }, metadata: { plan: 'pro' } };
    const mapped = toBillingEvent(stripeEvent('customer.subscription.created', legacy, 100), prices);
    expect(mapped).toMatchObject({ kind: 'subscription', action: 'created', subscription: { plan: 'pro', interval: 'month', current_period_end: 1_700_000_000, price_id: 'price_unknown' } });
    const unknown = toBillingEvent(stripeEvent('customer.subscription.updated', { ...legacy, metadata: { plan: 'gold' } }, 100), prices);
    expect(unknown).toMatchObject({ subscription: { plan: undefined } });
  });

  it('an invoice names its subscription under parent.subscription_details (current) or subscription (older versions)', () => {
    expect(toBillingEvent(stripeEvent('invoice.payment_failed', { id: 'in_1', customer: { id: 'cus_1' }, parent: { subscription_details: { subscription: 'sub_1' } } }, 5, 'evt_i'), prices))
      .toEqual({ id: 'evt_i', created: 5, kind: 'invoice', action: 'payment_failed', invoice_id: 'in_1', customer_id: 'cus_1', subscription_id: 'sub_1' });
    expect(toBillingEvent(stripeEvent('invoice.paid', { id: 'in_2', customer: 'cus_1', subscription: 'sub_old' }, 5), prices)).toMatchObject({ action: 'paid', subscription_id: 'sub_old' });
  });

  it('checkout: the account from client_reference_id, paid or not; a one-off payment session is ignored', () => {
    const s = checkoutSessionObject({ accountId: 'acc_9', customer: 'cus_9', subscription: 'sub_9', plan: 'scale', interval: 'year' });
    expect(toBillingEvent(stripeEvent('checkout.session.completed', s, 7), prices)).toMatchObject({ kind: 'checkout_completed', account_id: 'acc_9', customer_id: 'cus_9', subscription_id: 'sub_9', plan: 'scale', interval: 'year', paid: true });
    expect(toBillingEvent(stripeEvent('checkout.session.completed', { ...s, payment_status: 'unpaid' }, 7), prices)).toMatchObject({ paid: false });
    expect(toBillingEvent(stripeEvent('checkout.session.completed', { ...s, mode: 'payment' }, 7), prices)).toMatchObject({ kind: 'ignored', type: 'checkout.session.completed' });
    expect(toBillingEvent(stripeEvent('charge.refunded', { id: 'ch_1' }, 7), prices)).toMatchObject({ kind: 'ignored', type: 'charge.refunded' });
  });

  it('STRIPE_API_BASE becomes the host, port and protocol options of the stripe package', () => {
    expect(stripeHostOptions('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: '12111', protocol: 'http' });
    expect(stripeHostOptions('https://stripe.internal')).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' });
    expect(stripeHostOptions(undefined)).toEqual({});
  });
});

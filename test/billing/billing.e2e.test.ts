import { client, signupThroughApi, startRuntime } from '../support/runtime';
import { OffsetClock } from '../support/clock';
import { signInThroughOutbox } from '../support/dashboard';
import type { LocalRuntime } from '../../infra/local/runtime';
import {
  FakeStripe, TEST_PRICES, checkoutSessionObject, formOf, invoiceObject, signedDelivery, stripeEvent, subscriptionObject,
} from '../fakes/stripe';

/**
 * Billing through the local runtime: the `stripe` package pointed at a loopback fake of the Stripe API
 * (STRIPE_API_BASE), webhooks signed with Stripe's own test header helper and verified by the service.
 */
let rt: LocalRuntime;
/** The handlers' clock: real time, moved by hand for a moment. */
const handlersClock = new OffsetClock();
const fake = new FakeStripe();
beforeAll(async () => {
  await fake.start();
  rt = await startRuntime({ ...fake.env(), DISABLE_RATE_LIMITS: '1' }, undefined, { deps: () => ({ clock: handlersClock }) }); // more than 5 signups from one IP
});
afterAll(async () => { await rt?.stop(); await fake.stop(); });

const now = () => rt.deps.clock.now();
const nowSec = () => Math.floor(now() / 1000);
let emails = 0;

async function account(plan?: string) {
  const email = `billing${++emails}@example.com`;
  const key = await signupThroughApi(rt.url, email, plan);
  const api = client(rt.url, key);
  const id = (await api('GET', '/api/me')).body.account as { id: string };
  return { api, id: id.id, email };
}

async function deliver(event: unknown, opts: { timestampSec?: number; signature?: string; body?: string } = {}) {
  const signed = signedDelivery(event, { timestampSec: opts.timestampSec ?? nowSec() });
  const res = await fetch(`${rt.url}/billing/stripe-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', ...(opts.signature === '' ? {} : { 'stripe-signature': opts.signature ?? signed.signature }) },
    body: opts.body ?? signed.payload,
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

type Overview = { plan: string; pending_change: { plan: string; at: string; reason: string } | null; grace_until: string | null; changes: Array<Record<string, unknown>>; subscription: Record<string, unknown> | null };
const overview = async (api: ReturnType<typeof client>) => (await api('GET', '/api/billing')).body as unknown as Overview;

/** Subscribes an account to `plan` as Stripe would tell it: the checkout completes for a new subscription. */
async function subscribed(a: { id: string }, plan: string, sub: string) {
  const customer = `cus_${sub}`;
  await rt.deps.billing.saveCustomer(a.id, customer);
  const res = await deliver(stripeEvent('checkout.session.completed', checkoutSessionObject({ accountId: a.id, customer, subscription: sub, plan }), nowSec()));
  expect(res.body).toMatchObject({ received: true, outcome: 'applied' });
  return customer;
}

describe('checkout and the customer portal (against a Stripe API fake)', () => {
  it('creates a subscription-mode Checkout Session with the exact parameters, one customer per account, reused', async () => {
    const a = await account();
    const first = await a.api('POST', '/api/billing/checkout', { plan: 'pro' });
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);

    const customers = fake.calls('/v1/customers').filter((r) => formOf(r)['metadata[account_id]'] === a.id);
    expect(customers).toHaveLength(1);
    expect(formOf(customers[0])).toEqual({ email: a.email, 'metadata[account_id]': a.id });
    expect(customers[0].headers['idempotency-key']).toBe(`customer-${a.id}`);
    const customerId = formOf(fake.calls('/v1/checkout/sessions').at(-1)!).customer;
    expect(customerId).toMatch(/^cus_fake\d+$/);

    const session = formOf(fake.calls('/v1/checkout/sessions').at(-1)!);
    expect(session).toEqual({
      mode: 'subscription', customer: customerId, client_reference_id: a.id,
      'line_items[0][price]': TEST_PRICES.STRIPE_PRICE_PRO_MONTH, 'line_items[0][quantity]': '1',
      success_url: `${rt.url}/dashboard/plan?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${rt.url}/dashboard/plan?checkout=canceled`,
      'metadata[account_id]': a.id, 'metadata[plan]': 'pro', 'metadata[interval]': 'month',
      'subscription_data[metadata][account_id]': a.id, 'subscription_data[metadata][plan]': 'pro', 'subscription_data[metadata][interval]': 'month',
    });

    const yearly = await a.api('POST', '/api/billing/checkout', { plan: 'agency', interval: 'year' });
    expect(yearly.status).toBe(200);
    const second = formOf(fake.calls('/v1/checkout/sessions').at(-1)!);
    expect(second).toMatchObject({ customer: customerId, 'line_items[0][price]': TEST_PRICES.STRIPE_PRICE_AGENCY_YEAR, 'metadata[interval]': 'year' });

    const portal = await a.api('POST', '/api/billing/portal');
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(formOf(fake.calls('/v1/billing_portal/sessions').at(-1)!)).toEqual({ customer: customerId, return_url: `${rt.url}/dashboard/plan` });
    // still the one customer
    expect(fake.calls('/v1/customers').filter((r) => formOf(r)['metadata[account_id]'] === a.id)).toHaveLength(1);
  });

  it('refuses the plan the account has (409), a second subscription (409), and bad input (400)', async () => {
    const onPro = await account('pro');
    expect(await onPro.api('POST', '/api/billing/checkout', { plan: 'pro' })).toMatchObject({ status: 409, body: { code: 'plan_already_active' } });
    const a = await account();
    await subscribed(a, 'starter', 'sub_refuse');
    expect(await a.api('POST', '/api/billing/checkout', { plan: 'pro' })).toMatchObject({ status: 409, body: { code: 'subscription_exists' } });
    expect((await a.api('POST', '/api/billing/checkout', { plan: 'free' })).status).toBe(400);
    expect((await a.api('POST', '/api/billing/checkout', { plan: 'pro', interval: 'week' })).status).toBe(400);
    expect((await a.api('POST', '/api/billing/checkout', { plan: 'pro', coupon: 'x' })).status).toBe(400);
    expect((await client(rt.url)('POST', '/api/billing/checkout', { plan: 'pro' })).status).toBe(401);
  });
});

describe('Stripe refusing', () => {
  it("a refused checkout is 502 billing_provider_error with Stripe's reason; the customer stays linked for the next try", async () => {
    const a = await account();
    fake.refuseNext = { path: '/v1/checkout/sessions', status: 400, message: 'No such price: price_pro_m' };
    const refused = await a.api('POST', '/api/billing/checkout', { plan: 'pro' });
    expect(refused).toMatchObject({ status: 502, body: { code: 'billing_provider_error', error: expect.stringContaining('No such price: price_pro_m') } });
    expect((await a.api('POST', '/api/billing/checkout', { plan: 'pro' })).status).toBe(200);
    expect(fake.calls('/v1/customers').filter((r) => formOf(r)['metadata[account_id]'] === a.id)).toHaveLength(1);
    expect((await overview(a.api)).plan).toBe('free');
  });
});

describe('the Stripe webhook', () => {
  it('applies each event type: subscription created, updated, payment failed (grace), paid, deleted', async () => {
    const a = await account();
    const customer = 'cus_types';
    await rt.deps.billing.saveCustomer(a.id, customer);
    const periodEnd = nowSec() + 20 * 86_400;
    const s = (o: Partial<Parameters<typeof subscriptionObject>[0]>) => subscriptionObject({ id: 'sub_types', customer, price: TEST_PRICES.STRIPE_PRICE_STARTER_MONTH, periodEnd, ...o });
    const t = nowSec();

    expect((await deliver(stripeEvent('customer.subscription.created', s({}), t))).body).toMatchObject({ outcome: 'applied' });
    expect((await overview(a.api)).plan).toBe('starter');
    expect((await deliver(stripeEvent('customer.subscription.updated', s({ price: TEST_PRICES.STRIPE_PRICE_PRO_MONTH }), t + 1))).body).toMatchObject({ outcome: 'applied' });
    expect((await overview(a.api)).plan).toBe('pro');

    expect((await deliver(stripeEvent('invoice.payment_failed', invoiceObject({ id: 'in_1', customer, subscription: 'sub_types' }), t + 2))).body).toMatchObject({ outcome: 'applied' });
    let o = await overview(a.api);
    expect(o.plan).toBe('pro');
    expect(o.grace_until).toBe(new Date((t + 2) * 1000 + 7 * 86_400_000).toISOString());
    expect((await deliver(stripeEvent('invoice.paid', invoiceObject({ id: 'in_1', customer, subscription: 'sub_types' }), t + 3))).body).toMatchObject({ outcome: 'applied' });
    expect((await overview(a.api)).grace_until).toBeNull();

    expect((await deliver(stripeEvent('customer.subscription.deleted', s({ price: TEST_PRICES.STRIPE_PRICE_PRO_MONTH, status: 'canceled' }), t + 4))).body).toMatchObject({ outcome: 'applied' });
    o = await overview(a.api);
    expect(o.plan).toBe('free');
    expect(o.changes.map((c) => [c.from, c.to, c.by, c.reason])).toEqual([
      ['pro', 'free', 'stripe', 'subscription_ended'], ['starter', 'pro', 'stripe', 'upgraded'], ['free', 'starter', 'stripe', 'upgraded'],
    ]);
    expect(o.changes[0]).toMatchObject({ customer_id: customer, subscription_id: 'sub_types', event_id: expect.stringMatching(/^evt_/) });
    // an event type the service does not act on is acknowledged
    expect((await deliver(stripeEvent('customer.updated', { id: customer, object: 'customer' }, t + 5))).body).toMatchObject({ received: true, outcome: 'ignored' });
  });

  it('a payment failure past its 7-day grace period turns the plan Free on the next read', async () => {
    const a = await account();
    const customer = await subscribed(a, 'pro', 'sub_grace');
    expect((await deliver(stripeEvent('invoice.payment_failed', invoiceObject({ id: 'in_g', customer, subscription: 'sub_grace' }), nowSec()))).status).toBe(200);
    try {
      handlersClock.shift(7 * 86_400_000 - 60_000);
      expect((await a.api('GET', '/api/me')).body.plan).toBe('pro');
      handlersClock.shift(7 * 86_400_000 + 60_000);
      expect((await a.api('GET', '/api/me')).body.plan).toBe('free');
      expect((await overview(a.api)).changes[0]).toMatchObject({ from: 'pro', to: 'free', by: 'system', reason: 'payment_failed_grace_ended' });
    } finally {
      handlersClock.shift(0);
    }
  });

  it('a replayed event is applied once, also when the deliveries race', async () => {
    const a = await account();
    await rt.deps.billing.saveCustomer(a.id, 'cus_replay');
    const event = stripeEvent('customer.subscription.created', subscriptionObject({ id: 'sub_replay', customer: 'cus_replay', price: TEST_PRICES.STRIPE_PRICE_PRO_MONTH, periodEnd: nowSec() + 86_400 * 20 }), nowSec());
    const results = await Promise.all(Array.from({ length: 6 }, () => deliver(event)));
    const applied = results.filter((r) => r.status === 200 && r.body.outcome === 'applied');
    expect(applied).toHaveLength(1);
    expect(results.every((r) => (r.status === 200 && (r.body.outcome === 'applied' || r.body.duplicate === true)) || (r.status === 409 && r.body.code === 'event_in_progress'))).toBe(true);
    expect(await deliver(event)).toMatchObject({ status: 200, body: { received: true, event_id: event.id, duplicate: true } });
    const o = await overview(a.api);
    expect(o.plan).toBe('pro');
    expect(o.changes).toHaveLength(1);
  });

  it('two events out of order: the older one cannot roll the plan back', async () => {
    const a = await account();
    await rt.deps.billing.saveCustomer(a.id, 'cus_order');
    const periodEnd = nowSec() + 20 * 86_400;
    const t = nowSec();
    const newer = stripeEvent('customer.subscription.updated', subscriptionObject({ id: 'sub_order', customer: 'cus_order', price: TEST_PRICES.STRIPE_PRICE_AGENCY_MONTH, periodEnd }), t);
    const older = stripeEvent('customer.subscription.created', subscriptionObject({ id: 'sub_order', customer: 'cus_order', price: TEST_PRICES.STRIPE_PRICE_STARTER_MONTH, periodEnd }), t - 30);
    expect((await deliver(newer)).body.outcome).toBe('applied');
    expect((await deliver(older)).body.outcome).toBe('stale');
    const o = await overview(a.api);
    expect(o.plan).toBe('agency');
    expect(o.pending_change).toBeNull();
    const deleted = stripeEvent('customer.subscription.deleted', subscriptionObject({ id: 'sub_order', customer: 'cus_order', status: 'canceled', price: TEST_PRICES.STRIPE_PRICE_AGENCY_MONTH, periodEnd }), t + 10);
    const lateUpdate = stripeEvent('customer.subscription.updated', subscriptionObject({ id: 'sub_order', customer: 'cus_order', price: TEST_PRICES.STRIPE_PRICE_SCALE_MONTH, periodEnd }), t + 5);
    expect((await deliver(deleted)).body.outcome).toBe('applied');
    expect((await deliver(lateUpdate)).body.outcome).not.toBe('applied');
    expect((await overview(a.api)).plan).toBe('free');
  });

  it('a bad signature is 400 and changes nothing; the same event signed properly then applies', async () => {
    const a = await account();
    await rt.deps.billing.saveCustomer(a.id, 'cus_sig');
    const event = stripeEvent('customer.subscription.created', subscriptionObject({ id: 'sub_sig', customer: 'cus_sig', price: TEST_PRICES.STRIPE_PRICE_PRO_MONTH, periodEnd: nowSec() + 86_400 * 20 }), nowSec());
    const forged = signedDelivery(event, { secret: 'whsec_someone_else', timestampSec: nowSec() });
    expect(await deliver(event, { signature: forged.signature })).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
    expect(await deliver(event, { signature: '' })).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
    const good = signedDelivery(event, { timestampSec: nowSec() });
    const tampered = good.payload.replace(TEST_PRICES.STRIPE_PRICE_PRO_MONTH, TEST_PRICES.STRIPE_PRICE_SCALE_MONTH);
    expect(await deliver(event, { signature: good.signature, body: tampered })).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
    expect((await overview(a.api))).toMatchObject({ plan: 'free', subscription: null, changes: [] });
    expect(await deliver(event)).toMatchObject({ status: 200, body: { outcome: 'applied' } });
    expect((await overview(a.api)).plan).toBe('pro');
  });

  it('a signature older than 5 minutes is refused; one just inside is accepted', async () => {
    const a = await account();
    await rt.deps.billing.saveCustomer(a.id, 'cus_stale');
    const make = () => stripeEvent('customer.subscription.created', subscriptionObject({ id: 'sub_stale', customer: 'cus_stale', price: TEST_PRICES.STRIPE_PRICE_PRO_MONTH, periodEnd: nowSec() + 86_400 * 20 }), nowSec() - 400);
    expect(await deliver(make(), { timestampSec: nowSec() - 301 })).toMatchObject({ status: 400, body: { code: 'invalid_signature', error: expect.stringMatching(/older than 5 minutes/) } });
    expect((await overview(a.api)).plan).toBe('free');
    expect(await deliver(make(), { timestampSec: nowSec() - 290 })).toMatchObject({ status: 200, body: { outcome: 'applied' } });
  });

  it('a signature dated beyond the 5-minute tolerance in the future is refused too', async () => {
    const a = await account();
    await rt.deps.billing.saveCustomer(a.id, 'cus_future');
    const event = stripeEvent('customer.subscription.created', subscriptionObject({ id: 'sub_future', customer: 'cus_future', price: TEST_PRICES.STRIPE_PRICE_PRO_MONTH, periodEnd: nowSec() + 86_400 * 20 }), nowSec());
    expect(await deliver(event, { timestampSec: nowSec() + 3600 })).toMatchObject({ status: 400, body: { code: 'invalid_signature', error: expect.stringMatching(/future/) } });
    expect((await overview(a.api)).plan).toBe('free');
  });
});

describe('end to end', () => {
  it('checkout → webhook → Pro → a Pro-only action works; cancel → Free at the period end (injected clock), nothing deleted', async () => {
    const a = await account();
    expect((await a.api('POST', '/api/billing/checkout', { plan: 'pro' })).status).toBe(200);
    const session = formOf(fake.calls('/v1/checkout/sessions').at(-1)!);
    const customer = session.customer;
    const periodEnd = nowSec() + 30 * 86_400;

    // Stripe: the customer paid; the subscription exists; the checkout completed.
    const sub = (o: Partial<Parameters<typeof subscriptionObject>[0]> = {}) => subscriptionObject({ id: 'sub_e2e', customer, price: TEST_PRICES.STRIPE_PRICE_PRO_MONTH, periodEnd, accountId: a.id, ...o });
    expect((await deliver(stripeEvent('customer.subscription.created', sub(), nowSec()))).status).toBe(200);
    expect((await deliver(stripeEvent('checkout.session.completed', { ...checkoutSessionObject({ accountId: a.id, customer, subscription: 'sub_e2e', plan: 'pro' }), id: 'cs_e2e' }, nowSec()))).status).toBe(200);
    expect((await a.api('GET', '/api/me')).body.plan).toBe('pro');
    expect((await a.api('GET', '/api/x')).body).toMatchObject({ plan: 'pro', credits: 500, available: true });

    // Pro-only: more brands than Starter's 3 (Free has 1)
    for (const name of ['One', 'Two', 'Three', 'Four']) expect((await a.api('POST', '/api/brands', { name })).status).toBe(200);

    // cancel in the portal: at the period end
    expect((await deliver(stripeEvent('customer.subscription.updated', sub({ cancelAtPeriodEnd: true }), nowSec() + 1))).body.outcome).toBe('applied');
    let o = await overview(a.api);
    expect(o.plan).toBe('pro');
    expect(o.pending_change).toEqual({ plan: 'free', at: new Date(periodEnd * 1000).toISOString(), reason: 'cancel' });

    try {
      handlersClock.shift(periodEnd * 1000 - 1000 - Date.now());
      expect((await a.api('GET', '/api/me')).body.plan).toBe('pro');
      handlersClock.shift(periodEnd * 1000 + 1000 - Date.now());
      expect((await a.api('GET', '/api/me')).body.plan).toBe('free');
      o = await overview(a.api);
      expect(o.pending_change).toBeNull();
      expect(o.changes.map((c) => [c.from, c.to, c.by, c.reason])).toEqual([['pro', 'free', 'system', 'canceled_at_period_end'], ['free', 'pro', 'stripe', 'upgraded']]);
      // the brands over Free's limit stay; a new one is refused with the plan's code and an upgrade link
      expect(((await a.api('GET', '/api/brands')).body.brands as unknown[]).length).toBe(5);
      const refused = await a.api('POST', '/api/brands', { name: 'Five' });
      expect(refused).toMatchObject({ status: 400, body: { code: 'brand_limit_reached', upgrade_url: expect.any(String) } });
      // Stripe's deletion at the period end changes nothing more
      expect((await deliver(stripeEvent('customer.subscription.deleted', sub({ status: 'canceled' }), periodEnd + 1))).status).toBe(200);
      expect((await overview(a.api)).changes).toHaveLength(2);
    } finally {
      handlersClock.shift(0);
    }
  });
});

describe('the Plan page (dashboard session)', () => {
  it('checkout and portal buttons go to Stripe (CSRF required); after the webhook the page shows the subscription and the plan changes', async () => {
    const a = await account();
    const session = await signInThroughOutbox(rt.url, a.email);
    const before = await session.get('/dashboard/plan?plan=agency');
    expect(before.status).toBe(200);
    expect(before.headers.get('content-security-policy')).toContain("form-action 'self' https://checkout.stripe.com https://billing.stripe.com");
    const page = await before.text();
    expect(page).toContain('<form method="post" action="/dashboard/plan/checkout">');
    expect(page).toContain('<option value="agency" selected>');
    expect(page).toContain('<label for="checkout-plan">Plan</label>');
    expect(page).toContain('<form method="post" action="/dashboard/plan/portal">');
    expect(page).toContain('No plan changes yet.');

    const sessionsBefore = fake.calls('/v1/checkout/sessions').length;
    expect((await session.post('/dashboard/plan/checkout', { plan: 'pro', interval: 'year' }, { csrf: false })).status).toBe(403);
    expect(fake.calls('/v1/checkout/sessions')).toHaveLength(sessionsBefore);
    const bad = await session.post('/dashboard/plan/checkout', { plan: 'gold' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('role="alert"');

    const go = await session.post('/dashboard/plan/checkout', { plan: 'pro', interval: 'year' });
    expect(go.status).toBe(303);
    expect(go.headers.get('location')).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const form = formOf(fake.calls('/v1/checkout/sessions').at(-1)!);
    expect(form).toMatchObject({ client_reference_id: a.id, 'line_items[0][price]': TEST_PRICES.STRIPE_PRICE_PRO_YEAR });

    const back = await session.get('/dashboard/plan?checkout=success&session_id=cs_test_x');
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('Your plan changes as soon as Stripe confirms the payment');

    const periodEnd = nowSec() + 365 * 86_400;
    const sub = subscriptionObject({ id: 'sub_page', customer: form.customer, price: TEST_PRICES.STRIPE_PRICE_PRO_YEAR, periodEnd });
    expect((await deliver(stripeEvent('customer.subscription.created', sub, nowSec()))).body.outcome).toBe('applied');
    let html = await (await session.get('/dashboard/plan')).text();
    expect(html).toContain('Subscription: <b>pro</b>, billed yearly (active)');
    expect(html).not.toContain('action="/dashboard/plan/checkout"');
    expect(html).toMatch(/<tr><td>[^<]+ UTC<\/td><td>free<\/td><td>pro<\/td><td>upgrade<\/td><td>Stripe<br><code>evt_/);

    const portal = await session.post('/dashboard/plan/portal');
    expect(portal.status).toBe(303);
    expect(portal.headers.get('location')).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(formOf(fake.calls('/v1/billing_portal/sessions').at(-1)!)).toEqual({ customer: form.customer, return_url: `${rt.url}/dashboard/plan` });

    expect((await deliver(stripeEvent('customer.subscription.updated', { ...sub, cancel_at_period_end: true }, nowSec() + 1))).body.outcome).toBe('applied');
    html = await (await session.get('/dashboard/plan')).text();
    expect(html).toContain('Canceled: you keep <b>pro</b> until');
  });
});

import { startTestTable, testDeps, type TestTable } from '../support/deps';
import { DynamoBillingStore } from '../../shared/adapters/dynamodb/billing';
import { StripePayments, priceTableFrom } from '../../shared/adapters/stripe/stripe-payments';
import { PlanLifecycleAccounts } from '../../shared/app/billing/plan-state';
import { receiveProviderEvent } from '../../shared/app/billing/webhook';
import { signup, confirmSignup } from '../../shared/app/signup';
import { TEST_PRICES, TEST_SECRET_KEY, TEST_WEBHOOK_SECRET, signedDelivery, stripeEvent, subscriptionObject, invoiceObject } from '../fakes/stripe';

/** Billing invariants against the embedded DynamoDB, with real concurrency. */
let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => ({ table, stop } = await startTestTable()));
afterAll(() => stop());

const payments = new StripePayments(async () => ({ secretKey: TEST_SECRET_KEY, webhookSecret: TEST_WEBHOOK_SECRET, prices: priceTableFrom((n) => (TEST_PRICES as Record<string, string>)[n]) }));

function billingDeps() {
  const t = testDeps(table, { payments });
  return { ...t, deps: t.rebuild((chosen) => ({ accounts: new PlanLifecycleAccounts(chosen.accounts, chosen) })) };
}

let n = 0;
async function newAccount() {
  const t = billingDeps();
  await signup(t.deps, { email: `store${++n}@example.com`, ip: `192.0.2.${n}` });
  const token = new URL(t.mailer.sent[0].links[0]).searchParams.get('token')!;
  const { account } = await confirmSignup(t.deps, token);
  return { ...t, accountId: account.id };
}

describe('billing store (dynalite)', () => {
  it('50 racing claims of one event: exactly one wins; a finished event stays done; a dead claim is taken over after its lease', async () => {
    const store = new DynamoBillingStore(table);
    const now = Date.now();
    const claims = await Promise.all(Array.from({ length: 50 }, () => store.claimEvent('evt_race', 'subscription', now, 60_000)));
    expect(claims.filter((c) => c === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c === 'busy')).toHaveLength(49);
    expect(await store.claimEvent('evt_race', 'subscription', now + 60_001, 60_000)).toBe('claimed');
    await store.finishEvent('evt_race', 'applied', now);
    expect(await store.claimEvent('evt_race', 'subscription', now + 10 * 60_000, 60_000)).toBe('done');
  });

  it('one customer per account: racing links with different customers all answer the winner', async () => {
    const { accountId } = await newAccount();
    const store = new DynamoBillingStore(table);
    const held = await Promise.all(Array.from({ length: 10 }, (_, i) => store.saveCustomer(accountId, `cus_race${i}`)));
    expect(new Set(held).size).toBe(1);
    expect(await store.findAccountByCustomer(held[0])).toBe(accountId);
  });

  it('concurrent distinct events on one account: each applied once, the newest state wins, every change recorded in order', async () => {
    const { deps, accountId } = await newAccount();
    await deps.billing.saveCustomer(accountId, 'cus_conc');
    const t = Math.floor(Date.now() / 1000);
    const periodEnd = t + 20 * 86_400;
    const prices = [TEST_PRICES.STRIPE_PRICE_STARTER_MONTH, TEST_PRICES.STRIPE_PRICE_PRO_MONTH, TEST_PRICES.STRIPE_PRICE_AGENCY_MONTH, TEST_PRICES.STRIPE_PRICE_SCALE_MONTH];
    const events = [
      ...prices.map((price, i) => stripeEvent(i === 0 ? 'customer.subscription.created' : 'customer.subscription.updated', subscriptionObject({ id: 'sub_conc', customer: 'cus_conc', price, periodEnd }), t + i)),
      ...[4, 5, 6, 7].map((i) => stripeEvent(i % 2 ? 'invoice.paid' : 'invoice.payment_failed', invoiceObject({ id: `in_${i}`, customer: 'cus_conc', subscription: 'sub_conc' }), t + i)),
    ];
    const results = await Promise.all(events.map((e) => {
      const { payload, signature } = signedDelivery(e, { timestampSec: t });
      return receiveProviderEvent(deps, Buffer.from(payload), signature);
    }));
    expect(results.every((r) => r.outcome === 'applied' || r.outcome === 'stale')).toBe(true);
    const account = (await deps.accounts.get(accountId))!;
    expect(account.plan).toBe('scale');
    expect(account.billing).toMatchObject({ subscription_id: 'sub_conc', plan: 'scale', state_at: t + 3, payment_at: t + 7 });
    expect(account.billing!.grace_until).toBeUndefined();
    const changes = (await deps.billing.listChanges(accountId, 50)).reverse();
    expect(changes[0].from).toBe('free');
    expect(changes.at(-1)!.to).toBe('scale');
    for (let i = 1; i < changes.length; i++) expect(changes[i].from).toBe(changes[i - 1].to);
    // replays of all of them change nothing
    const again = await Promise.all(events.map((e) => { const d = signedDelivery(e, { timestampSec: t }); return receiveProviderEvent(deps, Buffer.from(d.payload), d.signature); }));
    expect(again.every((r) => r.duplicate === true)).toBe(true);
    expect((await deps.accounts.get(accountId))!.billing_version).toBe(account.billing_version);
  });

  it('racing reads after the period end apply the scheduled change once and record it once', async () => {
    const { deps, accountId, clock } = await newAccount();
    await deps.billing.saveCustomer(accountId, 'cus_read');
    const t = Math.floor(clock.now() / 1000);
    const periodEnd = t + 86_400;
    for (const [i, e] of [
      stripeEvent('customer.subscription.created', subscriptionObject({ id: 'sub_read', customer: 'cus_read', price: TEST_PRICES.STRIPE_PRICE_PRO_MONTH, periodEnd }), t),
      stripeEvent('customer.subscription.updated', subscriptionObject({ id: 'sub_read', customer: 'cus_read', price: TEST_PRICES.STRIPE_PRICE_STARTER_MONTH, periodEnd }), t + 1),
    ].entries()) {
      const d = signedDelivery(e, { timestampSec: t + i });
      expect((await receiveProviderEvent(deps, Buffer.from(d.payload), d.signature)).outcome).toBe('applied');
    }
    expect((await deps.accounts.get(accountId))!.plan).toBe('pro');
    clock.advance(86_400_000 + 1000);
    const reads = await Promise.all(Array.from({ length: 20 }, () => deps.accounts.get(accountId)));
    expect(reads.every((a) => a!.plan === 'starter')).toBe(true);
    const changes = await deps.billing.listChanges(accountId, 50);
    expect(changes.map((c) => [c.from, c.to, c.by, c.reason])).toEqual([['pro', 'starter', 'system', 'downgraded_at_period_end'], ['free', 'pro', 'stripe', 'upgraded']]);
  });

  it('a read answers the plan in force even when storing the change fails (the next read stores it)', async () => {
    const { deps, accountId, clock } = await newAccount();
    const store = new DynamoBillingStore(table);
    await store.saveState(accountId, 0, { plan: 'pro', billing: { pending: { plan: 'free', at: new Date(clock.now() + 1000).toISOString(), reason: 'cancel' } } });
    clock.advance(2000);
    const failing = Object.assign(Object.create(store) as DynamoBillingStore, { saveState: async () => { throw new Error('table unavailable'); } });
    const reader = new PlanLifecycleAccounts(testDeps(table).deps.accounts, { clock, billing: failing });
    expect((await reader.get(accountId))!.plan).toBe('free');
    expect(await store.listChanges(accountId, 10)).toEqual([]);
    expect((await deps.accounts.get(accountId))!.plan).toBe('free');
    expect((await store.listChanges(accountId, 10)).map((c) => [c.from, c.to, c.reason])).toEqual([['pro', 'free', 'canceled_at_period_end']]);
  });
});

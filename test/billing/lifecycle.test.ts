import { applyEvent, settle, GRACE_DAYS, type BillingEvent, type PlanState, type SubscriptionSnapshot } from '../../shared/domain/billing';

const T0 = Date.UTC(2026, 10, 1, 12); // now, ms
const sec = (ms: number) => Math.floor(ms / 1000);
const DAY = 86_400_000;
const periodEnd = sec(T0 + 20 * DAY);
const free: PlanState = { plan: 'free', billing: {} };

const sub = (o: Partial<SubscriptionSnapshot> & { created: number; action?: 'created' | 'updated' | 'deleted' }): BillingEvent => ({
  kind: 'subscription', id: `evt_${Math.random()}`, created: o.created, action: o.action ?? 'updated',
  subscription: { id: 'sub_1', customer_id: 'cus_1', status: 'active', plan: 'pro', interval: 'month', price_id: 'price_pro_m', current_period_end: periodEnd, cancel_at_period_end: false, ...o },
});
const invoice = (action: 'paid' | 'payment_failed', created: number, subscription_id = 'sub_1'): BillingEvent =>
  ({ kind: 'invoice', id: `evt_${Math.random()}`, created, action, invoice_id: 'in_1', customer_id: 'cus_1', subscription_id });

function run(state: PlanState, events: BillingEvent[], now = T0) {
  let s = state;
  const changes = [];
  for (const e of events) { const step = applyEvent(s, e, now); s = step.state; changes.push(...step.changes); }
  return { state: s, changes };
}

describe('plan lifecycle (shared/domain/billing)', () => {
  it('checkout completed upgrades at once; an unpaid checkout changes nothing', () => {
    const paid = applyEvent(free, { kind: 'checkout_completed', id: 'e1', created: sec(T0), session_id: 'cs', subscription_id: 'sub_1', plan: 'pro', interval: 'month', paid: true }, T0);
    expect(paid.state.plan).toBe('pro');
    expect(paid.changes).toEqual([{ from: 'free', to: 'pro', reason: 'upgraded' }]);
    const unpaid = applyEvent(free, { kind: 'checkout_completed', id: 'e2', created: sec(T0), session_id: 'cs', subscription_id: 'sub_1', plan: 'pro', paid: false }, T0);
    expect(unpaid).toMatchObject({ state: free, changes: [], outcome: 'ignored' });
  });

  it('a downgrade waits for the period end, then applies on settle', () => {
    const { state } = run(free, [sub({ created: sec(T0) - 10 }), sub({ created: sec(T0), plan: 'starter', price_id: 'price_starter_m' })]);
    expect(state.plan).toBe('pro');
    expect(state.billing.pending).toEqual({ plan: 'starter', at: new Date(periodEnd * 1000).toISOString(), reason: 'downgrade' });
    expect(settle(state, periodEnd * 1000 - 1).change).toBeUndefined();
    const after = settle(state, periodEnd * 1000);
    expect(after.state.plan).toBe('starter');
    expect(after.change).toEqual({ from: 'pro', to: 'starter', reason: 'downgraded_at_period_end' });
    expect(after.state.billing.pending).toBeUndefined();
  });

  it('a downgrade Stripe applies at the renewal (a scheduled change in the portal) takes effect at once', () => {
    const renewal = periodEnd * 1000 + 5000;
    const paidPro = run(free, [sub({ created: periodEnd - 100 })], renewal - 10_000).state;
    const renewed = applyEvent(paidPro, sub({ created: periodEnd + 1, plan: 'starter', price_id: 'price_starter_m', current_period_end: periodEnd + 30 * 86_400 }), renewal);
    expect(renewed.state.plan).toBe('starter');
    expect(renewed.changes).toEqual([{ from: 'pro', to: 'starter', reason: 'downgraded' }]);
    expect(renewed.state.billing.pending).toBeUndefined();
  });

  it('a downgrade that also restarts the billing period still waits for the end of the period paid for', () => {
    const { state } = run(free, [sub({ created: 1 }), sub({ created: 2, plan: 'starter', current_period_end: sec(T0) + 30 * 86_400 })]);
    expect(state.plan).toBe('pro');
    expect(state.billing.pending).toEqual({ plan: 'starter', at: new Date(periodEnd * 1000).toISOString(), reason: 'downgrade' });
  });

  it('switching back before the period end drops the pending downgrade', () => {
    const { state } = run(free, [sub({ created: 1 }), sub({ created: 2, plan: 'starter' }), sub({ created: 3, plan: 'pro' })]);
    expect(state).toMatchObject({ plan: 'pro' });
    expect(state.billing.pending).toBeUndefined();
  });

  it('cancel at period end keeps the plan until then; the deletion afterwards is Free (no second change)', () => {
    const { state } = run(free, [sub({ created: 1 }), sub({ created: 2, cancel_at_period_end: true })]);
    expect(state.plan).toBe('pro');
    expect(state.billing.pending).toMatchObject({ plan: 'free', reason: 'cancel' });
    const settled = settle(state, periodEnd * 1000);
    expect(settled.change).toEqual({ from: 'pro', to: 'free', reason: 'canceled_at_period_end' });
    const deleted = applyEvent(settled.state, sub({ created: periodEnd, action: 'deleted', status: 'canceled' }), periodEnd * 1000);
    expect(deleted.state.plan).toBe('free');
    expect(deleted.changes).toEqual([]);
  });

  it('reactivating a cancellation before the period end drops the pending Free', () => {
    const { state } = run(free, [sub({ created: 1, cancel_at_period_end: true }), sub({ created: 2, cancel_at_period_end: false })]);
    expect(state.plan).toBe('pro');
    expect(state.billing.pending).toBeUndefined();
  });

  it('out of order: an older update cannot roll the plan back, and a deletion is final', () => {
    const newerFirst = run(free, [sub({ created: 20, plan: 'agency' }), sub({ created: 10, plan: 'pro' })]);
    expect(newerFirst.state.plan).toBe('agency');
    expect(applyEvent(newerFirst.state, sub({ created: 5, plan: 'starter' }), T0).outcome).toBe('stale');
    const deletedFirst = run(free, [sub({ created: 30, action: 'deleted', status: 'canceled' }), sub({ created: 10, plan: 'pro' })]);
    expect(deletedFirst.state.plan).toBe('free');
    const createdLate = run({ plan: 'pro', billing: {} }, [sub({ created: 10 }), sub({ created: 30, action: 'deleted', status: 'canceled' }), sub({ created: 20, plan: 'scale' })]);
    expect(createdLate.state.plan).toBe('free');
  });

  it('a failed payment keeps the plan for the grace period, then Free; a later payment restores it', () => {
    const failedAt = sec(T0);
    const { state } = run(free, [sub({ created: failedAt - 5 }), invoice('payment_failed', failedAt)]);
    expect(state.plan).toBe('pro');
    expect(state.billing.grace_until).toBe(new Date((failedAt * 1000) + GRACE_DAYS * DAY).toISOString());
    expect(settle(state, T0 + GRACE_DAYS * DAY - 1000).change).toBeUndefined();
    const ended = settle(state, T0 + GRACE_DAYS * DAY);
    expect(ended.change).toEqual({ from: 'pro', to: 'free', reason: 'payment_failed_grace_ended' });
    const paid = applyEvent(ended.state, invoice('paid', failedAt + 8 * 86_400), T0 + 8 * DAY);
    expect(paid.state.plan).toBe('pro');
    expect(paid.changes).toEqual([{ from: 'free', to: 'pro', reason: 'upgraded' }]);
    expect(paid.state.billing.grace_until).toBeUndefined();
  });

  it('a payment within the grace period clears it; an older failure arriving late is stale', () => {
    const { state } = run(free, [sub({ created: 1 }), invoice('payment_failed', 10), invoice('paid', 20), invoice('payment_failed', 15)]);
    expect(state.billing.grace_until).toBeUndefined();
    expect(settle(state, T0 + 30 * DAY).state.plan).toBe('pro');
  });

  it("another subscription's end does not touch the current one", () => {
    const { state } = run(free, [sub({ created: 10, id: 'sub_new' }), sub({ created: 20, id: 'sub_old', action: 'deleted', status: 'canceled' })]);
    expect(state).toMatchObject({ plan: 'pro', billing: { subscription_id: 'sub_new' } });
  });
});

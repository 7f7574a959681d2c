import { PLAN_NAMES, type PlanName } from './plans';

/**
 * The plan lifecycle (docs/decisions.md "Billing"): how the account's plan follows its subscription. Pure
 * functions over the stored state and a time, so the same rules serve the webhook (an event arrives) and every read
 * of the account (a scheduled change or a grace period has come due). No provider types here.
 */
export const PAID_PLANS = ['starter', 'pro', 'agency', 'scale'] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];
export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** Days a failed payment keeps the paid plan before the account falls back to Free. */
export const GRACE_DAYS = 7;
const DAY_MS = 86_400_000;

/** Subscription states in which the customer keeps the plan they pay for (past_due: inside the grace period). */
const LIVE = new Set(['active', 'trialing', 'past_due']);
/** Terminal or unpaid states: the plan is Free at once. */
const ENDED = new Set(['canceled', 'incomplete_expired', 'unpaid', 'paused']);
export const isLive = (status: string | undefined) => status !== undefined && LIVE.has(status);
export const isEnded = (status: string | undefined) => status !== undefined && ENDED.has(status);

export const planRank = (plan: PlanName) => PLAN_NAMES.indexOf(plan);

/** A plan change that takes effect later (at the end of the paid period). */
export interface PendingChange {
  plan: PlanName;
  /** ISO instant. */
  at: string;
  reason: 'downgrade' | 'cancel';
}

/** What the service knows of the account's subscription, stored on the account item. */
export interface AccountBilling {
  subscription_id?: string;
  /** The provider's subscription status (active, trialing, past_due, canceled, …). */
  status?: string;
  /** The plan the subscription pays for. */
  plan?: PlanName;
  interval?: BillingInterval;
  price_id?: string;
  /** ISO instant the paid period ends. */
  current_period_end?: string;
  cancel_at_period_end?: boolean;
  pending?: PendingChange;
  /** ISO instant: a failed payment keeps the plan until then (then Free, unless a payment arrives). */
  grace_until?: string;
  /** Creation time (epoch seconds) of the newest subscription-state event applied: older ones are stale. */
  state_at?: number;
  /** Creation time (epoch seconds) of the newest payment event applied. */
  payment_at?: number;
}

/** One recorded plan change: who, when, from, to, why, and the provider's ids. */
export interface PlanChange {
  at: string;
  from: PlanName;
  to: PlanName;
  /** stripe: a webhook event; system: a scheduled change or the end of a grace period; dev: POST /dev/plan. */
  by: 'stripe' | 'system' | 'dev';
  reason: string;
  event_id?: string;
  customer_id?: string;
  subscription_id?: string;
  price_id?: string;
}

/** The subscription as an event shows it, its price already resolved to one of our plans (undefined: unknown). */
export interface SubscriptionSnapshot {
  id: string;
  customer_id?: string;
  status: string;
  price_id?: string;
  plan?: PlanName;
  interval?: BillingInterval;
  /** Epoch seconds. */
  current_period_end?: number;
  cancel_at_period_end: boolean;
  /** Epoch seconds: a cancellation date set in the portal. */
  cancel_at?: number;
  account_id?: string;
}

/** A verified provider event, in the service's own terms. `created` is epoch seconds. */
export type BillingEvent =
  | { kind: 'checkout_completed'; id: string; created: number; session_id: string; account_id?: string; customer_id?: string; subscription_id?: string; plan?: PlanName; interval?: BillingInterval; paid: boolean }
  | { kind: 'subscription'; id: string; created: number; action: 'created' | 'updated' | 'deleted'; subscription: SubscriptionSnapshot }
  | { kind: 'invoice'; id: string; created: number; action: 'paid' | 'payment_failed'; invoice_id: string; customer_id?: string; subscription_id?: string }
  | { kind: 'ignored'; id: string; created: number; type: string; customer_id?: string };

export interface PlanState {
  plan: PlanName;
  billing: AccountBilling;
}

export interface StepChange {
  from: PlanName;
  to: PlanName;
  reason: string;
}

export interface Step {
  state: PlanState;
  changes: StepChange[];
  /** applied: the state moved; stale: older than what is known; ignored: not about the current subscription. */
  outcome: 'applied' | 'stale' | 'ignored';
}

const iso = (ms: number) => new Date(ms).toISOString();
const secToIso = (s: number | undefined) => (s === undefined ? undefined : iso(s * 1000));
const clean = (b: AccountBilling): AccountBilling =>
  Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as AccountBilling;

/**
 * The plan in force at `nowMs`: a pending change whose time has come, or the end of a grace period, applies.
 * Answers the state to store and the change made (none when nothing came due).
 */
export function settle(state: PlanState, nowMs: number): { state: PlanState; change?: StepChange } {
  const { plan, billing } = state;
  if (billing.grace_until && nowMs >= Date.parse(billing.grace_until) && plan !== 'free') {
    return { state: { plan: 'free', billing: clean({ ...billing, pending: undefined }) }, change: { from: plan, to: 'free', reason: 'payment_failed_grace_ended' } };
  }
  if (billing.pending && nowMs >= Date.parse(billing.pending.at)) {
    const to = billing.pending.plan;
    const next = { plan: to, billing: clean({ ...billing, pending: undefined }) };
    if (to === plan) return { state: next };
    return { state: next, change: { from: plan, to, reason: billing.pending.reason === 'cancel' ? 'canceled_at_period_end' : 'downgraded_at_period_end' } };
  }
  return { state };
}

/** The plan the subscription entitles the account to now; undefined when it says nothing (no or unpaid subscription). */
function entitled(billing: AccountBilling, nowMs: number): { plan: PlanName; immediate: boolean } | undefined {
  if (!billing.subscription_id) return undefined;
  if (isEnded(billing.status)) return { plan: 'free', immediate: true };
  if (!isLive(billing.status) || !billing.plan) return undefined;
  if (billing.grace_until && nowMs >= Date.parse(billing.grace_until)) return { plan: 'free', immediate: true };
  return { plan: billing.plan, immediate: false };
}

/**
 * Moves the plan toward what the subscription entitles: an upgrade at once; a downgrade at the end of the period
 * the higher plan was paid for (`paidUntil`: the period end known before the event; so a downgrade Stripe itself
 * applies at a renewal takes effect at once); a canceled, unpaid or ended subscription (or an expired grace period)
 * at once; a cancellation requested for the period end becomes a pending change to Free.
 */
function follow(state: PlanState, nowMs: number, paidUntilIso?: string): { state: PlanState; change?: StepChange } {
  const { billing } = state;
  let plan = state.plan;
  let pending = billing.pending;
  let change: StepChange | undefined;
  const target = entitled(billing, nowMs);
  if (target) {
    const periodEnd = billing.current_period_end ? Date.parse(billing.current_period_end) : undefined;
    const paidUntil = paidUntilIso ? Date.parse(paidUntilIso) : periodEnd;
    if (planRank(target.plan) > planRank(plan)) {
      change = { from: plan, to: target.plan, reason: 'upgraded' };
      plan = target.plan;
      pending = undefined;
    } else if (planRank(target.plan) < planRank(plan)) {
      if (target.immediate || paidUntil === undefined || paidUntil <= nowMs) {
        change = { from: plan, to: target.plan, reason: target.plan === 'free' ? 'subscription_ended' : 'downgraded' };
        plan = target.plan;
        pending = undefined;
      } else {
        pending = { plan: target.plan, at: iso(paidUntil), reason: 'downgrade' };
      }
    } else if (pending?.reason === 'downgrade') {
      pending = undefined;
    }
    if (isLive(billing.status) && plan !== 'free') {
      if (billing.cancel_at_period_end && periodEnd !== undefined) {
        if (periodEnd <= nowMs) {
          change = { from: change?.from ?? plan, to: 'free', reason: 'canceled_at_period_end' };
          plan = 'free';
          pending = undefined;
        } else {
          pending = { plan: 'free', at: iso(periodEnd), reason: 'cancel' };
        }
      } else if (pending?.reason === 'cancel') {
        pending = undefined;
      }
    }
    if (plan === 'free') pending = undefined;
  }
  if (change && change.from === change.to) change = undefined;
  return { state: { plan, billing: clean({ ...billing, pending }) }, change };
}

/**
 * Applies one verified event to the account's plan state at `nowMs`.
 * 1. Whatever came due before it (a pending change, the end of a grace period) applies first.
 * 2. The event updates what is known of the subscription, unless it is older than what is known (stale: a
 *    subscription's state by event time, payments by their own time) or about another subscription; a
 *    subscription's end is final whatever the order.
 * 3. The plan follows the subscription (see `follow`).
 */
export function applyEvent(start: PlanState, event: BillingEvent, nowMs: number): Step {
  const changes: StepChange[] = [];
  const due = settle(start, nowMs);
  if (due.change) changes.push(due.change);
  const state = due.state;
  const b = state.billing;
  const done = (billing: AccountBilling): Step => {
    const next = follow({ plan: state.plan, billing }, nowMs, b.current_period_end);
    if (next.change) changes.push(next.change);
    return { state: next.state, changes, outcome: 'applied' };
  };
  const skip = (outcome: 'stale' | 'ignored'): Step => ({ state, changes, outcome });

  switch (event.kind) {
    case 'checkout_completed': {
      if (!event.paid || !event.subscription_id || !event.plan) return skip('ignored');
      const same = b.subscription_id === event.subscription_id;
      if (same && isEnded(b.status)) return skip('ignored');
      if (b.state_at !== undefined && event.created < b.state_at && (same || isLive(b.status))) return skip('stale');
      return done(same
        ? { ...b, status: isLive(b.status) ? b.status : 'active', plan: event.plan, interval: event.interval ?? b.interval, state_at: event.created }
        : { subscription_id: event.subscription_id, status: 'active', plan: event.plan, interval: event.interval, state_at: event.created });
    }
    case 'subscription': {
      const s = event.subscription;
      const same = b.subscription_id === s.id;
      if (same && isEnded(b.status)) return skip('ignored');
      if (event.action === 'deleted' || isEnded(s.status)) {
        if (b.subscription_id && !same) return skip('ignored');
        return done({ ...b, subscription_id: s.id, status: isEnded(s.status) ? s.status : 'canceled', cancel_at_period_end: undefined, pending: undefined, grace_until: undefined, state_at: Math.max(b.state_at ?? 0, event.created) });
      }
      if (b.state_at !== undefined && event.created < b.state_at) return skip('stale');
      if (!s.plan) return skip('ignored');
      const periodEnd = s.cancel_at ?? s.current_period_end;
      return done({
        ...(same ? b : { pending: b.pending }),
        subscription_id: s.id, status: s.status, plan: s.plan, interval: s.interval, price_id: s.price_id,
        current_period_end: secToIso(periodEnd), cancel_at_period_end: s.cancel_at_period_end || s.cancel_at !== undefined,
        state_at: event.created,
      });
    }
    case 'invoice': {
      if (event.subscription_id && b.subscription_id && event.subscription_id !== b.subscription_id) return skip('ignored');
      if (b.payment_at !== undefined && event.created < b.payment_at) return skip('stale');
      if (event.action === 'paid') return done({ ...b, grace_until: undefined, payment_at: event.created });
      return done({ ...b, grace_until: b.grace_until ?? iso(event.created * 1000 + GRACE_DAYS * DAY_MS), payment_at: event.created });
    }
    case 'ignored':
      return skip('ignored');
  }
}

/** A price in US dollars as people read one: always two decimals, thousands grouped (86.4 → "86.40", 2870.4 → "2,870.40"). */
export const formatUsd = (amount: number): string =>
  amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

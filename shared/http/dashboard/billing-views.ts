import type { billingOverview } from '../../app/billing/overview';
import { formatUsd, PAID_PLANS, type PaidPlan } from '../../domain/billing';
import { PLANS } from '../../domain/plans';
import { escapeHtml as e } from '../reply';
import { csrfField, notice } from './layout';

/** Stripe's hosted pages: the checkout and portal forms end in a 303 there, so the Plan page's CSP allows them. */
export const STRIPE_PAGE_ORIGINS = ['https://checkout.stripe.com', 'https://billing.stripe.com'];

type Overview = Awaited<ReturnType<typeof billingOverview>>;

const when = (isoAt: string) => new Date(isoAt).toUTCString().replace(' GMT', ' UTC');
const REASONS: Record<string, string> = {
  upgraded: 'upgrade', downgraded: 'downgrade', subscription_ended: 'subscription ended', downgraded_at_period_end: 'downgrade at the period end',
  canceled_at_period_end: 'canceled at the period end', payment_failed_grace_ended: 'payment failed, grace period over', set_without_billing: 'set without billing (local)',
};
const BY: Record<string, string> = { stripe: 'Stripe', system: 'schedule', dev: '/dev/plan' };

function subscriptionText(o: Overview): string {
  const s = o.subscription;
  if (!s || !s.live) return '<p>You have no paid subscription.</p>';
  const interval = s.interval === 'year' ? 'yearly' : 'monthly';
  let text = `<p>Subscription: <b>${e(s.plan ?? o.plan)}</b>, billed ${interval} (${e(s.status)})`;
  if (s.current_period_end) text += `; the current period ends ${e(when(s.current_period_end))}`;
  text += '.</p>';
  if (o.pending_change) {
    text += o.pending_change.reason === 'cancel'
      ? `<p>Canceled: you keep <b>${e(o.plan)}</b> until ${e(when(o.pending_change.at))}, then the plan is <b>free</b>.</p>`
      : `<p>Your plan changes to <b>${e(o.pending_change.plan)}</b> on ${e(when(o.pending_change.at))}.</p>`;
  }
  if (o.grace_until && o.plan !== 'free') {
    text += notice('error', `A payment failed. Update your card in the billing portal by ${when(o.grace_until)}, or the plan becomes free then.`);
  }
  return text;
}

function checkoutForm(o: Overview, csrf: string, hint: string | undefined): string {
  const choices = PAID_PLANS.filter((p) => p !== o.plan);
  const selected: PaidPlan | undefined = choices.find((p) => p === hint) ?? choices.find((p) => p === 'pro') ?? choices[0];
  const options = choices.map((p) => `<option value="${p}"${p === selected ? ' selected' : ''}>${e(p)}: ${formatUsd(PLANS[p].price_usd_month)} USD a month or ${formatUsd(PLANS[p].price_usd_year)} USD a year</option>`).join('');
  return `<form method="post" action="/dashboard/plan/checkout">${csrfField(csrf)}` +
    `<label for="checkout-plan">Plan</label><select id="checkout-plan" name="plan">${options}</select>` +
    '<fieldset><legend>Billing interval</legend>' +
    '<label><input type="radio" name="interval" value="month" checked> Monthly</label>' +
    '<label><input type="radio" name="interval" value="year"> Yearly (20 % cheaper)</label></fieldset>' +
    '<button type="submit">Continue to checkout</button>' +
    '<p class="hint">Payment is taken on Stripe\'s checkout page; paid plans carry a 14-day refund.</p></form>';
}

function history(o: Overview): string {
  if (!o.changes.length) return '<h3 id="plan-history">Plan changes</h3><p>No plan changes yet.</p>';
  const rows = o.changes.map((c) => `<tr><td>${e(when(c.at))}</td><td>${e(c.from)}</td><td>${e(c.to)}</td><td>${e(REASONS[c.reason] ?? c.reason)}</td>` +
    `<td>${e(BY[c.by] ?? c.by)}${c.event_id ? `<br><code>${e(c.event_id)}</code>` : ''}</td></tr>`).join('');
  return '<h3 id="plan-history">Plan changes</h3><table aria-labelledby="plan-history"><thead><tr>' +
    '<th scope="col">When</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Why</th><th scope="col">By</th></tr></thead>' +
    `<tbody>${rows}</tbody></table>`;
}

/**
 * The Plan page's Billing section: the subscription, a change scheduled for the period end or a grace period, the
 * checkout form (no live subscription) or the portal button, and the plan-change history. Forms only: no script.
 */
export function billingSection(o: Overview, opts: { csrf: string; hint?: string; checkout?: 'success' | 'canceled'; message?: { kind: 'ok' | 'error'; text: string } }): string {
  let html = '';
  if (opts.message) html += notice(opts.message.kind, opts.message.text);
  if (opts.checkout === 'success') html += notice('ok', 'Thank you. Your plan changes as soon as Stripe confirms the payment (usually within seconds): reload this page.');
  if (opts.checkout === 'canceled') html += notice('ok', 'Checkout canceled: nothing was charged.');
  if (!o.billing_available) {
    html += '<p>Payments are not set up on this server.</p><p class="hint">On a local server, change the plan with <code>POST /dev/plan {"email", "plan"}</code>.</p>';
  } else {
    html += subscriptionText(o);
    if (!o.subscription?.live) html += checkoutForm(o, opts.csrf, opts.hint);
    html += `<form method="post" action="/dashboard/plan/portal">${csrfField(opts.csrf)}` +
      `<button type="submit"${o.subscription?.live ? '' : ' class="secondary"'}>Manage billing</button>` +
      '<p class="hint">Stripe\'s customer portal: change plan, update the card, cancel, download invoices.</p></form>';
  }
  return html + history(o);
}

import type { RouteDef } from '../../shared/http/route';
import * as bill from '../../shared/api/billing-schemas';
import { E, std } from './errors';

/** The Billing routes of THE route table (functions/routes.ts); each handler imports its own area's file only. */
export const billingRoutes = {
  postBillingCheckout: {
    id: 'post-billing-checkout', method: 'POST', path: '/api/billing/checkout', tag: 'Billing', auth: 'key', grants: ['table', 'billingConfig'],
    summary: 'A hosted Stripe Checkout for a paid plan (monthly, or yearly 20% cheaper): open url to subscribe',
    body: bill.CheckoutBody, rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: {
      200: { description: 'The checkout page', schema: bill.BillingUrlResponse }, 400: E('Invalid plan or interval'),
      409: E('plan_already_active, subscription_exists (change plans in the portal)'), 502: E('billing_provider_error'),
      503: E('billing_unavailable: billing is not configured here (locally: POST /dev/plan)'), ...std,
    },
  },
  postBillingPortal: {
    id: 'post-billing-portal', method: 'POST', path: '/api/billing/portal', tag: 'Billing', auth: 'key', grants: ['table', 'billingConfig'],
    summary: 'The Stripe customer portal: change plan, card, cancel, invoices',
    rateLimit: { limit: 30, windowSeconds: 3600 },
    responses: {
      200: { description: 'The portal page', schema: bill.BillingUrlResponse }, 502: E('billing_provider_error'),
      503: E('billing_unavailable: billing is not configured here (locally: POST /dev/plan)'), ...std,
    },
  },
  getBilling: {
    id: 'get-billing', method: 'GET', path: '/api/billing', tag: 'Billing', auth: 'key', grants: ['table', 'billingConfig'],
    summary: 'The plan in force, the subscription, a change scheduled for the period end, a grace period, and every plan change',
    responses: { 200: { description: 'Billing overview', schema: bill.BillingOverviewResponse }, ...std },
  },
  postBillingStripeWebhook: {
    id: 'post-billing-stripe-webhook', method: 'POST', path: '/billing/stripe-webhook', tag: 'Billing', auth: 'open', grants: ['table', 'billingConfig'],
    summary: "Stripe's webhook: signature checked over the raw body (5 minutes' tolerance); each event applied once",
    rawBody: true,
    responses: {
      200: { description: 'Received (applied, or a repeat that changed nothing)', schema: bill.ProviderWebhookResponse },
      400: E('invalid_signature: missing, wrong or older than 5 minutes (nothing changed)'), 409: E('event_in_progress: retry later'),
      503: E('billing_unavailable'),
    },
  },
} as const satisfies Record<string, RouteDef>;

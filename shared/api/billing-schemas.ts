import * as z from 'zod';
import { PLAN_NAMES } from '../domain/plans';
import { BILLING_INTERVALS, PAID_PLANS } from '../domain/billing';

/** Billing: checkout, the customer portal, the provider webhook's answer, the billing overview. */
/** POST /api/billing/checkout, and the Plan page's checkout form (url-encoded there; csrf is the middleware's). */
export const CheckoutBody = z.strictObject({
  plan: z.enum(PAID_PLANS),
  interval: z.enum(BILLING_INTERVALS).optional(),
}).meta({ id: 'CheckoutRequest' });
export const BillingUrlResponse = z.object({ url: z.url() }).meta({ id: 'BillingUrl' });
export const ProviderWebhookResponse = z.object({
  received: z.literal(true), event_id: z.string(), duplicate: z.boolean().optional(), outcome: z.string().optional(),
}).meta({ id: 'ProviderWebhookReceipt' });

const PlanChangeView = z.object({
  at: z.string(), from: z.enum(PLAN_NAMES), to: z.enum(PLAN_NAMES), by: z.enum(['stripe', 'system', 'dev']), reason: z.string(),
  event_id: z.string().optional(), customer_id: z.string().optional(), subscription_id: z.string().optional(), price_id: z.string().optional(),
}).meta({ id: 'PlanChange' });
export const BillingOverviewResponse = z.object({
  plan: z.enum(PLAN_NAMES),
  billing_available: z.boolean(),
  subscription: z.object({
    status: z.string(), live: z.boolean(), plan: z.enum(PLAN_NAMES).nullable(), interval: z.enum(BILLING_INTERVALS).nullable(),
    current_period_end: z.string().nullable(), cancel_at_period_end: z.boolean(),
  }).nullable(),
  pending_change: z.object({ plan: z.enum(PLAN_NAMES), at: z.string(), reason: z.enum(['downgrade', 'cancel']) }).nullable(),
  grace_until: z.string().nullable(),
  changes: z.array(PlanChangeView),
}).meta({ id: 'BillingOverview' });

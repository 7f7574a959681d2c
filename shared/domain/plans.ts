/** The one plan table (decisions.md "Plans"). GET /api/plans serves it; every limit check reads it. */
export const PLAN_NAMES = ['free', 'starter', 'pro', 'agency', 'scale'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  name: PlanName;
  price_usd_month: number;
  price_usd_year: number;
  brands: number;
  /** Posts a month; for "unlimited" plans this is the fair-use ceiling. */
  posts_per_month: number;
  posts_unlimited: boolean;
  /** null = every network of a post is sent. */
  networks_per_post: number | null;
  webhooks: number;
  ai_drafts_per_day: number;
  scheduled_at_a_time: number;
  api_requests_per_minute_per_key: number;
  x_credits_per_month: number;
  approvals: boolean;
  guardrails: boolean;
  client_approver_link: boolean;
  white_label: 'none' | 'own name and logo' | 'full, own mark only';
}

const yearly = (monthly: number) => Math.round(monthly * 12 * 0.8 * 100) / 100;

function plan(p: Omit<Plan, 'price_usd_year' | 'approvals' | 'guardrails'>): Plan {
  const paid = p.price_usd_month > 0;
  return { ...p, price_usd_year: yearly(p.price_usd_month), approvals: paid, guardrails: paid };
}

export const PLANS: Record<PlanName, Plan> = {
  free: plan({ name: 'free', price_usd_month: 0, brands: 1, posts_per_month: 20, posts_unlimited: false, networks_per_post: 2, webhooks: 2, ai_drafts_per_day: 5, scheduled_at_a_time: 10, api_requests_per_minute_per_key: 60, x_credits_per_month: 0, client_approver_link: false, white_label: 'none' }),
  starter: plan({ name: 'starter', price_usd_month: 9, brands: 3, posts_per_month: 500, posts_unlimited: false, networks_per_post: null, webhooks: 5, ai_drafts_per_day: 25, scheduled_at_a_time: 100, api_requests_per_minute_per_key: 120, x_credits_per_month: 100, client_approver_link: false, white_label: 'none' }),
  pro: plan({ name: 'pro', price_usd_month: 29, brands: 10, posts_per_month: 10_000, posts_unlimited: true, networks_per_post: null, webhooks: 10, ai_drafts_per_day: 100, scheduled_at_a_time: 1_000, api_requests_per_minute_per_key: 300, x_credits_per_month: 500, client_approver_link: true, white_label: 'own name and logo' }),
  agency: plan({ name: 'agency', price_usd_month: 99, brands: 50, posts_per_month: 50_000, posts_unlimited: true, networks_per_post: null, webhooks: 25, ai_drafts_per_day: 300, scheduled_at_a_time: 5_000, api_requests_per_minute_per_key: 600, x_credits_per_month: 2_000, client_approver_link: true, white_label: 'full, own mark only' }),
  scale: plan({ name: 'scale', price_usd_month: 299, brands: 200, posts_per_month: 150_000, posts_unlimited: true, networks_per_post: null, webhooks: 50, ai_drafts_per_day: 1_000, scheduled_at_a_time: 20_000, api_requests_per_minute_per_key: 1_200, x_credits_per_month: 6_000, client_approver_link: true, white_label: 'full, own mark only' }),
};

export const YEARLY_DISCOUNT_PERCENT = 20;
export const REFUND_DAYS = 14;

/** The cheapest plan above `current` that lifts a limit; used for upgrade links. */
export function nextPlan(current: PlanName): PlanName {
  const i = PLAN_NAMES.indexOf(current);
  return PLAN_NAMES[Math.min(i + 1, PLAN_NAMES.length - 1)];
}

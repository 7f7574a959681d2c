import type { Deps } from './deps';
import type { Account } from '../ports/store';
import { PLANS } from '../domain/plans';
import { perMinute, windowUse } from './rate-limit';
import { nextDayStart, nextMonthStart, usageKeys } from '../domain/usage';
import { guardrailsView } from './guardrails/guardrails';

/**
 * One plan limit. `limit` null: no limit on this plan; `remaining` null: nothing to count down (no limit, or a
 * per-post rule); `used` null: a per-post rule has no running count; `resets_at` null: the limit is a standing count
 * (brands, webhooks, scheduled at a time) or per post, not a window (decisions.md "Strict requests and contract fixes").
 */
export interface UsageLine {
  limit: number | null;
  used: number | null;
  remaining: number | null;
  resets_at: string | null;
}

const line = (limit: number | null, used: number, resets_at: Date | null): UsageLine => ({
  limit, used, remaining: limit === null ? null : Math.max(0, limit - used), resets_at: resets_at?.toISOString() ?? null,
});

/**
 * GET /api/usage: for each plan limit, {limit, used, remaining, resets_at} (decisions.md "Plans"); the requests a
 * minute are those of the calling key (`keyId`) in the current minute; without a key (the dashboard) that line has
 * only its limit.
 */
export async function usage(deps: Pick<Deps, 'counters' | 'clock'>, account: Account, keyId?: string) {
  const now = deps.clock.now();
  const plan = PLANS[account.plan];
  const [requests, posts, ai, x, scheduled, webhooks] = await Promise.all([
    keyId === undefined ? undefined : windowUse(deps, `key#${keyId}`, perMinute(plan.api_requests_per_minute_per_key)),
    deps.counters.get(usageKeys.posts(account.id, now)),
    deps.counters.get(usageKeys.aiDrafts(account.id, now)),
    deps.counters.get(usageKeys.xCredits(account.id, now)),
    deps.counters.get(usageKeys.scheduled(account.id)),
    deps.counters.get(usageKeys.webhooks(account.id)),
  ]);
  return {
    plan: plan.name,
    posts_per_month: { ...line(plan.posts_per_month, posts, nextMonthStart(now)), fair_use: plan.posts_unlimited },
    ai_drafts_per_day: line(plan.ai_drafts_per_day, ai, nextDayStart(now)),
    brands: line(plan.brands, account.brand_count, null),
    // a rule of each post: nothing is used up or reset over time
    networks_per_post: { limit: plan.networks_per_post, used: null, remaining: null, resets_at: null } satisfies UsageLine,
    scheduled_at_a_time: line(plan.scheduled_at_a_time, scheduled, null),
    webhooks: line(plan.webhooks, webhooks, null),
    x_credits: line(plan.x_credits_per_month, x, nextMonthStart(now)),
    // without a calling key (the dashboard) there is no key's minute to count
    api_requests_per_minute_per_key: requests
      ? line(plan.api_requests_per_minute_per_key, requests.used, requests.resets_at)
      : { limit: plan.api_requests_per_minute_per_key, used: null, remaining: null, resets_at: null } satisfies UsageLine,
  };
}

/** GET /api/me: the account, its plan, usage and a summary of brands and connections. */
export async function me(deps: Pick<Deps, 'counters' | 'clock' | 'brands' | 'connections' | 'guardrails'>, account: Account, keyId: string, above?: string[]) {
  const [u, brands, connections, guardrails] = await Promise.all([
    usage(deps, account, keyId), deps.brands.list(account.id), deps.connections.listByAccount(account.id), guardrailsView(deps, account.id, { kind: 'key', id: keyId, ...(above?.length ? { above } : {}) }),
  ]);
  const by_platform: Record<string, number> = {};
  for (const c of connections) by_platform[c.platform] = (by_platform[c.platform] ?? 0) + 1;
  return {
    account: { id: account.id, email: account.email, verified: account.verified, created_at: account.created_at },
    plan: account.plan,
    key_id: keyId,
    usage: u,
    brands: brands.map((b) => ({ id: b.id, name: b.name })),
    connections: { total: connections.length, by_platform },
    redirect_origins: account.redirect_origins ?? [],
    /** The calling key's guardrails in force (its own and those of the keys above it), read-only (set from the dashboard). */
    guardrails,
  };
}

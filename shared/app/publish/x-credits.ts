import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { NetworkResult } from '../../domain/post';
import type { PublishContent } from '../../ports/networks';
import { PLANS } from '../../domain/plans';
import { platform as platformInfo, X_CREDIT_RULE } from '../../domain/platforms';
import { nextMonthStart, usageKeys } from '../../domain/usage';
import { upgradeUrl } from '../brands';
import { failed } from '../network-results';

/** The X add-on's prices (spec §2.1; decisions.md "Plans"). */
export const X_PRICES = { post: 1, post_with_link: 10, per_media: 1 } as const;

/** A link as X counts it: an explicit http(s) URL or a www. address. */
const LINK = /\bhttps?:\/\/\S|\bwww\.[a-z0-9-]+\.[a-z]/i;

/**
 * Credits one X publish costs: every X post it makes (the post, each thread post, the first comment) is 1 credit,
 * or 10 when its text holds a link; each image or video adds 1.
 */
export function xCreditCost(content: Pick<PublishContent, 'text' | 'thread' | 'first_comment' | 'media'>): number {
  const texts = [content.text, ...content.thread, ...(content.first_comment ? [content.first_comment] : [])];
  const posts = texts.reduce((sum, t) => sum + (LINK.test(t) ? X_PRICES.post_with_link : X_PRICES.post), 0);
  return posts + content.media.length * X_PRICES.per_media;
}

/** Free plan: X is a paid add-on; the network result says so with an upgrade link. */
export function xPlanRefusal(deps: Pick<Deps, 'settings'>, account: Account): NetworkResult | undefined {
  if (PLANS[account.plan].x_credits_per_month > 0) return undefined;
  return failed('x', 'plan_feature', 'X posting is a paid add-on: the free plan includes no X credits', { upgrade_url: upgradeUrl(deps, account) });
}

/**
 * Reserves an X publish's credits on the month's counter with a conditional write (never past the plan's
 * credits): answers the credits reserved, or the x_credits_exhausted result. Released with releaseXCredits when
 * the network fails.
 */
export async function reserveXCredits(deps: Pick<Deps, 'counters' | 'settings'>, account: Account, content: PublishContent, nowMs: number): Promise<{ ok: true; credits: number } | { ok: false; result: NetworkResult }> {
  const plan = PLANS[account.plan];
  const credits = xCreditCost(content);
  const expires = Math.floor(nextMonthStart(nowMs).getTime() / 1000) + 86_400 * 40;
  const r = await deps.counters.increment(usageKeys.xCredits(account.id, nowMs), credits, plan.x_credits_per_month, expires);
  if (r.allowed) return { ok: true, credits };
  return { ok: false, result: xCreditsExhausted(deps, account, credits, r.count) };
}

/** x_credits_exhausted: the post needs `credits`, and `used` of the month's are spent. */
export function xCreditsExhausted(deps: Pick<Deps, 'settings'>, account: Account, credits: number, used: number): NetworkResult {
  const plan = PLANS[account.plan];
  return failed('x', 'x_credits_exhausted', `This post needs ${credits} X credit${credits === 1 ? '' : 's'}; ${Math.max(0, plan.x_credits_per_month - used)} of the ${plan.name} plan's ${plan.x_credits_per_month} are left this month`, { upgrade_url: upgradeUrl(deps, account) });
}

/** Gives back a failed X publish's credits to the month they were reserved in. */
export async function releaseXCredits(deps: Pick<Deps, 'counters'>, accountId: string, reservedAtMs: number, credits: number | undefined): Promise<void> {
  if (credits) await deps.counters.release(usageKeys.xCredits(accountId, reservedAtMs), credits);
}

/** GET /api/x: the add-on's rules, the plan's credits, used, left and the reset date. */
export async function xAddon(deps: Pick<Deps, 'counters' | 'clock' | 'settings'>, account: Account) {
  const now = deps.clock.now();
  const plan = PLANS[account.plan];
  const used = await deps.counters.get(usageKeys.xCredits(account.id, now));
  const addon = platformInfo('x').addon!;
  return {
    platform: 'x',
    kind: addon.kind,
    paid_plans_only: addon.paid_plans_only,
    available: plan.x_credits_per_month > 0,
    rules: {
      text: X_CREDIT_RULE,
      post: X_PRICES.post, post_with_link: X_PRICES.post_with_link, per_media: X_PRICES.per_media,
      thread: 'Each thread post and the first comment are X posts too, priced the same way.',
      refund: 'Credits of a post that fails are given back.',
    },
    plan: plan.name,
    credits: plan.x_credits_per_month,
    used,
    left: Math.max(0, plan.x_credits_per_month - used),
    resets_at: nextMonthStart(now).toISOString(),
    ...(plan.x_credits_per_month === 0 ? { upgrade_url: upgradeUrl(deps, account) } : {}),
  };
}

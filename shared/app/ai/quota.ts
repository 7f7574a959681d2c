import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import { RateLimitedError } from '../../domain/errors';
import { PLANS } from '../../domain/plans';
import { nextDayStart, usageKeys } from '../../domain/usage';
import { perHour, perMinute, type RateRule } from '../rate-limit';
import { upgradeUrl } from '../brands';

/** Spec §8.1: POST /api/generate 8 a minute per account; POST /api/week 3 an hour per account. */
export const GENERATE_RATE: RateRule = perMinute(8);
export const WEEK_RATE: RateRule = perHour(3);

/** Day counters are kept two days past their day (then TTL removes them). */
const KEEP_SEC = 2 * 86_400;

/**
 * Takes one of the plan's AI drafts of the day (a conditional increment: concurrent calls never pass the limit).
 * Over the limit: 429 ai_drafts_limit_reached with upgrade_url and Retry-After until the day resets (UTC).
 * Answers the function that gives it back (a provider failure spends no allowance).
 */
export async function reserveAiDraft(deps: Pick<Deps, 'counters' | 'clock' | 'settings'>, account: Account): Promise<{ release: () => Promise<void> }> {
  const now = deps.clock.now();
  const limit = PLANS[account.plan].ai_drafts_per_day;
  const key = usageKeys.aiDrafts(account.id, now);
  const resets = nextDayStart(now);
  const r = await deps.counters.increment(key, 1, limit, Math.floor(resets.getTime() / 1000) + KEEP_SEC);
  if (!r.allowed) {
    const retryAfter = Math.max(1, Math.ceil((resets.getTime() - now) / 1000));
    throw new RateLimitedError(retryAfter, `The ${account.plan} plan's ${limit} AI drafts a day are used up; they reset at ${resets.toISOString()}`, {
      code: 'ai_drafts_limit_reached', details: { limit, resets_at: resets.toISOString(), upgrade_url: upgradeUrl(deps, account) },
    });
  }
  return { release: () => deps.counters.release(key, 1) };
}

/** The AI-drafts line of GET /api/usage (`ai_drafts_per_day`: limit, used, remaining, resets_at), read now. */
export async function aiDraftsLine(deps: Pick<Deps, 'counters' | 'clock'>, account: Account) {
  const now = deps.clock.now();
  const limit = PLANS[account.plan].ai_drafts_per_day;
  const used = await deps.counters.get(usageKeys.aiDrafts(account.id, now));
  return { limit, used, remaining: Math.max(0, limit - used), resets_at: nextDayStart(now).toISOString() };
}

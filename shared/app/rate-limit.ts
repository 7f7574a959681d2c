import type { Deps } from './deps';
import { RateLimitedError } from '../domain/errors';

/** A limit of `limit` hits per `windowSeconds` on one subject (account, key, IP or email). */
export interface RateRule {
  limit: number;
  windowSeconds: number;
}

/** What is left of a rule's current window after a hit: for the RateLimit response header. */
export interface WindowLeft {
  rule: RateRule;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

/**
 * Counts one hit against `subject` in the current fixed window; throws RateLimitedError (429 with Retry-After)
 * when the window is full. Shared across instances through the counter store. Answers what is left of the window
 * (undefined when rate limits are off).
 */
export async function hit(deps: Pick<Deps, 'counters' | 'clock'> & { settings?: Pick<Deps['settings'], 'rateLimitsOff'> }, subject: string, rule: RateRule): Promise<WindowLeft | undefined> {
  if (deps.settings?.rateLimitsOff) return undefined;
  const nowSec = Math.floor(deps.clock.now() / 1000);
  const windowStart = nowSec - (nowSec % rule.windowSeconds);
  const windowEnd = windowStart + rule.windowSeconds;
  const res = await deps.counters.increment(`rl#${subject}#${rule.windowSeconds}#${windowStart}`, 1, rule.limit, windowEnd + 60);
  if (!res.allowed) throw new RateLimitedError(windowEnd - nowSec);
  return { rule, remaining: Math.max(0, rule.limit - res.count), reset: windowEnd - nowSec };
}

/** How much of the current window `subject` has used, and when the window ends (GET /api/usage). */
export async function windowUse(deps: Pick<Deps, 'counters' | 'clock'>, subject: string, rule: RateRule): Promise<{ used: number; resets_at: Date }> {
  const nowSec = Math.floor(deps.clock.now() / 1000);
  const windowStart = nowSec - (nowSec % rule.windowSeconds);
  const used = await deps.counters.get(`rl#${subject}#${rule.windowSeconds}#${windowStart}`);
  return { used, resets_at: new Date((windowStart + rule.windowSeconds) * 1000) };
}

export const perMinute = (limit: number): RateRule => ({ limit, windowSeconds: 60 });
export const perHour = (limit: number): RateRule => ({ limit, windowSeconds: 3600 });
export const perDay = (limit: number): RateRule => ({ limit, windowSeconds: 86_400 });

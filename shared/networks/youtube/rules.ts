import type { Failure } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { field, str } from '../oauth-tokens';
import { checkContent } from './limits';

export { checkContent };

/** YouTube's local rules: the sorting of Data API error answers (what an upload needs: limits.ts). */

const PACIFIC = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hourCycle: 'h23', hour: 'numeric', minute: 'numeric', second: 'numeric' });

function pacificClock(at: number): { hour: number; minute: number; second: number } {
  const parts = PACIFIC.formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: get('hour') % 24, minute: get('minute'), second: get('second') };
}

/**
 * Seconds until the next midnight in America/Los_Angeles, when YouTube's daily quotas reset. On the two days a year
 * the clocks change the day is 23 or 25 hours long: the candidate is checked and moved by the hour.
 */
export function secondsUntilPacificMidnight(now: number): number {
  const { hour, minute, second } = pacificClock(now);
  let secs = 86_400 - (hour * 3600 + minute * 60 + second);
  const landed = pacificClock(now + secs * 1000).hour;
  if (landed === 23) secs += 3600;
  else if (landed === 1) secs -= 3600;
  return Math.max(1, secs);
}

const DAILY_QUOTA = new Set(['quotaExceeded', 'uploadLimitExceeded', 'dailyLimitExceeded']);
const SHORT_LIMIT = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

/** The first `error.errors[].reason` of a Google API error answer. */
export function errorReason(res: HttpResult): string | undefined {
  const errors = field(field(res.json, 'error'), 'errors');
  return Array.isArray(errors) ? str(field(errors[0], 'reason')) : undefined;
}

/**
 * Sorts a failed Data API answer: 401 → reauth; 403 quotaExceeded / uploadLimitExceeded → rate_limited until
 * midnight Pacific; rateLimitExceeded / 429 → rate_limited (Retry-After, else 60 s); 403 insufficientPermissions →
 * reauth (the grant lacks the upload scope); youtubeSignupRequired and 400s → rejected; 5xx → transient.
 */
export function youtubeFailure(res: HttpResult, what: string, now: number): Failure {
  const reason = errorReason(res);
  const text = str(field(field(res.json, 'error'), 'message'));
  const detail = [reason, text].filter(Boolean).join(': ') || (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
  const message = `youtube ${what} failed (HTTP ${res.status})${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  if (res.status === 401) return { ok: false, kind: 'reauth', error: `${message}; sign in to youtube again` };
  if (reason && DAILY_QUOTA.has(reason)) {
    return { ok: false, kind: 'rate_limited', retry_after: secondsUntilPacificMidnight(now), error: `${message} (the daily quota resets at midnight Pacific time)` };
  }
  if (res.status === 429 || (reason && SHORT_LIMIT.has(reason))) {
    return { ok: false, kind: 'rate_limited', retry_after: retryAfterSeconds(res.headers, now) ?? 60, error: message };
  }
  if (reason === 'youtubeSignupRequired') return rejected(`${message} (the Google account has no YouTube channel yet)`);
  if (res.status === 403 && reason !== 'insufficientPermissions' && reason !== 'authError' && reason !== 'forbidden') return rejected(message);
  return classifyStatus(res, message);
}

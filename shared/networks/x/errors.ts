import type { Failure } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { field, str } from '../oauth-tokens';

/** The sorting of X API v2 error answers (problem JSON `{title, detail, type, status}` and/or `{errors: [{message}]}`). */

/** Seconds until an epoch-seconds reset header, at least 1; undefined when absent. */
function untilReset(headers: Headers, name: string, now: number): number | undefined {
  const at = Number(headers.get(name));
  return headers.get(name) && Number.isFinite(at) ? Math.max(1, Math.ceil(at - now / 1000)) : undefined;
}

/**
 * 429 → rate_limited: the 24-hour user or app window when it is the one used up (x-user-limit-24hour-remaining /
 * x-app-limit-24hour-remaining = 0), else x-rate-limit-reset (15-minute window), else Retry-After, else 60 s.
 */
export function rateLimitWait(res: HttpResult, now: number): number {
  for (const scope of ['user', 'app']) {
    if (res.headers.get(`x-${scope}-limit-24hour-remaining`) === '0') {
      const wait = untilReset(res.headers, `x-${scope}-limit-24hour-reset`, now);
      if (wait !== undefined) return wait;
    }
  }
  return untilReset(res.headers, 'x-rate-limit-reset', now) ?? retryAfterSeconds(res.headers, now) ?? 60;
}

/** The human part of an X error answer. */
export function xDetail(res: HttpResult): string {
  const errors = field(res.json, 'errors');
  const first = Array.isArray(errors) ? errors[0] : undefined;
  const parts = [str(field(res.json, 'title')), str(field(res.json, 'detail')) ?? str(field(first, 'message')) ?? str(field(res.json, 'error_description'))];
  const text = parts.filter(Boolean).join(': ');
  return text || (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
}

/**
 * Sorts a failed X answer. 429 → rate_limited (see rateLimitWait); 401 → reauth; `usage-capped` (the app's monthly
 * post cap) and `client-not-enrolled` → rejected with what to do (retrying within the month does not help);
 * 403 duplicate content / not permitted / suspended → rejected; 403 on a media call → reauth (the token predates the
 * media.write scope); 400 "too long" → text_too_long; other 400s → rejected (bad_media on media calls); 5xx → transient.
 */
export function xFailure(res: HttpResult, what: string, now: number, media = false): Failure {
  const detail = xDetail(res);
  const type = str(field(res.json, 'type')) ?? '';
  const message = `x ${what} failed (HTTP ${res.status})${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  if (res.status === 429 && !/usage-capped/.test(type)) return { ok: false, kind: 'rate_limited', retry_after: rateLimitWait(res, now), error: message };
  if (res.status === 401) return { ok: false, kind: 'reauth', error: `${message}; sign in to x again` };
  if (/usage-capped/.test(type) || /usage cap/i.test(detail)) {
    return rejected(`${message} (the service's X app reached its monthly post cap; X posts fail until the cap resets or the app's plan is raised)`);
  }
  if (/client-not-enrolled/.test(type)) return rejected(`${message} (the X app must be attached to a project with API v2 access)`);
  if (res.status === 403) {
    if (/duplicate/i.test(detail)) return rejected(`${message} (X refuses a post identical to a recent one)`);
    if (media && !/suspend/i.test(detail)) return { ok: false, kind: 'reauth', error: `${message}; sign in to x again to grant media.write` };
    return rejected(message);
  }
  if (res.status === 400 || res.status === 413 || res.status === 422) {
    if (/too long|exceeds.*length|length.*exceed/i.test(detail)) return rejected(message, 'text_too_long');
    return rejected(message, media ? 'bad_media' : 'rejected');
  }
  return classifyStatus(res, message, rateLimitWait(res, now));
}

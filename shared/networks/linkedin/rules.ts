import type { Failure } from '../../ports/networks';
import { classifyStatus, rejected, retryAfterSeconds, type HttpResult } from '../http';
import { field, num, str } from '../oauth-tokens';
import { LINKEDIN_DEFAULT_RETRY_AFTER, checkLinkedin, escapeLittleText } from './limits';

export { LINKEDIN_DEFAULT_RETRY_AFTER, checkLinkedin, escapeLittleText };

/** LinkedIn's local rules: the sorting of error answers (commentary escaping and content limits: limits.ts). */

/**
 * Sorts a non-2xx LinkedIn answer (`{status, message, serviceErrorCode?, code?}`): 429 → rate_limited (Retry-After,
 * else an hour); 401 (expired / revoked token) and 403 (ACCESS_DENIED: scope missing, not allowed to post as this
 * author) → reauth; 426 (LinkedIn-Version sunset) → rejected naming the version; other 4xx → rejected (`media` steps
 * → bad_media); 5xx → transient.
 */
export function linkedinFailure(res: HttpResult, what: string, now: number, opts: { media?: boolean } = {}): Failure {
  const detail = str(field(res.json, 'message')) ?? (res.json === undefined && res.status < 500 ? res.text.trim().slice(0, 200) : '');
  const code = str(field(res.json, 'code')) ?? (num(field(res.json, 'serviceErrorCode')) !== undefined ? `serviceErrorCode ${num(field(res.json, 'serviceErrorCode'))}` : undefined);
  const message = `linkedin ${what} failed (HTTP ${res.status}${code ? ` ${code}` : ''})${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  if (res.status === 429) return { ok: false, kind: 'rate_limited', retry_after: retryAfterSeconds(res.headers, now) ?? LINKEDIN_DEFAULT_RETRY_AFTER, error: message };
  if (res.status === 401) return { ok: false, kind: 'reauth', error: `${message}; the LinkedIn sign-in expired or was revoked` };
  if (res.status === 403) return { ok: false, kind: 'reauth', error: `${message}; reconnect LinkedIn with the w_member_social permission` };
  if (res.status === 426) return rejected(`${message}; the LinkedIn-Version header names a sunset API version`);
  if (res.status >= 400 && res.status < 500) return rejected(message, opts.media ? 'bad_media' : 'rejected');
  return classifyStatus(res, message);
}

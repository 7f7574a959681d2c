import type { Failure } from '../../ports/networks';
import { classifyStatus, retryAfterSeconds, type HttpResult } from '../http';

/** Seconds to wait after a 429 without Retry-After or a "try again in N seconds" text. */
export const DEVTO_DEFAULT_RETRY_AFTER = 300;

/** Sorts a dev.to error answer ({error, status}) into a Failure. */
export function devtoFailure(res: HttpResult, doing: string): Failure {
  const body = res.json as { error?: unknown } | undefined;
  const text = typeof body?.error === 'string' ? body.error : res.text.slice(0, 300) || `HTTP ${res.status}`;
  if (res.status === 401) return { ok: false, kind: 'reauth', error: `dev.to refused the api_key while ${doing} (${text}): create a new key at dev.to/settings/extensions` };
  if (res.status === 429) {
    const fromBody = /try again in (\d+) seconds?/i.exec(res.text)?.[1];
    const retry = retryAfterSeconds(res.headers, res.at) ?? (fromBody ? Number(fromBody) : DEVTO_DEFAULT_RETRY_AFTER);
    return { ok: false, kind: 'rate_limited', retry_after: retry, error: `dev.to rate limit: ${text}` };
  }
  return classifyStatus(res, `dev.to answered ${res.status} while ${doing}: ${text}`);
}

import type { PlatformName } from '../domain/platforms';
import type { NetworkResult } from '../domain/post';
import { explain } from '../domain/result-codes';
import type { Failure, Published } from '../ports/networks';

/** A failed network result: ok false, the code, the network's own words, and the plain-words what/fix. */
export function failed(platform: PlatformName, code: string, error: string, extra: Partial<NetworkResult> = {}): NetworkResult {
  return { platform, ok: false, status: 'failed', code, error, ...explain(code), ...extra };
}

export function published(platform: PlatformName, p: Published): NetworkResult {
  return { platform, ok: true, status: p.status, id: p.id, url: p.url };
}

/** Maps an adapter Failure to a result (rate limits are decided by the caller: wait, defer, or this). */
export function fromFailure(platform: PlatformName, f: Failure): NetworkResult {
  switch (f.kind) {
    case 'rejected': return failed(platform, f.code, f.error, { ...(f.what ? { what: f.what } : {}), ...(f.fix ? { fix: f.fix } : {}) });
    case 'rate_limited': return failed(platform, 'rate_limited', f.error, { retry_after: f.retry_after });
    case 'reauth': return failed(platform, 'reauth_required', f.error);
    case 'timeout': return failed(platform, 'timed_out', f.error, { status: 'unknown' });
    case 'transient': return failed(platform, 'network_error', f.error);
  }
}

/**
 * The status of GET /api/post/status for one network: only the decided statuses (published, processing, scheduled,
 * pending_approval, failed, unknown); a held network is failed (its result says held: true).
 */
export function statusOf(state: string, result?: NetworkResult): string {
  if (state === 'scheduled') return 'scheduled';
  if (state !== 'done' || !result) return 'processing';
  if (result.ok) return result.status;
  return result.status === 'unknown' ? 'unknown' : 'failed';
}

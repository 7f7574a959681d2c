import type { NetworkDeps } from './deps';
import type { NetworkContext } from '../ports/networks';
import { RateLimitedError } from '../domain/errors';

/** The context an adapter runs in: deadline, abortable fetch, capped media download, shared pacing. */
export function networkContext(deps: NetworkDeps, credentials: Record<string, string>): NetworkContext {
  const deadline = deps.clock.now() + deps.settings.networkTimeoutMs;
  const signal = AbortSignal.timeout(deps.settings.networkTimeoutMs);
  return {
    credentials, deadline, signal,
    fetch: deps.media.fetch,
    fetchMedia: (url) => deps.media.download(url, signal),
    ...(deps.media.downloadDocument ? { fetchDocument: (url: string) => deps.media.downloadDocument!(url, signal) } : {}),
    async pace(key, spacingMs) {
      const now = deps.clock.now();
      const slot = await deps.pace.reserve(key, spacingMs, now);
      const wait = slot - now;
      if (now + wait > deadline - 1_000) throw new RateLimitedError(wait / 1000, `${key} is busy: the next free slot is in ${Math.ceil(wait / 1000)} s`);
      return wait;
    },
    now: () => deps.clock.now(),
    sleep: (ms) => deps.clock.sleep(ms),
  };
}

import type { Deps } from '../../shared/app/deps';
import { sweepExpiredMedia } from '../../shared/app/media/sweep';

/** How often local mode deletes expired media (the bucket lifecycle rule and DynamoDB TTL do it in AWS). */
export const MEDIA_SWEEP_INTERVAL_MS = 15 * 60 * 1000;

/**
 * Local mode's 30-day media deletion: runs sweepExpiredMedia at start, then every `intervalMs`, with the same Deps
 * as the handlers. One run at a time; stop waits for it.
 */
export function startMediaSweep(deps: Deps, opts: { intervalMs?: number; onError?: (err: unknown) => void } = {}) {
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      await sweepExpiredMedia(deps);
    } catch (err) {
      opts.onError?.(err);
    }
  };
  const schedule = () => {
    if (!running) return;
    timer = setTimeout(() => { current = tick().finally(schedule); }, opts.intervalMs ?? MEDIA_SWEEP_INTERVAL_MS);
    timer.unref();
  };
  current = tick().finally(schedule);
  return {
    /** Runs a sweep now (after any run in progress). */
    runNow: async () => { await current; current = tick(); await current; },
    stop: async () => { running = false; if (timer) clearTimeout(timer); await current; },
  };
}

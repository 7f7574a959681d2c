import type { TableScheduler } from '../../shared/adapters/dynamodb/table-scheduler';

/**
 * The local EventBridge Scheduler: every `intervalMs` it lists due timers from the table, claims each once
 * (conditional delete) and fires `fire(input)`. Timers survive a restart, and one that came due while the runtime
 * was down fires at the first tick.
 */
export function startTimerPoller(scheduler: TableScheduler, fire: (input: Record<string, unknown>) => Promise<void>, opts: { intervalMs?: number; onError?: (err: unknown) => void } = {}) {
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      for (const t of await scheduler.due(new Date())) {
        if (!running) return;
        if (await scheduler.claim(t.name, t.runAt)) {
          await fire(t.input).catch((err) => opts.onError?.(err));
        }
      }
    } catch (err) {
      opts.onError?.(err);
    }
  };
  const schedule = () => {
    if (!running) return;
    timer = setTimeout(() => { current = tick().finally(schedule); }, opts.intervalMs ?? 250);
  };
  current = tick().finally(schedule);
  return {
    stop: async () => { running = false; if (timer) clearTimeout(timer); await current; },
  };
}

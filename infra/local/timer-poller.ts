import type { TableScheduler } from '../../shared/adapters/dynamodb/table-scheduler';
import { systemClock, type Clock } from '../../shared/ports/clock';

/** Due timers read per query; a full batch is followed by the next one at once. */
const BATCH = 250;
/**
 * Timers claimed and fired at once. In AWS every schedule invokes the dispatcher on its own; here the dispatcher,
 * the publish workers and the table share one process, and more firings at once (64 measured) only starve the
 * workers that publish what was fired.
 */
const CONCURRENCY = 16;

/**
 * The local EventBridge Scheduler: every `intervalMs` it lists due timers from the table, claims each once
 * (conditional delete) and fires `fire(input)`, up to `concurrency` at a time, so many timers due at the same second
 * run side by side. Two pollers on one table fire each timer once (the claim), and the dispatcher's
 * own claim keeps a scheduled post published once even if a timer fired twice. Timers survive a restart, and one
 * that came due while the runtime was down fires at the first tick. `clock` says what "due" means.
 */
export function startTimerPoller(
  scheduler: TableScheduler,
  fire: (input: Record<string, unknown>) => Promise<void>,
  opts: { intervalMs?: number; concurrency?: number; onError?: (err: unknown) => void; clock?: Clock } = {},
) {
  const clock = opts.clock ?? systemClock;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      for (;;) {
        const now = clock.now();
        const due = await scheduler.due(new Date(now), BATCH);
        let next = 0;
        const worker = async () => {
          while (running && next < due.length) {
            const t = due[next++];
            if (await scheduler.claim(t.name, t.runAt, now)) await fire(t.input).catch((err) => opts.onError?.(err));
          }
        };
        await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? CONCURRENCY, due.length) }, worker));
        if (!running || due.length < BATCH) return;
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

/** Time, injected so tests control it instead of sleeping: every time read and every wait goes through it. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The real clock: Date.now() and setTimeout. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

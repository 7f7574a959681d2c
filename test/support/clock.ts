import type { Clock } from '../../shared/ports/clock';

/**
 * A clock tests move by hand; it stands still otherwise. Sleepers wait until `advance` (or `ms =`) moves time past
 * their wake-up, then resolve in wake-up order: waits and deadlines are deterministic, never the machine's speed.
 * With `instant`, every sleep moves time forward by its length at once (virtual time for code under test that
 * sleeps and then checks a deadline). `sleeps` records every wait asked for, in ms.
 */
export class ManualClock implements Clock {
  readonly sleeps: number[] = [];
  private sleepers: Array<{ at: number; wake: () => void }> = [];
  private watchers: Array<{ count: number; ready: () => void }> = [];

  constructor(private t: number = Date.UTC(2026, 10, 21, 12, 0, 0), private readonly opts: { instant?: boolean } = {}) {}

  now() { return this.t; }

  get ms() { return this.t; }
  set ms(value: number) { this.moveTo(value); }

  sleep(ms: number): Promise<void> {
    const wait = Math.max(0, ms);
    this.sleeps.push(ms);
    if (this.opts.instant) {
      this.t += wait;
      return Promise.resolve();
    }
    return new Promise<void>((wake) => {
      this.sleepers.push({ at: this.t + wait, wake });
      this.watchers = this.watchers.filter((w) => (this.sleepers.length >= w.count ? (w.ready(), false) : true));
    });
  }

  /** Moves time forward by `ms`, waking every sleeper whose time has come (earliest first). */
  advance(ms: number) { this.moveTo(this.t + ms); }

  /** Sleepers not yet woken. */
  get pending() { return this.sleepers.length; }

  /** Resolves once at least `count` sleepers are waiting (the code under test has reached its wait). */
  sleeping(count = 1): Promise<void> {
    if (this.sleepers.length >= count) return Promise.resolve();
    return new Promise<void>((ready) => this.watchers.push({ count, ready }));
  }

  private moveTo(target: number) {
    const due = this.sleepers.filter((s) => s.at <= target).sort((a, b) => a.at - b.at);
    this.sleepers = this.sleepers.filter((s) => s.at > target);
    this.t = target;
    for (const s of due) s.wake();
  }
}

/**
 * A clock that follows real time, shifted by hand (`advance`), for tests where time must also pass (work runs in
 * the background while a use case waits). Its sleeps are real; `sleeps` records each one asked for, in ms.
 */
export class OffsetClock implements Clock {
  readonly sleeps: number[] = [];
  private offset = 0;
  now() { return Date.now() + this.offset; }
  sleep(ms: number) {
    this.sleeps.push(ms);
    return new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }
  advance(ms: number) { this.offset += ms; }
  get ms() { return this.now(); }
  set ms(value: number) { this.offset = value - Date.now(); }
}

/** A fixed time, for code that only reads the clock; a sleep on it is a test mistake and fails loudly. */
export function fixedClock(now: () => number): Clock {
  return { now, sleep: async (ms) => { throw new Error(`fixedClock: unexpected sleep of ${ms} ms`); } };
}

/** `base` moved by `offsetMs` (reads and sleeps go to `base`): for a runtime's clock swapped for a moment in a test. */
export function shiftedClock(base: Clock, offsetMs: number): Clock {
  return { now: () => base.now() + offsetMs, sleep: (ms) => base.sleep(ms) };
}

import type { Clock } from '../../shared/ports/clock';

/**
 * How a ManualClock's sleeps end:
 * - `real` (default): after that much real time, the clock still standing still (background work runs meanwhile,
 *   and a wait for it ends when it is done, never because time "ran out");
 * - `advance`: when `advance` (or `ms =`) moves time past the wake-up, earliest first: the test decides when;
 * - `instant`: at once, time moving forward by the sleep's length (virtual time for code that sleeps, then checks a
 *   deadline: polls and waits run without waiting).
 */
export type ManualSleeps = 'real' | 'advance' | 'instant';

/**
 * A clock tests move by hand (`advance`, `ms =`); it stands still otherwise, so deadlines and windows are decided
 * by the test, never by the machine's speed. `sleeps` records every wait asked for, in ms.
 */
export class ManualClock implements Clock {
  readonly sleeps: number[] = [];
  private sleepers: Array<{ at: number; wake: () => void }> = [];
  private watchers: Array<{ count: number; ready: () => void }> = [];
  private readonly mode: ManualSleeps;

  constructor(private t: number = Date.UTC(2026, 10, 21, 12, 0, 0), opts: { sleeps?: ManualSleeps } = {}) {
    this.mode = opts.sleeps ?? 'real';
  }

  now() { return this.t; }

  get ms() { return this.t; }
  set ms(value: number) { this.moveTo(value); }

  sleep(ms: number): Promise<void> {
    const wait = Math.max(0, ms);
    this.sleeps.push(ms);
    if (this.mode === 'instant') {
      this.t += wait;
      return Promise.resolve();
    }
    if (this.mode === 'real') return new Promise<void>((resolve) => setTimeout(resolve, wait));
    return new Promise<void>((wake) => {
      this.sleepers.push({ at: this.t + wait, wake });
      this.watchers = this.watchers.filter((w) => (this.sleepers.length >= w.count ? (w.ready(), false) : true));
    });
  }

  /** Moves time forward by `ms`, waking every sleeper whose time has come (earliest first). */
  advance(ms: number) { this.moveTo(this.t + ms); }

  /** Sleepers not yet woken (`advance` mode). */
  get pending() { return this.sleepers.length; }

  /** Resolves once at least `count` sleepers are waiting (`advance` mode: the code under test reached its wait). */
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
  /** Real time moved by `ms` from now on (0: real time again). */
  shift(ms: number) { this.offset = ms; }
  get ms() { return this.now(); }
  set ms(value: number) { this.offset = value - Date.now(); }
}

import { systemClock } from '../../shared/ports/clock';
import { ManualClock } from '../support/clock';

describe('the Clock port', () => {
  it('systemClock sleeps on a real timer (resolves after its timer, whatever the machine load) and reads Date.now()', async () => {
    const before = Date.now();
    let woke = false;
    const sleeping = systemClock.sleep(5).then(() => { woke = true; });
    expect(woke).toBe(false);
    await sleeping;
    expect(woke).toBe(true);
    expect(systemClock.now()).toBeGreaterThanOrEqual(before);
    await expect(systemClock.sleep(-10)).resolves.toBeUndefined();
  });

  it('ManualClock (advance): sleepers wake only when time is moved past their wake-up, earliest first', async () => {
    const clock = new ManualClock(1_000, { sleeps: 'advance' });
    const woke: string[] = [];
    const a = clock.sleep(300).then(() => woke.push(`a@${clock.now()}`));
    const b = clock.sleep(100).then(() => woke.push(`b@${clock.now()}`));
    await clock.sleeping(2);
    expect(clock.pending).toBe(2);
    clock.advance(99);
    await Promise.resolve();
    expect(woke).toEqual([]);
    clock.advance(1);
    await b;
    expect(woke).toEqual(['b@1100']);
    clock.advance(1_000);
    await a;
    expect(woke).toEqual(['b@1100', 'a@2100']);
    expect(clock.sleeps).toEqual([300, 100]);
    expect(clock.pending).toBe(0);
  });

  it('ManualClock (real, the default): a sleep waits real time while the clock stands still', async () => {
    const clock = new ManualClock(5_000);
    await clock.sleep(5);
    expect(clock.now()).toBe(5_000);
    expect(clock.sleeps).toEqual([5]);
  });

  it('ManualClock (instant): each sleep moves time by its length at once (virtual time)', async () => {
    const clock = new ManualClock(0, { sleeps: 'instant' });
    await clock.sleep(1_500);
    await clock.sleep(250);
    expect(clock.now()).toBe(1_750);
    expect(clock.sleeps).toEqual([1_500, 250]);
  });
});

import type { NetworkContext } from '../../shared/ports/networks';
import { MediaUnreachable } from '../../shared/ports/networks';
import type { FakeServer } from '../../shared/networks/sandbox-kit/fake-server';
import { ManualClock } from '../support/clock';

/**
 * A NetworkContext for adapter tests: real fetch against loopback fakes, recorded pacing, and a manual clock
 * (`clock`): the deadline is `timeoutMs` ahead on that clock, and by default every sleep moves it forward at once
 * (virtual time: polls and waits are recorded in `clock.sleeps` and checked against the deadline without waiting).
 * The deadline passes when the test says so (`expire`, or `expireOnHang`); `signal` also carries a real 60 s
 * safety timer, so a test that forgot to expire fails on its own instead of hanging, never because the machine is slow.
 */
const SAFETY_MS = 60_000;

export function testContext(credentials: Record<string, string>, opts: { timeoutMs?: number; paceWaitMs?: number; clock?: ManualClock } = {}) {
  const timeoutMs = opts.timeoutMs ?? 2000;
  const clock = opts.clock ?? new ManualClock(Date.now(), { sleeps: 'instant' });
  const paced: Array<{ key: string; spacingMs: number }> = [];
  const deadline = new AbortController();
  const ctx: NetworkContext = {
    credentials,
    deadline: clock.now() + timeoutMs,
    signal: AbortSignal.any([deadline.signal, AbortSignal.timeout(SAFETY_MS)]),
    fetch: globalThis.fetch,
    async fetchMedia(url: string) {
      let res: Response;
      try { res = await fetch(url); } catch (err) { throw new MediaUnreachable(`media ${url} could not be downloaded`, err); }
      if (!res.ok) throw new MediaUnreachable(`media ${url} answered ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { bytes, content_type: res.headers.get('content-type') ?? 'application/octet-stream', filename: url.split('/').pop() || 'media' };
    },
    async fetchDocument(url: string) {
      let res: Response;
      try { res = await fetch(url); } catch (err) { throw new MediaUnreachable(`document ${url} could not be downloaded`, err); }
      if (!res.ok) throw new MediaUnreachable(`document ${url} answered ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { bytes, content_type: res.headers.get('content-type') ?? 'application/octet-stream', filename: url.split('/').pop() || 'document' };
    },
    async pace(key: string, spacingMs: number) {
      paced.push({ key, spacingMs });
      return opts.paceWaitMs ?? 0;
    },
    now: () => clock.now(),
    sleep: (ms: number) => clock.sleep(ms),
  };
  /** The deadline passes now: the clock moves to it and the signal aborts as a timeout, as AbortSignal.timeout does. */
  const expire = () => {
    if (clock.now() < ctx.deadline) clock.ms = ctx.deadline;
    deadline.abort(new DOMException('The deadline passed', 'TimeoutError'));
  };
  return { ctx, paced, clock, expire };
}

/**
 * Runs `act` and, as soon as `server` leaves a request hanging, lets the deadline pass (`expire`): the adapter's
 * answer to a network that never replies, without waiting for a real timer. If `act` settles first, that answer
 * is returned as is (and the test's assertion shows what happened instead).
 */
export async function expireOnHang<T>(server: FakeServer, expire: () => void, act: () => Promise<T>): Promise<T> {
  const hang = server.nextHang();
  const run = act();
  const hungFirst = await Promise.race([run.then(() => false, () => false), hang.then(() => true)]);
  if (hungFirst) expire();
  return run;
}

/** testContext with its recorded sleeps at hand (each one moved the clock forward by its length). */
export function ctxWithSleeps(credentials: Record<string, string>, timeoutMs?: number) {
  const { ctx, clock } = testContext(credentials, { timeoutMs });
  return { ctx, sleeps: clock.sleeps, clock };
}

import type { Deps } from '../deps';
import type { NetworkRecord } from '../../ports/publishing';

/** How often the API reads the networks' states while it waits for the workers (one small read each time). */
export const RESULT_POLL_MS = 20;
/** The same reads where settles ring (the local runtime): a backstop, since a ring starts the next read at once. */
export const BACKSTOP_POLL_MS = 200;

/**
 * Reads the networks' states every RESULT_POLL_MS (one small projected read each) until none is queued or sending,
 * or `until` (ms, deps.clock) has come; answers the networks with the states and results read last. A ring of
 * `deps.resultSignal` (a worker settled a network of this post) ends a wait early: locally the worker shares the
 * process and rings with the post's networks as its settling write answered them, which stand for the read; the
 * reads between rings are a backstop every BACKSTOP_POLL_MS. In AWS nothing rings and the same loop polls every
 * RESULT_POLL_MS. It listens before each read, so a ring during a read wakes the next wait. A network once seen
 * settled stays settled here (two rings may arrive in the other order than their writes).
 */
export async function waitForResults(deps: Pick<Deps, 'clock' | 'posts' | 'resultSignal'>, postId: string, networks: NetworkRecord[], until: number): Promise<NetworkRecord[]> {
  const waiting = networks.filter((n) => n.state === 'queued').map((n) => n.platform);
  let current = networks;
  if (waiting.length === 0) return current;
  const interval = deps.resultSignal.rings ? BACKSTOP_POLL_MS : RESULT_POLL_MS;
  let listener = deps.resultSignal.listen(postId);
  try {
    for (;;) {
      const rung = await Promise.race([deps.clock.sleep(Math.min(interval, Math.max(0, until - deps.clock.now()))).then(() => undefined), listener.rung]);
      listener.stop();
      listener = deps.resultSignal.listen(postId);
      const seen = rung ?? (await deps.posts.poll(postId, waiting)) ?? [];
      current = current.map((n) => {
        const p = seen.find((x) => x.platform === n.platform);
        if (!p || (pending(p.state) && !pending(n.state))) return n;
        return { ...n, state: p.state, ...(p.result ? { result: p.result } : {}) };
      });
      if (!current.some((n) => pending(n.state)) || deps.clock.now() >= until) return current;
    }
  } finally {
    listener.stop();
  }
}

const pending = (state: NetworkRecord['state']) => state === 'queued' || state === 'sending';

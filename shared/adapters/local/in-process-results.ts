import type { ResultListener, ResultSignal, RungNetwork } from '../../ports/result-signal';

/**
 * The result signal of the local runtime, where the API handler and the publish worker share one process: a ring
 * wakes every request currently listening for that post (listeners are per post and removed when rung or stopped),
 * handing each the networks the ring carried.
 */
export class InProcessResults implements ResultSignal {
  readonly rings = true;
  private readonly listeners = new Map<string, Set<(networks: RungNetwork[] | undefined) => void>>();

  async ring(postId: string, networks?: RungNetwork[]): Promise<void> {
    const waiting = this.listeners.get(postId);
    if (!waiting) return;
    this.listeners.delete(postId);
    for (const wake of waiting) wake(networks);
    // the woken requests answer in the promise jobs that follow; the caller goes on after them (the next turn)
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  listen(postId: string): ResultListener {
    let wake!: (networks: RungNetwork[] | undefined) => void;
    const rung = new Promise<RungNetwork[] | undefined>((resolve) => { wake = resolve; });
    let set = this.listeners.get(postId);
    if (!set) this.listeners.set(postId, set = new Set());
    set.add(wake);
    return {
      rung,
      stop: () => {
        const current = this.listeners.get(postId);
        if (!current?.delete(wake)) return;
        if (current.size === 0) this.listeners.delete(postId);
      },
    };
  }

  /** Posts someone is listening for (tests: listeners do not leak). */
  get listening(): number { return this.listeners.size; }
}

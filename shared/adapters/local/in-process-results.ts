import type { ResultListener, ResultSignal } from '../../ports/result-signal';

/**
 * The result signal of the local runtime, where the API handler and the publish worker share one process: a ring
 * wakes every request currently listening for that post (listeners are per post and removed when rung or stopped).
 */
export class InProcessResults implements ResultSignal {
  readonly rings = true;
  private readonly listeners = new Map<string, Set<() => void>>();

  ring(postId: string): void {
    const waiting = this.listeners.get(postId);
    if (!waiting) return;
    this.listeners.delete(postId);
    for (const wake of waiting) wake();
  }

  listen(postId: string): ResultListener {
    let wake!: () => void;
    const rung = new Promise<void>((resolve) => { wake = resolve; });
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

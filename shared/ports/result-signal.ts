import type { NetworkRecord } from './publishing';

/** A network's state and result as the conditional write that settled it answered them (the item after that write). */
export type RungNetwork = Pick<NetworkRecord, 'platform' | 'state' | 'result'>;

/**
 * Tells a request waiting for a post's results that a network of that post has just settled, so the wait can go on
 * at once instead of at its next poll. A ring may carry the post's networks as the settling write answered them
 * (what the table holds after that write: the waiting request then needs no read of its own); one without them
 * only ends the current wait early, and the request reads the post. A missed or absent ring costs at most one poll
 * interval (in AWS the API and the worker are separate Lambdas, and nothing rings).
 */
export interface ResultSignal {
  /** Whether settles ring here: a waiting request then polls only as a backstop, at a longer interval. */
  readonly rings: boolean;
  /**
   * A network of the post was settled (its result or next state is in the table now); `networks`: the item's, after
   * that write. Resolves once the requests it woke have had their turn (locally they share the worker's process), so
   * that the worker's after-work (webhook deliveries, analytics) does not hold up their answers.
   */
  ring(postId: string, networks?: RungNetwork[]): Promise<void>;
  /** Listens for the post's next ring: `rung` resolves at that ring (never, if none comes); `stop` ends listening. */
  listen(postId: string): ResultListener;
}

export interface ResultListener {
  /** Resolves at the ring, with the networks it carried (undefined: the ring carried none, read the post). */
  rung: Promise<RungNetwork[] | undefined>;
  stop(): void;
}

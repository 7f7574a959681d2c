/**
 * Tells a request waiting for a post's results that a network of that post has just settled, so the wait can read
 * the post at once instead of at its next poll. Polling stays the source of truth: a ring only ends the current
 * wait early, and a missed or absent ring costs at most one poll interval (in AWS the API and the worker are
 * separate Lambdas, and nothing rings).
 */
export interface ResultSignal {
  /** Whether settles ring here: a waiting request then polls only as a backstop, at a longer interval. */
  readonly rings: boolean;
  /** A network of the post was settled (its result or next state is in the table now). */
  ring(postId: string): void;
  /** Listens for the post's next ring: `rung` resolves at that ring (never, if none comes); `stop` ends listening. */
  listen(postId: string): ResultListener;
}

export interface ResultListener {
  rung: Promise<void>;
  stop(): void;
}

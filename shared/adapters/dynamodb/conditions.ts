/**
 * Named condition fragments (Powertools style): each says one thing, and stores compose them with AND / OR.
 * Every fragment that guards an expiring item checks the expiry itself, because TTL deletion is lazy (and the
 * embedded engine never deletes at all).
 */
export const cond = {
  /** No item with this key exists yet. */
  absent: 'attribute_not_exists(pk)',
  /** The item exists. */
  present: 'attribute_exists(pk)',
  /** The item has expired (requires :now, epoch seconds). */
  expired: 'expires_at < :now',
  /** The item has not expired (requires :now). */
  live: 'expires_at >= :now',
  /** Never used before. */
  unused: 'attribute_not_exists(used_at)',
  /** Not revoked before. */
  notRevoked: 'attribute_not_exists(revoked_at)',
  /** A lock held by the caller (requires :holder: the post or schedule id that took it). */
  heldBy: 'post_id = :holder',
  /** Owned by the caller (requires :account). */
  ownedBy: 'account_id = :account',
} as const;

/**
 * Fragments on one entry of a map attribute: `#n.#p` is the entry (entity.ts `entryChange` names the map #n and the
 * entry's key #p), e.g. a post's `networks.<platform>`, where each network is claimed and settled. A fragment on the
 * entry's state requires the name #state ('state' is a reserved word).
 */
export const entry = {
  /** The entry exists. */
  present: 'attribute_exists(#n.#p)',
  /** The entry's state is one of `count` states, :s0 … :s<count-1>. */
  stateIn: (count: number) => `#n.#p.#state IN (${Array.from({ length: count }, (_, i) => `:s${i}`).join(', ')})`,
  /** Waiting for a worker (requires :queued). */
  queued: '#n.#p.#state = :queued',
  /** Claimed by a worker that is sending it (requires :sending). */
  sending: '#n.#p.#state = :sending',
  /** Claimed at exactly :claimed_at (ms): the claim its caller made or saw, not one taken over since. */
  claimedAt: '#n.#p.claimed_at = :claimed_at',
  /** Claimed before :stale (ms): by a worker that stopped long ago. */
  claimedBefore: '#n.#p.claimed_at < :stale',
  /** Deferred exactly :deferrals times: the message of the current deferral, not an older one. */
  deferrals: '#n.#p.deferrals = :deferrals',
  /** At resume step :resumes exactly: the message of the current step. */
  resumes: '#n.#p.resumes = :resumes',
  /** Due: no resume time, or one at or before :dueBy (ms). */
  dueBy: 'attribute_not_exists(#n.#p.resume_at) OR #n.#p.resume_at <= :dueBy',
} as const;

export const and = (...parts: string[]) => parts.map((p) => `(${p})`).join(' AND ');
export const or = (...parts: string[]) => parts.map((p) => `(${p})`).join(' OR ');

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

export const and = (...parts: string[]) => parts.map((p) => `(${p})`).join(' AND ');
export const or = (...parts: string[]) => parts.map((p) => `(${p})`).join(' OR ');

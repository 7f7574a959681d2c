/** A signed-in dashboard session. Only the SHA-256 of the session id is stored; the id lives in the cookie. */
export interface DashboardSession {
  /** SHA-256 (hex) of the opaque session id. */
  hash: string;
  account_id: string;
  created_at: string;
  /** Epoch seconds; also the TTL attribute. */
  expires_at: number;
}

/**
 * Dashboard sessions. Reads check the expiry themselves (TTL deletion is lazy), and revoking deletes the
 * item so sign-out ends the session at once.
 */
export interface SessionStore {
  create(session: DashboardSession): Promise<void>;
  /** The live session with this hash; undefined when unknown, revoked or expired at `nowMs`. */
  get(hash: string, nowMs: number): Promise<DashboardSession | undefined>;
  revoke(hash: string): Promise<void>;
}

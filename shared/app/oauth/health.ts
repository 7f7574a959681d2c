import type { Connection } from '../../ports/publishing';
import type { TokenSet } from '../../ports/oauth';
import type { Settings } from '../deps';

/**
 * Connection health: what a connection's state is, and when the renewal sweep should look at it next.
 * Pure functions over the connection's plain fields (no decryption), so listings show health without the cipher.
 */

/** The sweep renews an access token this long before it expires (the sweep runs every 15 minutes). */
export const RENEW_AHEAD_MS = 60 * 60_000;
/** A refresh token with an end date (rolling refresh tokens) is renewed this long before that end. */
export const ROLL_AHEAD_MS = 24 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export const noticeMs = (settings: Pick<Settings, 'connectionExpiringDays'>) => (settings.connectionExpiringDays ?? 7) * DAY_MS;

export type HealthState = 'healthy' | 'expiring' | 'reauth_required' | 'network_down';
export interface Health {
  state: HealthState;
  /** `expiring`: when the sign-in lapses unless the user signs in again (ISO). */
  expires_at?: string;
  /** `network_down`: since when the network could not be reached to check or renew the sign-in, and its answer. */
  since?: string;
  error?: string;
}

/**
 * The sweep plan of a token set:
 * - lapses_at: when the sign-in needs the user — a renewable set's refresh-token end (if the network gives one),
 *   else the access token's own expiry; absent when it never lapses on its own;
 * - sweep_at: the earliest of: renew the access token (RENEW_AHEAD_MS before expiry), roll the refresh token
 *   (ROLL_AHEAD_MS before its end), tell the owner (the notice window before lapses_at, once per lapse date),
 *   and the lapse itself (then the sweep marks the connection reauth_required).
 */
export function sweepPlan(tokens: TokenSet, renewable: boolean, now: number, notice: number, notified?: number): { lapses_at?: number; sweep_at?: number } {
  const canRenew = renewable && !!tokens.refresh_token && (tokens.refresh_expires_at === undefined || tokens.refresh_expires_at > now);
  const lapses_at = canRenew ? tokens.refresh_expires_at : tokens.expires_at;
  const points: number[] = [];
  if (canRenew && tokens.expires_at !== undefined) points.push(tokens.expires_at - RENEW_AHEAD_MS);
  if (canRenew && tokens.refresh_expires_at !== undefined) points.push(tokens.refresh_expires_at - ROLL_AHEAD_MS);
  if (lapses_at !== undefined) {
    if (notified !== lapses_at) points.push(lapses_at - notice);
    points.push(lapses_at);
  }
  return { lapses_at, sweep_at: points.length ? Math.min(...points) : undefined };
}

/** A connection's health from its stored fields: lost sign-in first, then an unreachable network, then a near lapse. */
export function healthOf(c: Connection, now: number, notice: number): Health {
  if (c.status === 'reauth_required') return { state: 'reauth_required' };
  if (c.network_down_since) return { state: 'network_down', since: c.network_down_since, ...(c.network_error ? { error: c.network_error } : {}) };
  if (c.lapses_at !== undefined && c.lapses_at - now <= notice) return { state: 'expiring', expires_at: new Date(c.lapses_at).toISOString() };
  return { state: 'healthy' };
}

/** A connection as the API shows it (never the credentials), with its health when the caller knows the time. */
export const connectionView = (c: Connection, health?: Health) => ({
  id: c.id, platform: c.platform, brand_id: c.brand_id, handle: c.handle, label: c.label, status: c.status, connected_at: c.connected_at,
  ...(health ? { health } : {}),
});

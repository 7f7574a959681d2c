import { createHash } from 'node:crypto';
import { randomBase62 } from './ids';

/** API keys: `svc_live_` + 40 base62 characters; only the SHA-256 is stored; the listed prefix is 12 characters. */
export const API_KEY_PREFIX = 'svc_live_';
const API_KEY_RE = /^svc_live_[0-9A-Za-z]{32,64}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBase62(40);
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_RE.test(value);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}

/** What a key may do (spec §5.3): `publish` posts and schedules, `read` lists and fetches, `manage` changes keys, webhooks, brands and connections. */
export const KEY_SCOPES = ['publish', 'read', 'manage'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** A key stored without `scopes` (issued before scopes existed) holds all three. */
export function scopesOf(key: { scopes?: readonly KeyScope[] }): KeyScope[] {
  return key.scopes ? KEY_SCOPES.filter((s) => key.scopes!.includes(s)) : [...KEY_SCOPES];
}

/**
 * The scope a route needs: its own `scope`, else `read` for GET/HEAD and `manage` for every other method (so a route
 * added without a scope is never reachable by a publish-only or read-only key by mistake).
 */
export function requiredScope(route: { scope?: KeyScope; method: string }): KeyScope {
  if (route.scope) return route.scope;
  return route.method === 'GET' || route.method === 'HEAD' ? 'read' : 'manage';
}

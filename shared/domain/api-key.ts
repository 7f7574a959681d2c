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

import { randomBytes } from 'node:crypto';

/** Id prefixes of decisions.md "Identity and ids". */
export const ID_PREFIXES = ['acc', 'key', 'brd', 'con', 'pst', 'sch', 'rec', 'wh', 'evt', 'med', 'apr', 'dlv', 'upl', 'mcpc', 'app', 'chg'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

let lastTime = -1;
let lastRandom: number[] = [];

/**
 * A ULID: 48-bit millisecond time + 80 random bits, Crockford base32, so ids sort by creation time. Monotonic
 * within a process: ids made in the same millisecond increment the random part, so they keep their order too.
 */
export function ulid(nowMs: number): string {
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  if (nowMs === lastTime) {
    let i = lastRandom.length - 1;
    while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0;
    if (i >= 0) lastRandom[i]++;
  } else {
    lastTime = nowMs;
    lastRandom = Array.from(randomBytes(16), (b) => b % 32);
  }
  return time + lastRandom.map((d) => CROCKFORD[d]).join('');
}

/** A prefixed ULID made at `nowMs` (the caller's injected clock). */
export function newId<P extends IdPrefix>(prefix: P, nowMs: number): `${P}_${string}` {
  return `${prefix}_${ulid(nowMs)}`;
}

const ID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` is a well-formed id with that prefix. Anything else is answered 404 by callers. */
export function isId(prefix: IdPrefix, value: string | undefined | null): boolean {
  if (!value || !value.startsWith(prefix + '_')) return false;
  return ID_RE.test(value.slice(prefix.length + 1));
}

/** Uniformly random base62 text (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** A url-safe random token (256 bits) for links sent by email or shown once. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

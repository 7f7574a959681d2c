import { webcrypto } from 'node:crypto';

/**
 * An independent implementation of the Stripe-style scheme (WebCrypto, not node:crypto's createHmac): hex
 * HMAC-SHA256 over `${t}.${rawBody}` keyed with the secret's UTF-8 bytes.
 */
export async function independentSign(secret: string, t: number, rawBody: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await webcrypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await webcrypto.subtle.sign('HMAC', key, enc.encode(`${t}.${rawBody}`)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Independent verification: parse the header by hand, check the age, compare with every v1. */
export async function independentVerify(rawBody: string, header: string, secret: string, nowSec: number): Promise<boolean> {
  const parts = header.split(',').map((p) => p.split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isFinite(t) || Math.abs(nowSec - t) > 300) return false;
  const expected = await independentSign(secret, t, rawBody);
  return parts.filter(([k]) => k === 'v1').some(([, v]) => v === expected);
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (service.md §6), self-contained so receivers can copy this file or import it:
 * `Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]` where each v1 is HMAC-SHA256 keyed with an endpoint
 * secret over `<t>.<raw body>`. During a secret rotation a delivery carries two v1 entries (new and old secret);
 * a receiver accepts the delivery when any v1 matches its secret.
 *
 * No dependencies besides node:crypto.
 */

export interface VerifyOptions {
  /** Largest accepted difference between t and now, in seconds (default 300: spec §6). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (default Date.now()); for tests. */
  now?: number;
}

export type VerifyFailure = 'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature';

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailure };

/** Thrown by verifyWebhook; `reason` says why. */
export class WebhookVerificationError extends Error {
  constructor(readonly reason: VerifyFailure) {
    super(`Webhook signature rejected: ${reason.replace(/_/g, ' ')}`);
    this.name = 'WebhookVerificationError';
  }
}

/** The hex HMAC-SHA256 of `<t>.<raw body>` keyed with `secret`. */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(rawBody);
  return hmac.digest('hex');
}

/** The Service-Signature header for a body signed at `timestamp` with each of `secrets` (first = current). */
export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string | Buffer): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, rawBody)}`)].join(',');
}

/** Parses `t=…,v1=…[,v1=…]`; unknown schemes (v0=…) are ignored. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 1) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== undefined) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (/^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/**
 * Checks a delivery without throwing: the header parses, t is within the tolerance of now (both directions), and
 * some v1 equals the HMAC of `<t>.<rawBody>` (constant-time compare). Pass the raw bytes as received, never
 * re-serialised JSON.
 */
export function checkWebhook(rawBody: string | Buffer, signatureHeaderValue: string | undefined | null, secret: string, opts: VerifyOptions = {}): VerifyResult {
  if (!signatureHeaderValue) return { ok: false, reason: 'missing_header' };
  const parsed = parseSignatureHeader(signatureHeaderValue);
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  const tolerance = opts.toleranceSeconds ?? 300;
  const nowSec = Math.floor((opts.now ?? Date.now()) / 1000);
  if (Math.abs(nowSec - parsed.timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  const expected = Buffer.from(computeSignature(secret, parsed.timestamp, rawBody), 'hex');
  let match = false;
  for (const candidate of parsed.signatures) {
    // every candidate is compared (no early exit), each in constant time
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) match = true;
  }
  return match ? { ok: true, timestamp: parsed.timestamp } : { ok: false, reason: 'no_matching_signature' };
}

/**
 * Verifies a delivery and answers the parsed event; throws WebhookVerificationError when the signature is missing,
 * malformed, stale or in the future beyond the tolerance (default 300 s), or matches no v1.
 *
 *   const event = verifyWebhook(rawBody, req.headers['service-signature'], process.env.WEBHOOK_SECRET, { toleranceSeconds: 300 });
 */
export function verifyWebhook<T = { id: string; type: string; created_at: string; delivery_id: string; data: Record<string, unknown> }>(
  rawBody: string | Buffer, signatureHeaderValue: string | undefined | null, secret: string, opts: VerifyOptions = {},
): T {
  const res = checkWebhook(rawBody, signatureHeaderValue, secret, opts);
  if (!res.ok) throw new WebhookVerificationError(res.reason);
  return JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')) as T;
}

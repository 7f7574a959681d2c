import { createHash } from 'node:crypto';
import { randomBase62 } from './ids';

/**
 * Webhook rules in one place (service.md §6, §8; decisions.md "Webhooks"): event names, the retry schedule, the
 * delivery limits and the secret format. Nothing here does I/O.
 */

/** Every event name an endpoint may subscribe to (approval.* are accepted now and emitted once approvals exist). */
export const WEBHOOK_EVENTS = [
  'post.published', 'post.failed', 'connection.reauth_required', 'connection.expiring', 'webhook.test', 'approval.requested', 'approval.decided',
  'post.deleted', 'post.edited',
  'post.reconciled',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** What an endpoint receives when `events` is omitted at registration (spec §6 rule 4). */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventName[] = ['post.published', 'post.failed', 'connection.reauth_required'];

export const isWebhookEvent = (name: string): name is WebhookEventName => (WEBHOOK_EVENTS as readonly string[]).includes(name);

/** Tries in all (the first one included). */
export const MAX_ATTEMPTS = 9;

/**
 * Seconds to wait after try n (index n-1) before try n+1: 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 12 h, 12 h
 * (decisions.md: ≈ 42 h from the first try to the ninth).
 */
export const RETRY_DELAYS_SECONDS = [60, 300, 1_800, 7_200, 18_000, 36_000, 43_200, 43_200] as const;

/** The wait after try `attempt` (1-based), or undefined when it was the last automatic try. */
export function retryDelaySeconds(attempt: number): number | undefined {
  return attempt >= 1 && attempt < MAX_ATTEMPTS ? RETRY_DELAYS_SECONDS[attempt - 1] : undefined;
}

/** A try that gets a 2xx within this time succeeded; anything slower is a timeout (a failed try). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Response bytes read from a receiver (the rest is discarded); the log keeps a shorter excerpt. */
export const MAX_RESPONSE_BYTES = 16 * 1024;
export const RESPONSE_EXCERPT_CHARS = 512;
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Deliveries and their log entries are kept this long. */
export const DELIVERY_RETENTION_SECONDS = 30 * 86_400;
/** Largest SQS DelaySeconds; longer waits are bridged with the scheduler. */
export const SQS_MAX_DELAY_SECONDS = 900;

/** A new endpoint secret: `whsec_` + 32 base62 characters (≈ 190 bits). The HMAC key is this whole string. */
export const newWebhookSecret = () => `whsec_${randomBase62(32)}`;

/**
 * The delivery id of (event, endpoint): a UUID (RFC 9562 version 8, from SHA-256), the same every time it is
 * computed, so recording the same event twice creates no second delivery, and every retry and re-send carries it.
 */
export function deliveryIdOf(eventId: string, webhookId: string): string {
  const b = createHash('sha256').update(`${eventId}\n${webhookId}`).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x80; // version 8
  b[8] = (b[8] & 0x3f) | 0x80; // RFC variant
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v);

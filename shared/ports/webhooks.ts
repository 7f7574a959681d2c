import type { WebhookEventName } from '../domain/webhooks';

/** Ports of signed webhooks: the endpoint and delivery store, and the HTTP sender with its address checks. */

export interface WebhookEndpoint {
  id: string;
  account_id: string;
  url: string;
  events: WebhookEventName[];
  /** The signing secret, envelope-encrypted (it is needed in plain text to sign, so it cannot be hashed). */
  secret_enc: string;
  /** The secret before the last rotation and until when it still signs (ms); absent when none. */
  previous_secret_enc?: string;
  previous_secret_until?: number;
  created_at: string;
  rotated_at?: string;
}

export type DeliveryState = 'pending' | 'succeeded' | 'failed';

/** One event for one endpoint: the unit that is tried up to 9 times (its id is the Service-Delivery header). */
export interface WebhookDelivery {
  delivery_id: string;
  webhook_id: string;
  account_id: string;
  event_id: string;
  type: WebhookEventName;
  /** The exact JSON body sent on every try. */
  body: string;
  state: DeliveryState;
  /** Tries recorded so far. */
  attempts: number;
  /** The try after which the delivery is final (9; a re-send of a final delivery allows one more). */
  max_attempts: number;
  /** When the next try is due (ms) while pending. */
  next_attempt_at?: number;
  /** The highest try handed to the queue or the scheduler. */
  queued_attempt: number;
  /** A worker's claim on try `claim_attempt` since `claimed_at` (ms). */
  claim_attempt?: number;
  claimed_at?: number;
  /** Times the sweep re-queued it. */
  rescues: number;
  last_status_code?: number | null;
  last_error?: string | null;
  created_at: string;
  updated_at: string;
}

/** One try, as the delivery log shows it (decisions.md "Webhooks"). */
export interface DeliveryAttempt {
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  type: WebhookEventName;
  attempt: number;
  status_code: number | null;
  ok: boolean;
  duration_ms: number;
  error: string | null;
  /** When the next try is due; null when this try was final. */
  next_attempt_at: string | null;
  /** The start of the try. */
  created_at: string;
  /** The first bytes of the receiver's answer (text), when it sent one. */
  response_excerpt?: string;
}

export interface WebhookStore {
  /** Writes a new endpoint (condition: id unused). */
  create(endpoint: WebhookEndpoint): Promise<void>;
  get(accountId: string, webhookId: string): Promise<WebhookEndpoint | undefined>;
  list(accountId: string): Promise<WebhookEndpoint[]>;
  /** Deletes the account's endpoint; false when there was none. */
  delete(accountId: string, webhookId: string): Promise<boolean>;
  /** Replaces the secret, keeping the old one signing until `previousUntil` (ms); false when the endpoint is gone. */
  rotate(accountId: string, webhookId: string, secretEnc: string, previousEnc: string, previousUntil: number, at: string): Promise<boolean>;

  /** Writes a new delivery (pending, due at `next_attempt_at`); false when it exists already. */
  putDelivery(delivery: WebhookDelivery): Promise<boolean>;
  getDelivery(deliveryId: string): Promise<WebhookDelivery | undefined>;
  /**
   * Claims try `attempt`: only while pending, with `attempt - 1` tries recorded, and no claim newer than
   * `staleBeforeMs`. Answers the claim time on success.
   */
  claim(deliveryId: string, attempt: number, nowMs: number, staleBeforeMs: number): Promise<number | undefined>;
  /**
   * Records the outcome of the claimed try (condition: the claim is still ours): sets attempts, state and the next
   * due time, and drops the claim; a final state leaves the due index.
   */
  finish(deliveryId: string, attempt: number, claimedAt: number, outcome: {
    state: DeliveryState; next_attempt_at?: number; status_code: number | null; error: string | null; at: string;
  }): Promise<boolean>;
  /** Notes that try `attempt` was handed to the queue or scheduler (monotonic). */
  markQueued(deliveryId: string, attempt: number): Promise<void>;
  /**
   * A re-send: a final delivery becomes pending again with one more try allowed (condition: still in `fromState`),
   * due now; a pending one is only made due now. False when the state changed meanwhile.
   */
  reopen(deliveryId: string, fromState: DeliveryState, maxAttempts: number, nowMs: number, at: string): Promise<boolean>;
  /** The sweep's re-queue: due again at `nowMs`, rescues + 1 (condition: due time unchanged since it was read). */
  rescue(deliveryId: string, seenNextAt: number, nowMs: number): Promise<boolean>;
  /** Closes a pending delivery as failed without a try (endpoint deleted, sweep gave up). */
  abandon(deliveryId: string, error: string, at: string): Promise<void>;
  /** Pending deliveries due at or before `beforeMs`, oldest first. */
  due(beforeMs: number, limit: number): Promise<WebhookDelivery[]>;

  addAttempt(attempt: DeliveryAttempt, claimedAt: number): Promise<void>;
  /** The endpoint's tries, newest first; `before` is the cursor of the previous page. */
  listAttempts(webhookId: string, limit: number, before?: string): Promise<{ attempts: DeliveryAttempt[]; next_before: string | null }>;
}

/** What one HTTP try answered. */
export interface SendResult {
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt?: string;
}

/** Sends signed deliveries over HTTP with the address checks of decisions.md. */
export interface WebhookSender {
  /** Throws UnsafeTargetError when the URL may not be registered (https, public addresses). */
  check(url: string): Promise<void>;
  /** One POST: address checked again, connection pinned to the checked address, no redirects, 10 s, capped body. */
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}

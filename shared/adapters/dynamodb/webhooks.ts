import type { DeliveryAttempt, DeliveryState, WebhookDelivery, WebhookEndpoint, WebhookStore } from '../../ports/webhooks';
import { DELIVERY_RETENTION_SECONDS } from '../../domain/webhooks';
import type { TableRef } from './client';
import { and, cond, or } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';

const expiresAt = (ms: number) => Math.floor(ms / 1000) + DELIVERY_RETENTION_SECONDS;

const endpointEntity = entity({
  key: keys.webhook,
  keyOf: (e: WebhookEndpoint) => keys.webhook(e.account_id, e.id),
});

/** A delivery is on the due index from its first write; a final state takes it off (`finish`, `abandon`). */
const deliveryEntity = entity({
  key: keys.delivery,
  keyOf: (d: WebhookDelivery) => keys.delivery(d.delivery_id),
  indexOf: (d: WebhookDelivery) => keys.deliveryDue(d.delivery_id, d.next_attempt_at ?? 0),
  extraOf: (d: WebhookDelivery) => ({ expires_at: expiresAt(Date.parse(d.created_at)) }),
  hidden: ['expires_at'],
});

/** A try of the log, keyed by when its claim started (the log's order and its cursor): that time is in the key only. */
type LoggedAttempt = DeliveryAttempt & { started_ms: number };

const attemptEntity = entity({
  key: keys.deliveryAttempt,
  keyOf: (a: LoggedAttempt) => keys.deliveryAttempt(a.webhook_id, a.started_ms, a.delivery_id, a.attempt),
  extraOf: (a: LoggedAttempt) => ({ expires_at: expiresAt(a.started_ms) }),
  hidden: ['expires_at'],
  keyOnly: ['started_ms'],
});

const STATE = { '#state': 'state' };

/**
 * Webhook endpoints (under their account's partition, so listing and the per-event fan-out are one query), one
 * item per delivery (its state machine; indexed by due time on gsi1 while pending, for the sweep), and the delivery
 * log (one item per try under WHLOG#<endpoint>, newest first). Deliveries and log entries expire after 30 days.
 */
export class DynamoWebhookStore implements WebhookStore {
  private readonly endpoints: Bound<typeof endpointEntity>;
  private readonly deliveries: Bound<typeof deliveryEntity>;
  private readonly attempts: Bound<typeof attemptEntity>;
  constructor(t: TableRef) {
    this.endpoints = endpointEntity.on(t);
    this.deliveries = deliveryEntity.on(t);
    this.attempts = attemptEntity.on(t);
  }

  async create(endpoint: WebhookEndpoint) {
    // a new id: never overwrite an endpoint
    await this.endpoints.put(endpoint, { if: cond.absent });
  }

  async get(accountId: string, webhookId: string) {
    return this.endpoints.get(accountId, webhookId);
  }

  async list(accountId: string) {
    return this.endpoints.query({ pk: keys.account(accountId).pk, beginsWith: keys.webhookPrefix });
  }

  async delete(accountId: string, webhookId: string) {
    // only an existing endpoint counts as deleted (the usage counter is released once)
    return conditional(this.endpoints.delete([accountId, webhookId], { if: cond.present }));
  }

  async rotate(accountId: string, webhookId: string, secretEnc: string, previousEnc: string, previousUntil: number, at: string) {
    return conditional(this.endpoints.update([accountId, webhookId], {
      set: { secret_enc: secretEnc, previous_secret_enc: previousEnc, previous_secret_until: previousUntil, rotated_at: at },
    }, {
      // the endpoint still exists
      if: cond.present,
    }));
  }

  async putDelivery(d: WebhookDelivery) {
    // one delivery per (event, endpoint): a second fan-out of the same event changes nothing
    return conditional(this.deliveries.put(d, { if: cond.absent }));
  }

  async getDelivery(deliveryId: string) {
    return this.deliveries.get(deliveryId);
  }

  async claim(deliveryId: string, attempt: number, nowMs: number, staleBeforeMs: number) {
    const ok = await conditional(this.deliveries.update([deliveryId], { set: { claim_attempt: attempt, claimed_at: nowMs } }, {
      if: and(
        cond.present,
        // still being delivered, and this is the next try
        '#state = :pending', 'attempts = :prev',
        // nobody is on it, or whoever was stopped (a crashed worker's claim goes stale)
        or('attribute_not_exists(claimed_at)', 'claimed_at < :stale'),
      ),
      names: STATE,
      values: { ':pending': 'pending', ':prev': attempt - 1, ':stale': staleBeforeMs },
    }));
    return ok ? nowMs : undefined;
  }

  async finish(deliveryId: string, attempt: number, claimedAt: number, o: { state: DeliveryState; next_attempt_at?: number; status_code: number | null; error: string | null; at: string }) {
    const pending = o.state === 'pending' && o.next_attempt_at !== undefined;
    const due = pending ? { next_attempt_at: o.next_attempt_at, ...keys.deliveryDue(deliveryId, o.next_attempt_at!) } : {};
    return conditional(this.deliveries.update([deliveryId], {
      set: { attempts: attempt, state: o.state, last_status_code: o.status_code, last_error: o.error, updated_at: o.at, ...due },
      // a final state leaves the due index
      remove: ['claim_attempt', 'claimed_at', ...(pending ? [] : ['next_attempt_at', 'gsi1pk', 'gsi1sk'])],
    }, {
      // the claim on this try is still ours (not taken over as stale by another worker)
      if: and(cond.present, 'claim_attempt = :attempt', 'claimed_at = :claimedAt'),
      values: { ':attempt': attempt, ':claimedAt': claimedAt },
    }));
  }

  async markQueued(deliveryId: string, attempt: number) {
    await conditional(this.deliveries.update([deliveryId], { set: { queued_attempt: attempt } }, {
      // monotonic: never lower it
      if: and(cond.present, 'queued_attempt < :attempt'),
      values: { ':attempt': attempt },
    }));
  }

  async reopen(deliveryId: string, fromState: DeliveryState, maxAttempts: number, nowMs: number, at: string) {
    return conditional(this.deliveries.update([deliveryId], {
      set: { state: 'pending', max_attempts: maxAttempts, next_attempt_at: nowMs, ...keys.deliveryDue(deliveryId, nowMs), updated_at: at },
    }, {
      // unchanged since the caller read it
      if: and(cond.present, '#state = :from'),
      names: STATE,
      values: { ':from': fromState },
    }));
  }

  async rescue(deliveryId: string, seenNextAt: number, nowMs: number) {
    return conditional(this.deliveries.update([deliveryId], {
      set: { next_attempt_at: nowMs, ...keys.deliveryDue(deliveryId, nowMs) }, add: { rescues: 1 },
    }, {
      // still pending and not moved on since the sweep read it (one sweeper wins)
      if: and(cond.present, '#state = :pending', 'next_attempt_at = :seen'),
      names: STATE,
      values: { ':pending': 'pending', ':seen': seenNextAt },
    }));
  }

  async abandon(deliveryId: string, error: string, at: string) {
    await conditional(this.deliveries.update([deliveryId], {
      set: { state: 'failed', last_error: error, updated_at: at },
      remove: ['next_attempt_at', 'gsi1pk', 'gsi1sk', 'claim_attempt', 'claimed_at'],
    }, {
      // only a delivery still pending is closed
      if: and(cond.present, '#state = :pending'),
      names: STATE,
      values: { ':pending': 'pending' },
    }));
  }

  async due(beforeMs: number, limit: number) {
    const upTo = `${String(Math.max(0, Math.floor(beforeMs))).padStart(15, '0')}#~`;
    const pages = await Promise.all(keys.deliveryDueShards.map((gsi1pk) => this.deliveries.page({ gsi1pk, upTo }, { limit })));
    return pages.flatMap((p) => p.items)
      .filter((d) => d.state === 'pending')
      .sort((a, b) => (a.next_attempt_at ?? 0) - (b.next_attempt_at ?? 0))
      .slice(0, limit);
  }

  async addAttempt(a: DeliveryAttempt, claimedAt: number) {
    await this.attempts.put({ ...a, started_ms: claimedAt });
  }

  async listAttempts(webhookId: string, limit: number, before?: string) {
    const page = await this.attempts.page(
      { pk: keys.deliveryAttempt(webhookId, 0, '', 0).pk, ...(before ? { before } : {}) },
      { descending: true, limit },
    );
    // the last try answered is where the query stopped: its sort key is the next page's bound
    return { attempts: page.items, next_before: page.next && page.items.length ? String(page.next.sk) : null };
  }
}

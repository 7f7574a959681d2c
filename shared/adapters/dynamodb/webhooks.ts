import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DeliveryAttempt, DeliveryState, WebhookDelivery, WebhookEndpoint, WebhookStore } from '../../ports/webhooks';
import { DELIVERY_RETENTION_SECONDS } from '../../domain/webhooks';
import { isConditionFailure, type TableRef } from './client';
import { and, cond, or } from './conditions';
import { GSI1, keys, strip } from './keys';

const INTERNAL = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'expires_at'];
const clean = <T>(item: Record<string, unknown>): T => {
  const out: Record<string, unknown> = { ...item };
  for (const k of INTERNAL) delete out[k];
  return out as T;
};
const expiresAt = (ms: number) => Math.floor(ms / 1000) + DELIVERY_RETENTION_SECONDS;

async function conditional(p: Promise<unknown>): Promise<boolean> {
  try {
    await p;
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * Webhook endpoints (under their account's partition, so listing and the per-event fan-out are one query), one
 * item per delivery (its state machine; indexed by due time on gsi1 while pending, for the sweep), and the delivery
 * log (one item per try under WHLOG#<endpoint>, newest first). Deliveries and log entries expire after 30 days.
 */
export class DynamoWebhookStore implements WebhookStore {
  constructor(private readonly t: TableRef) {}

  async create(endpoint: WebhookEndpoint) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName, Item: { ...keys.webhook(endpoint.account_id, endpoint.id), ...endpoint },
      // a new id: never overwrite an endpoint
      ConditionExpression: cond.absent,
    }));
  }

  async get(accountId: string, webhookId: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.webhook(accountId, webhookId), ConsistentRead: true }));
    return res.Item ? strip<WebhookEndpoint>(res.Item) : undefined;
  }

  async list(accountId: string) {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, ConsistentRead: true, ExclusiveStartKey: start,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':prefix': keys.webhookPrefix },
      }));
      items.push(...(res.Items ?? []));
      start = res.LastEvaluatedKey;
    } while (start);
    return items.map((i) => strip<WebhookEndpoint>(i));
  }

  async delete(accountId: string, webhookId: string) {
    return conditional(this.t.doc.send(new DeleteCommand({
      TableName: this.t.tableName, Key: keys.webhook(accountId, webhookId),
      // only an existing endpoint counts as deleted (the usage counter is released once)
      ConditionExpression: cond.present,
    })));
  }

  async rotate(accountId: string, webhookId: string, secretEnc: string, previousEnc: string, previousUntil: number, at: string) {
    return conditional(this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.webhook(accountId, webhookId),
      UpdateExpression: 'SET secret_enc = :s, previous_secret_enc = :p, previous_secret_until = :u, rotated_at = :at',
      // the endpoint still exists
      ConditionExpression: cond.present,
      ExpressionAttributeValues: { ':s': secretEnc, ':p': previousEnc, ':u': previousUntil, ':at': at },
    })));
  }

  async putDelivery(d: WebhookDelivery) {
    return conditional(this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...keys.delivery(d.delivery_id), ...keys.deliveryDue(d.delivery_id, d.next_attempt_at ?? 0), ...d, expires_at: expiresAt(Date.parse(d.created_at)) },
      // one delivery per (event, endpoint): a second fan-out of the same event changes nothing
      ConditionExpression: cond.absent,
    })));
  }

  async getDelivery(deliveryId: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.delivery(deliveryId), ConsistentRead: true }));
    return res.Item ? clean<WebhookDelivery>(res.Item) : undefined;
  }

  async claim(deliveryId: string, attempt: number, nowMs: number, staleBeforeMs: number) {
    const ok = await conditional(this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.delivery(deliveryId),
      UpdateExpression: 'SET claim_attempt = :attempt, claimed_at = :now',
      ConditionExpression: and(
        cond.present,
        // still being delivered, and this is the next try
        '#state = :pending', 'attempts = :prev',
        // nobody is on it, or whoever was stopped (a crashed worker's claim goes stale)
        or('attribute_not_exists(claimed_at)', 'claimed_at < :stale'),
      ),
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':attempt': attempt, ':now': nowMs, ':pending': 'pending', ':prev': attempt - 1, ':stale': staleBeforeMs },
    })));
    return ok ? nowMs : undefined;
  }

  async finish(deliveryId: string, attempt: number, claimedAt: number, o: { state: DeliveryState; next_attempt_at?: number; status_code: number | null; error: string | null; at: string }) {
    const pending = o.state === 'pending' && o.next_attempt_at !== undefined;
    const due = pending ? keys.deliveryDue(deliveryId, o.next_attempt_at!) : undefined;
    return conditional(this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.delivery(deliveryId),
      UpdateExpression: [
        'SET attempts = :attempt, #state = :state, last_status_code = :code, last_error = :error, updated_at = :at',
        ...(pending ? [', next_attempt_at = :next, gsi1pk = :g1, gsi1sk = :g2'] : []),
        ' REMOVE claim_attempt, claimed_at',
        ...(pending ? [] : [', next_attempt_at, gsi1pk, gsi1sk']),
      ].join(''),
      // the claim on this try is still ours (not taken over as stale by another worker)
      ConditionExpression: and(cond.present, 'claim_attempt = :attempt', 'claimed_at = :claimedAt'),
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':attempt': attempt, ':state': o.state, ':code': o.status_code, ':error': o.error, ':at': o.at, ':claimedAt': claimedAt,
        ...(due ? { ':next': o.next_attempt_at, ':g1': due.gsi1pk, ':g2': due.gsi1sk } : {}),
      },
    })));
  }

  async markQueued(deliveryId: string, attempt: number) {
    await conditional(this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.delivery(deliveryId),
      UpdateExpression: 'SET queued_attempt = :attempt',
      // monotonic: never lower it
      ConditionExpression: and(cond.present, 'queued_attempt < :attempt'),
      ExpressionAttributeValues: { ':attempt': attempt },
    })));
  }

  async reopen(deliveryId: string, fromState: DeliveryState, maxAttempts: number, nowMs: number, at: string) {
    const due = keys.deliveryDue(deliveryId, nowMs);
    return conditional(this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.delivery(deliveryId),
      UpdateExpression: 'SET #state = :pending, max_attempts = :max, next_attempt_at = :now, gsi1pk = :g1, gsi1sk = :g2, updated_at = :at',
      // unchanged since the caller read it
      ConditionExpression: and(cond.present, '#state = :from'),
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':pending': 'pending', ':from': fromState, ':max': maxAttempts, ':now': nowMs, ':g1': due.gsi1pk, ':g2': due.gsi1sk, ':at': at },
    })));
  }

  async rescue(deliveryId: string, seenNextAt: number, nowMs: number) {
    const due = keys.deliveryDue(deliveryId, nowMs);
    return conditional(this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.delivery(deliveryId),
      UpdateExpression: 'SET next_attempt_at = :now, gsi1pk = :g1, gsi1sk = :g2 ADD rescues :one',
      // still pending and not moved on since the sweep read it (one sweeper wins)
      ConditionExpression: and(cond.present, '#state = :pending', 'next_attempt_at = :seen'),
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':now': nowMs, ':g1': due.gsi1pk, ':g2': due.gsi1sk, ':one': 1, ':pending': 'pending', ':seen': seenNextAt },
    })));
  }

  async abandon(deliveryId: string, error: string, at: string) {
    await conditional(this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.delivery(deliveryId),
      UpdateExpression: 'SET #state = :failed, last_error = :error, updated_at = :at REMOVE next_attempt_at, gsi1pk, gsi1sk, claim_attempt, claimed_at',
      // only a delivery still pending is closed
      ConditionExpression: and(cond.present, '#state = :pending'),
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':failed': 'failed', ':pending': 'pending', ':error': error, ':at': at },
    })));
  }

  async due(beforeMs: number, limit: number) {
    const bound = `${String(Math.max(0, Math.floor(beforeMs))).padStart(15, '0')}#~`;
    const pages = await Promise.all(keys.deliveryDueShards.map((shard) => this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, IndexName: GSI1, Limit: limit,
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk <= :bound',
      ExpressionAttributeValues: { ':p': shard, ':bound': bound },
    }))));
    return pages.flatMap((p) => p.Items ?? [])
      .filter((i) => i.state === 'pending')
      .map((i) => clean<WebhookDelivery>(i))
      .sort((a, b) => (a.next_attempt_at ?? 0) - (b.next_attempt_at ?? 0))
      .slice(0, limit);
  }

  async addAttempt(a: DeliveryAttempt, claimedAt: number) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...keys.deliveryAttempt(a.webhook_id, claimedAt, a.delivery_id, a.attempt), ...a, expires_at: expiresAt(claimedAt) },
    }));
  }

  async listAttempts(webhookId: string, limit: number, before?: string) {
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, ScanIndexForward: false, Limit: limit,
      KeyConditionExpression: before ? 'pk = :pk AND sk < :before' : 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.deliveryAttempt(webhookId, 0, '', 0).pk, ...(before ? { ':before': before } : {}) },
    }));
    const items = res.Items ?? [];
    const last = items.at(-1);
    return {
      attempts: items.map((i) => clean<DeliveryAttempt>(i)),
      next_before: res.LastEvaluatedKey && last ? String(last.sk) : null,
    };
  }
}

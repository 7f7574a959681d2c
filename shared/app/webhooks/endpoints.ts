import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { WebhookEndpoint } from '../../ports/webhooks';
import { BadRequestError, NotFoundError } from '../../domain/errors';
import { isId, newId } from '../../domain/ids';
import { PLANS } from '../../domain/plans';
import { usageKeys } from '../../domain/usage';
import { DEFAULT_WEBHOOK_EVENTS, deliveryIdOf, isWebhookEvent, newWebhookSecret, ROTATION_OVERLAP_MS, type WebhookEventName } from '../../domain/webhooks';
import { UnsafeTargetError } from '../../ports/media-gateway';
import { upgradeUrl } from '../brands';
import { webhookSecretContext } from '../security/contexts';
import { recordEvent } from './record-event';

/** The endpoint counter never expires by itself (it counts endpoints that exist): year 9999. */
const NO_EXPIRY_SEC = 253_402_300_799;

export const webhookView = (w: WebhookEndpoint) => ({
  id: w.id, url: w.url, events: w.events, created_at: w.created_at, rotated_at: w.rotated_at ?? null,
});

/** The account's endpoint, or 404 (an id that does not parse, or another account's, is not found too). */
export async function getWebhook(deps: Pick<Deps, 'webhooks'>, accountId: string, webhookId: string): Promise<WebhookEndpoint> {
  const found = isId('wh', webhookId) ? await deps.webhooks.get(accountId, webhookId) : undefined;
  if (!found) throw new NotFoundError('No such webhook endpoint');
  return found;
}

/** Event names of a registration: the defaults when omitted; unknown names are a 400 naming them. */
export function subscribedEvents(events: string[] | undefined): WebhookEventName[] {
  if (events === undefined) return [...DEFAULT_WEBHOOK_EVENTS];
  const unknown = events.filter((e) => !isWebhookEvent(e));
  if (unknown.length > 0) {
    throw new BadRequestError(`Unknown event name${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      code: 'unknown_event', details: { events: unknown },
    });
  }
  if (events.length === 0) throw new BadRequestError('events must name at least one event, or be left out for the defaults', { code: 'unknown_event', details: { events: [] } });
  return [...new Set(events)] as WebhookEventName[];
}

/**
 * Registers an endpoint (POST /api/webhooks).
 * 1. Validate the event names (defaults: post.published, post.failed, connection.reauth_required).
 * 2. Check the URL: https, resolving only to public addresses (400 invalid_webhook_url).
 * 3. Reserve a place on the account's endpoint counter within the plan's limit (400 webhook_limit_reached).
 * 4. Generate the secret, store it encrypted with the endpoint; give the place back if the write fails.
 * 5. Answer the endpoint and the secret (the only time it is shown, besides a rotation).
 * (The delivery sweep's recurring timer is part of the deployment: infra/sweep-schedules.ts.)
 */
export async function createWebhook(deps: Pick<Deps, 'webhooks' | 'webhookSender' | 'counters' | 'cipher' | 'clock' | 'settings' | 'fanOut'>, account: Account, input: { url: string; events?: string[] }) {
  const events = subscribedEvents(input.events);
  try {
    await deps.webhookSender.check(input.url);
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw new BadRequestError(err.message, { code: 'invalid_webhook_url', details: { reason: err.reason } });
    throw err;
  }
  const limit = PLANS[account.plan].webhooks;
  const counter = usageKeys.webhooks(account.id);
  if (!(await deps.counters.increment(counter, 1, limit, NO_EXPIRY_SEC)).allowed) {
    throw new BadRequestError(`The ${account.plan} plan includes ${limit} webhook endpoint${limit === 1 ? '' : 's'}; delete one or upgrade to add more`, { code: 'webhook_limit_reached', details: { limit, upgrade_url: upgradeUrl(deps, account) }, });
  }
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  try {
    const id = newId('wh', now);
    const endpoint: WebhookEndpoint = {
      id, account_id: account.id, url: new URL(input.url).toString(), events,
      secret_enc: await deps.cipher.encrypt(secret, webhookSecretContext({ account_id: account.id, id })), created_at: new Date(now).toISOString(),
    };
    await deps.webhooks.create(endpoint);
    deps.fanOut.forget(account.id);
    return { webhook: webhookView(endpoint), secret };
  } catch (err) {
    await deps.counters.release(counter, 1);
    throw err;
  }
}

/** GET /api/webhooks: the account's endpoints, oldest first, never a secret. */
export async function listWebhooks(deps: Pick<Deps, 'webhooks'>, accountId: string) {
  const all = await deps.webhooks.list(accountId);
  return { webhooks: all.sort((a, b) => a.id.localeCompare(b.id)).map(webhookView) };
}

/** DELETE /api/webhooks/{id}: removes the endpoint and gives its place back; pending deliveries to it stop. */
export async function deleteWebhook(deps: Pick<Deps, 'webhooks' | 'counters' | 'fanOut'>, accountId: string, webhookId: string) {
  if (!isId('wh', webhookId) || !(await deps.webhooks.delete(accountId, webhookId))) throw new NotFoundError('No such webhook endpoint');
  deps.fanOut.forget(accountId);
  await deps.counters.release(usageKeys.webhooks(accountId), 1);
  return { id: webhookId, deleted: true };
}

/**
 * POST /api/webhooks/{id}/rotate: a new secret, answered once. For 24 hours deliveries are signed with both the
 * new and the previous secret (two v1 entries), so receivers can switch without dropping events. Rotating again
 * within the 24 hours keeps only the secret being replaced as the previous one.
 */
export async function rotateWebhookSecret(deps: Pick<Deps, 'webhooks' | 'cipher' | 'clock'>, accountId: string, webhookId: string) {
  const endpoint = await getWebhook(deps, accountId, webhookId);
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const until = now + ROTATION_OVERLAP_MS;
  const at = new Date(now).toISOString();
  if (!(await deps.webhooks.rotate(accountId, webhookId, await deps.cipher.encrypt(secret, webhookSecretContext(endpoint)), endpoint.secret_enc, until, at))) {
    throw new NotFoundError('No such webhook endpoint');
  }
  return { webhook: webhookView({ ...endpoint, rotated_at: at }), secret, previous_secret_expires_at: new Date(until).toISOString() };
}

/**
 * POST /api/webhooks/{id}/test: records a webhook.test event for this endpoint only; it is delivered like any
 * other event (signed, retried, logged). Answers the event and delivery ids at once (the try runs in the worker).
 */
export async function testWebhook(deps: Pick<Deps, 'webhooks' | 'events' | 'fanOut' | 'clock'>, accountId: string, webhookId: string) {
  const endpoint = await getWebhook(deps, accountId, webhookId);
  const now = deps.clock.now();
  const event = {
    id: newId('evt', now), type: 'webhook.test' as const, created_at: new Date(now).toISOString(), account_id: accountId,
    data: { webhook_id: endpoint.id, url: endpoint.url, message: 'This is a test event from POST /api/webhooks/{id}/test. Verify the signature, then answer 2xx.' },
  };
  await recordEvent(deps, event);
  return { event_id: event.id, delivery_id: deliveryIdOf(event.id, endpoint.id), status: 'queued' as const };
}

const encodeCursor = (sk: string) => Buffer.from(sk).toString('base64url');
function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\d{15}#[0-9a-f-]{36}#\d{3}$/.test(sk)) throw new BadRequestError('before is not a cursor from a previous page', { code: 'invalid_cursor' });
  return sk;
}

/** GET /api/webhooks/{id}/deliveries: every try of the endpoint, newest first, `limit` a page; next_before pages on. */
export async function listDeliveries(deps: Pick<Deps, 'webhooks'>, accountId: string, webhookId: string, limit: number, before?: string) {
  await getWebhook(deps, accountId, webhookId);
  const page = await deps.webhooks.listAttempts(webhookId, limit, decodeCursor(before));
  return {
    deliveries: page.attempts.map((a) => ({
      delivery_id: a.delivery_id, event_id: a.event_id, type: a.type, attempt: a.attempt, status_code: a.status_code, ok: a.ok,
      duration_ms: a.duration_ms, error: a.error, next_attempt_at: a.next_attempt_at, created_at: a.created_at,
      ...(a.response_excerpt !== undefined ? { response_excerpt: a.response_excerpt } : {}),
    })),
    next_before: page.next_before ? encodeCursor(page.next_before) : null,
  };
}

import type { EventFanOut, ServiceEvent } from '../../ports/publishing';
import type { WebhookEndpoint } from '../../ports/webhooks';
import { prepareDeliveries, queueFirstTries, type FanoutDeps } from './delivery-queue';

/**
 * How long a container keeps an account's endpoint list for the fan-out (decisions.md "Lean publish path"): an
 * endpoint created, changed or deleted in another container is seen by this one within this time; this
 * container's own changes at once (`forget`).
 */
export const SUBSCRIPTIONS_TTL_MS = 30_000;
/** Accounts whose lists a container keeps at most (the oldest is dropped first). */
const MAX_CACHED_ACCOUNTS = 1_000;

/**
 * The webhook fan-out of recorded events (EventFanOut): one pending delivery per subscribed endpoint is written
 * before the event is stored, and their first tries are queued after it (see shared/app/webhooks/delivery-queue.ts). The
 * account's endpoint list is read once per SUBSCRIPTIONS_TTL_MS per container, so a post's events usually cost no
 * read at all for an account without webhooks.
 */
export class WebhookFanOut implements EventFanOut {
  private readonly cache = new Map<string, { at: number; endpoints: WebhookEndpoint[] }>();

  constructor(private readonly deps: () => FanoutDeps) {}

  async prepare(event: ServiceEvent): Promise<() => Promise<void>> {
    const deps = this.deps();
    const deliveries = await prepareDeliveries(deps, event, await this.endpoints(deps, event.account_id));
    return () => queueFirstTries(deps, deliveries);
  }

  forget(accountId: string): void {
    this.cache.delete(accountId);
  }

  private async endpoints(deps: FanoutDeps, accountId: string): Promise<WebhookEndpoint[]> {
    const now = deps.clock.now();
    const hit = this.cache.get(accountId);
    if (hit && now - hit.at < SUBSCRIPTIONS_TTL_MS && now >= hit.at) return hit.endpoints;
    const endpoints = await deps.webhooks.list(accountId);
    this.cache.delete(accountId);
    if (this.cache.size >= MAX_CACHED_ACCOUNTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(accountId, { at: now, endpoints });
    return endpoints;
  }
}

import type { Deps } from '../deps';
import type { ServiceEvent } from '../../ports/publishing';

/**
 * What makes the publish path lose nothing: when a claim is stale, and the webhook outbox.
 *
 * The webhook outbox (decisions.md "Nothing lost across a crash"): a network's outcome event (and its
 * post.reconciled event) is stored with the write that settles it, and the post stays on the reconciliation's due
 * index until the sweep has seen it finished; the deliveries are written from the stored events after the settle,
 * and written again by the sweep (the same delivery ids, so never twice) when a crash came in between.
 */

/** A network still queued or claimed this long is re-driven by the reconciliation sweep (default, ms). */
export const RECONCILE_AFTER_MS = 150_000;

/** The deployment's reconciliation threshold (settings.reconcileAfterMs, else the default). */
export const reconcileAfterMs = (settings: Deps['settings']): number => settings.reconcileAfterMs ?? RECONCILE_AFTER_MS;

/** Writes and queues the webhook deliveries of events already stored (idempotent: the same delivery ids again). */
export async function fanOutStored(deps: Pick<Deps, 'fanOut'>, events: ServiceEvent[]): Promise<void> {
  for (const event of events) await (await deps.fanOut.prepare(event))();
}

/** Whether a claim made at `claimedAt` belongs to a worker that stopped (older than the threshold, or than this process). */
export function claimIsStale(settings: Deps['settings'], claimedAt: number | undefined, now: number): boolean {
  if (claimedAt === undefined) return false;
  return now - claimedAt > reconcileAfterMs(settings) || claimedAt < (settings.claimsDeadBefore ?? -Infinity);
}

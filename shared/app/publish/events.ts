import type { Deps } from '../deps';
import type { Connection, PostRecord, ServiceEvent } from '../../ports/publishing';
import type { NetworkResult } from '../../domain/post';
import { newId } from '../../domain/ids';
import { brandRef, labelOf } from '../../domain/event-refs';
import { putMetric } from '../../metrics';

/**
 * The post.published / post.failed event of one network's final outcome, with the payload of spec §6. It is stored
 * with the result that settles the network (PostStore.settle / create) and handed to webhooks by the fan-out.
 */
export function outcomeEvent(deps: Pick<Deps, 'clock'>, post: PostRecord, connection: Connection | undefined, result: NetworkResult): ServiceEvent {
  const now = deps.clock.now();
  return {
    id: newId('evt', now),
    type: result.ok ? 'post.published' : 'post.failed',
    created_at: new Date(now).toISOString(),
    account_id: post.account_id,
    data: {
      platform: result.platform,
      status: result.status,
      post_id: post.id,
      url: result.url ?? null,
      error: result.ok ? null : result.error ?? null,
      code: result.ok ? null : result.code ?? null,
      account: { platform: result.platform, handle: connection?.handle ?? null, brand_id: post.brand_id, brand: brandRef(post.brand_id, post.brand_name) },
      brand_id: post.brand_id, brand: brandRef(post.brand_id, post.brand_name),
      source: post.source,
      ...(post.schedule_id ? { schedule_id: post.schedule_id } : {}),
      idempotency_key: post.idempotency_key,
      label: labelOf(post.brand_name, connection?.handle ?? result.platform, result.platform),
    },
  };
}

/**
 * How reconciliation decided a network whose worker stopped mid-send: what reading the network back found
 * (`unsupported`: the network cannot be read back) and what was done (settled from the read-back, resent once
 * because the post was certainly absent, or left unknown).
 */
export interface ReconcileDecision {
  read_back: 'found' | 'absent' | 'unreadable' | 'unsupported';
  action: 'settled' | 'resent' | 'left_unknown';
  reason?: string;
}

/**
 * The post.reconciled event (docs/webhooks.md): one per network that reconciliation decided, stored with the same
 * settle as its post.published / post.failed (`outcome_event_id`), saying whether read-back decided it.
 */
export function reconciledEvent(deps: Pick<Deps, 'clock'>, post: PostRecord, connection: Connection | undefined, result: NetworkResult, outcome: ServiceEvent, decision: ReconcileDecision): ServiceEvent {
  const now = deps.clock.now();
  return {
    id: newId('evt', now),
    type: 'post.reconciled',
    created_at: new Date(now).toISOString(),
    account_id: post.account_id,
    data: {
      post_id: post.id,
      platform: result.platform,
      status: result.status,
      url: result.url ?? null,
      decided_by_read_back: decision.read_back === 'found' || decision.read_back === 'absent',
      read_back: decision.read_back,
      action: decision.action,
      reason: decision.reason ?? (result.ok ? null : result.error ?? null),
      outcome_event_id: outcome.id,
      account: { platform: result.platform, handle: connection?.handle ?? null, brand_id: post.brand_id, brand: brandRef(post.brand_id, post.brand_name) },
      brand: brandRef(post.brand_id, post.brand_name),
      brand_id: post.brand_id,
      source: post.source,
      ...(post.schedule_id ? { schedule_id: post.schedule_id } : {}),
      idempotency_key: post.idempotency_key,
      label: labelOf(post.brand_name, connection?.handle ?? result.platform, result.platform),
    },
  };
}

/** The metrics of a network's final outcome. */
export function countOutcome(result: NetworkResult): void {
  if (result.ok) putMetric('PostsPublished', 1, { platform: result.platform });
  else {
    putMetric('PostsFailed', 1, { platform: result.platform });
    putMetric('PostsFailedByCode', 1, { platform: result.platform, code: result.code ?? 'unknown' });
  }
}

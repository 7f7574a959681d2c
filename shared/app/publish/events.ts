import type { Deps } from '../deps';
import type { Connection, PostRecord, ServiceEvent } from '../../ports/publishing';
import type { NetworkResult } from '../../domain/post';
import { newId } from '../../domain/ids';

/** The human label of a connected account in events, e.g. `Acme · @acme (bluesky)`. */
export const labelOf = (brandName: string, handle: string, platform: string) => `${brandName} · ${handle} (${platform})`;

/** Records post.published / post.failed for one network's final outcome, with the payload of spec §6. */
export async function recordOutcome(deps: Pick<Deps, 'events' | 'clock'>, post: PostRecord, connection: Connection | undefined, result: NetworkResult): Promise<void> {
  const now = deps.clock.now();
  const event: ServiceEvent = {
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
      account: { platform: result.platform, handle: connection?.handle ?? null, brand_id: post.brand_id, brand: post.brand_name },
      brand_id: post.brand_id,
      source: post.source,
      ...(post.schedule_id ? { schedule_id: post.schedule_id } : {}),
      idempotency_key: post.idempotency_key,
      label: labelOf(post.brand_name, connection?.handle ?? result.platform, result.platform),
    },
  };
  await deps.events.record(event);
}

/** Records connection.reauth_required with the way to reconnect. */
export async function recordReauth(deps: Pick<Deps, 'events' | 'clock' | 'settings'>, post: PostRecord, connection: Connection, error: string): Promise<void> {
  const now = deps.clock.now();
  await deps.events.record({
    id: newId('evt', now), type: 'connection.reauth_required', created_at: new Date(now).toISOString(), account_id: post.account_id,
    data: {
      platform: connection.platform, post_id: post.id, connection_id: connection.id, error,
      account: { platform: connection.platform, handle: connection.handle, brand_id: connection.brand_id, brand: post.brand_name },
      brand_id: connection.brand_id, label: connection.label,
      reconnect_url: `${deps.settings.publicBaseUrl}/api/connect`,
    },
  });
}

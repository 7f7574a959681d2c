import type { Deps } from '../deps';
import type { Connection, PostRecord } from '../../ports/publishing';
import { newId } from '../../domain/ids';
import { brandRef } from '../../domain/event-refs';
import { recordEvent } from '../webhooks/record-event';
import { issueConnectLink } from './issue';
import { emailOwner } from './owner-email';

/**
 * Records connection.reauth_required with the way to reconnect: `reconnect_url` is a fresh connect link (1 hour) for
 * that brand and network, so the owner (or their client) can sign in again without an API call.
 */
export async function recordReauth(deps: Pick<Deps, 'events' | 'fanOut' | 'clock' | 'settings' | 'tokens' | 'brands' | 'accounts' | 'mailer'>, post: PostRecord | undefined, connection: Connection, error: string): Promise<void> {
  const now = deps.clock.now();
  const brandName = post?.brand_name ?? (await deps.brands.get(connection.account_id, connection.brand_id))?.name ?? null;
  const link = await issueConnectLink(deps, connection.account_id, connection.brand_id, connection.platform);
  await recordEvent(deps, {
    id: newId('evt', now), type: 'connection.reauth_required', created_at: new Date(now).toISOString(), account_id: connection.account_id,
    data: {
      platform: connection.platform, ...(post ? { post_id: post.id } : {}), connection_id: connection.id, error,
      account: { platform: connection.platform, handle: connection.handle, brand_id: connection.brand_id, brand: brandRef(connection.brand_id, brandName) },
      brand_id: connection.brand_id, brand: brandRef(connection.brand_id, brandName), label: connection.label,
      reconnect_url: link.url, reconnect_expires_at: link.expires_at,
    },
  });
  await emailOwner(deps, connection, { kind: 'reauth_required', error }, link, brandName);
}

/**
 * Records connection.expiring (the sign-in lapses within the notice window unless someone signs in again) with a
 * fresh connect link, and emails the owner. The caller claimed the notice first (once per lapse date).
 */
export async function recordExpiring(deps: Pick<Deps, 'events' | 'fanOut' | 'clock' | 'settings' | 'tokens' | 'brands' | 'accounts' | 'mailer'>, connection: Connection, lapsesAt: number): Promise<void> {
  const now = deps.clock.now();
  const brandName = (await deps.brands.get(connection.account_id, connection.brand_id))?.name ?? null;
  const link = await issueConnectLink(deps, connection.account_id, connection.brand_id, connection.platform);
  const expires_at = new Date(lapsesAt).toISOString();
  await recordEvent(deps, {
    id: newId('evt', now), type: 'connection.expiring', created_at: new Date(now).toISOString(), account_id: connection.account_id,
    data: {
      platform: connection.platform, connection_id: connection.id, expires_at,
      account: { platform: connection.platform, handle: connection.handle, brand_id: connection.brand_id, brand: brandName },
      brand_id: connection.brand_id, label: connection.label,
      reconnect_url: link.url, reconnect_expires_at: link.expires_at,
    },
  });
  await emailOwner(deps, connection, { kind: 'expiring', expires_at }, link, brandName);
}

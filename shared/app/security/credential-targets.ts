import type { Deps } from '../deps';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import { UnsafeTargetError } from '../../net/address-guard';
import { failed } from '../publish/results';

/** Credential fields that are URLs the service will call: each must point at a public https address. */
export const URL_FIELDS: Partial<Record<PlatformName, string[]>> = {
  mastodon: ['instance_url'], wordpress: ['site_url'], discord: ['webhook_url'], slack: ['webhook_url'],
};

/** A Nostr connection's own relays (comma- or space-separated ws(s):// URLs; absent = the service's public defaults). */
const relaysOf = (credentials: Record<string, string>) => (credentials.relays ?? '').split(/[\s,]+/).filter((r) => r !== '');

/**
 * The address check of POST /api/connect applied to a stored connection's credentials (issue 17): when a post is
 * scheduled (schedule, bulk, recurring, a schedule's new content), each credential URL (Mastodon instance,
 * WordPress site, Discord/Slack webhook) and each Nostr relay of the connection must still resolve only to public
 * addresses over TLS (DNS can change, and older connections were not checked). Nothing is contacted: the URL is
 * parsed and its host resolved. Answers the network's failed result (invalid_credentials: connect again) or
 * undefined when every target is safe.
 */
export async function credentialTargetProblem(deps: Pick<Deps, 'media'>, platform: PlatformName, credentials: Record<string, string>): Promise<NetworkResult | undefined> {
  const refuse = (what: string, scheme: string, err: UnsafeTargetError) =>
    failed(platform, 'invalid_credentials', `The stored ${what} of the ${platform} connection is not a public ${scheme} address (${err.message}); connect ${platform} again with a public address`);
  for (const field of URL_FIELDS[platform] ?? []) {
    const url = credentials[field];
    if (url === undefined) continue;
    try {
      await deps.media.checkTarget(url);
    } catch (err) {
      if (!(err instanceof UnsafeTargetError)) throw err;
      return refuse(field, 'https://', err);
    }
  }
  if (platform === 'nostr') {
    for (const relay of relaysOf(credentials)) {
      try {
        // the guard judges http(s); a relay's wss:// (ws:// only where private targets are allowed) maps onto it
        await deps.media.checkTarget(/^wss?:\/\//i.test(relay) ? relay.replace(/^ws/i, 'http') : relay);
      } catch (err) {
        if (!(err instanceof UnsafeTargetError)) throw err;
        return refuse(`relay ${relay.slice(0, 100)}`, 'wss://', err);
      }
    }
  }
  return undefined;
}

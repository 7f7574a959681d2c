import type { Deps } from '../deps';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import { UnsafeTargetError } from '../../net/address-guard';
import { failed } from '../publish/results';

/** Credential fields that are URLs the service will call: each must point at a public https address. */
export const URL_FIELDS: Partial<Record<PlatformName, string[]>> = {
  mastodon: ['instance_url'], wordpress: ['site_url'], discord: ['webhook_url'], slack: ['webhook_url'],
};

/**
 * The address check of POST /api/connect applied to a stored connection's credentials (issue 17): when a post is
 * scheduled (schedule, bulk, recurring), each credential URL (Mastodon instance, WordPress site, Discord/Slack
 * webhook) must still resolve only to public https addresses (DNS can change, and older connections were not
 * checked). Nothing is contacted: the URL is parsed and its host resolved. Answers the network's failed result
 * (invalid_credentials, reconnect) or undefined when every URL is safe; an outage of the resolver is thrown.
 */
export async function credentialTargetProblem(deps: Pick<Deps, 'media'>, platform: PlatformName, credentials: Record<string, string>): Promise<NetworkResult | undefined> {
  for (const field of URL_FIELDS[platform] ?? []) {
    const url = credentials[field];
    if (url === undefined) continue;
    try {
      await deps.media.checkTarget(url);
    } catch (err) {
      if (!(err instanceof UnsafeTargetError)) throw err;
      return failed(platform, 'invalid_credentials', `The stored ${field} of the ${platform} connection is not a public https address (${err.message}); connect ${platform} again with a public address`);
    }
  }
  return undefined;
}

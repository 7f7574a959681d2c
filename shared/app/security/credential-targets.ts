import type { Deps } from '../deps';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import { UnsafeTargetError } from '../../ports/media-gateway';
import { failed } from '../network-results';

/** Credential fields that are URLs the service will call: each must point at a public https address. */
export const URL_FIELDS: Partial<Record<PlatformName, string[]>> = {
  mastodon: ['instance_url'], wordpress: ['site_url'], discord: ['webhook_url'], slack: ['webhook_url'],
};

/** How long an address found public is not looked up again (bulk rows to one webhook resolve it once). */
const PASSED_FOR_MS = 60_000;
/** Per deps object (one per bulk request; the container's for single requests): URL → until when it passed. */
const passed = new WeakMap<object, Map<string, number>>();

/** media.checkTarget, remembering a pass for a minute; a refusal is never remembered. The send path checks again. */
async function checkTarget(deps: Pick<Deps, 'media' | 'clock'>, url: string): Promise<void> {
  let seen = passed.get(deps);
  if (!seen) passed.set(deps, (seen = new Map()));
  const now = deps.clock.now();
  if ((seen.get(url) ?? 0) > now) return;
  await deps.media.checkTarget(url);
  if (seen.size >= 1_000) seen.clear();
  seen.set(url, now + PASSED_FOR_MS);
}

/** A Nostr connection's own relays (comma- or space-separated ws(s):// URLs; absent = the service's public defaults). */
const relaysOf = (credentials: Record<string, string>) => (credentials.relays ?? '').split(/[\s,]+/).filter((r) => r !== '');

/**
 * The address check of POST /api/connect applied to a stored connection's credentials: when a post is
 * scheduled (schedule, bulk, recurring, a schedule's new content), each credential URL (Mastodon instance,
 * WordPress site, Discord/Slack webhook) and each Nostr relay of the connection must still resolve only to public
 * addresses over TLS (DNS can change, and older connections were not checked). Nothing is contacted: the URL is
 * parsed and its host resolved. Answers the network's failed result (invalid_credentials: connect again) or
 * undefined when every target is safe.
 */
export async function credentialTargetProblem(deps: Pick<Deps, 'media' | 'clock'>, platform: PlatformName, credentials: Record<string, string>): Promise<NetworkResult | undefined> {
  const refuse = (what: string, scheme: string, err: UnsafeTargetError) =>
    failed(platform, 'invalid_credentials', `The stored ${what} of the ${platform} connection is not a public ${scheme} address (${err.message}); connect ${platform} again with a public address`);
  for (const field of URL_FIELDS[platform] ?? []) {
    const url = credentials[field];
    if (url === undefined) continue;
    try {
      await checkTarget(deps, url);
    } catch (err) {
      if (!(err instanceof UnsafeTargetError)) throw err;
      return refuse(field, 'https://', err);
    }
  }
  if (platform === 'nostr') {
    for (const relay of relaysOf(credentials)) {
      try {
        // the guard judges http(s); a relay's wss:// (ws:// only where private targets are allowed) maps onto it
        await checkTarget(deps, /^wss?:\/\//i.test(relay) ? relay.replace(/^ws/i, 'http') : relay);
      } catch (err) {
        if (!(err instanceof UnsafeTargetError)) throw err;
        return refuse(`relay ${relay.slice(0, 100)}`, 'wss://', err);
      }
    }
  }
  return undefined;
}

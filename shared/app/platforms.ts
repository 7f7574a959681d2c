import type { Deps } from './deps';
import { envName, PLATFORMS, type Platform } from '../domain/platforms';
import type { ManageFlags } from '../ports/network-limits';

/**
 * A network as GET /api/platforms shows it: `available` is what this server can do now, with the reason when not;
 * `read_back` whether a post whose worker died after sending can be looked for on the network (else it stays unknown);
 * `delete` / `edit` whether a published post can be taken back / edited there (DELETE / PATCH /api/posts/{id}).
 */
export type PlatformView = Platform & ManageFlags & { read_back: boolean; unavailable_reason?: 'not_configured' | 'not_offered'; reason?: string };

/**
 * GET /api/platforms: the catalog, with each OAuth network's availability on THIS deployment: one without the
 * service's app registration (client id and secret) is `available: false` with reason `not_configured`, as its
 * sign-in (`POST /api/oauth/{platform}/url`) would answer 503 oauth_not_configured.
 */
export async function listPlatforms(deps: { oauth: Pick<Deps['oauth'], 'clients'> } & Pick<Deps, 'networkLimits'>): Promise<PlatformView[]> {
  return Promise.all(PLATFORMS.map(async (catalog): Promise<PlatformView> => {
    // read-back, delete and edit: the network's facts, no send code (the NetworkLimits port)
    const p = { ...catalog, read_back: deps.networkLimits.readBack(catalog.name), ...deps.networkLimits.manage(catalog.name) };
    if (!p.available) return { ...p, unavailable_reason: 'not_offered', reason: `${p.name} is not offered yet: posts to it answer platform_unavailable` };
    if (!p.oauth || (await deps.oauth.clients.get(p.name))) return { ...p };
    return {
      ...p, available: false, unavailable_reason: 'not_configured',
      reason: `${p.name} sign-in is not configured on this server (its operator sets ${envName(p.name)}_CLIENT_ID and ${envName(p.name)}_CLIENT_SECRET)`,
    };
  }));
}

import type { OAuthProviders } from '../ports/oauth';
import type { NetworkDescriptor, ServiceConfig } from './descriptor';
import { NETWORKS } from './network-list';

/**
 * The sign-in side of the OAuth networks (shared/ports/oauth.ts), with the hosts from the configuration
 * (`<NAME>_AUTH_BASE`, `<NAME>_API_BASE`; unset = the real hosts). Each comes from its network's oauth.ts, which
 * holds no send code, through its descriptor.
 */
export function buildOAuthProviders(cfg: ServiceConfig, networks: readonly NetworkDescriptor[] = NETWORKS): OAuthProviders {
  return Object.fromEntries(networks.flatMap((d) => (d.oauth ? [[d.name, d.oauth(cfg)]] : [])));
}

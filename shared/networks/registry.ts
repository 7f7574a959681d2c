import type { Registry } from '../ports/networks';
import type { NetworkDescriptor, ServiceConfig } from './descriptor';
import { NETWORKS } from './network-list';

/**
 * Maps network names to their adapters (send code included: only the publish worker carries it in AWS), with base
 * URLs from the configuration (overridable for tests), from each network's descriptor. The sign-in side is
 * oauth-providers.ts, the credential checks alone verifiers.ts.
 */
export function buildRegistry(cfg: ServiceConfig, networks: readonly NetworkDescriptor[] = NETWORKS): Registry {
  return Object.fromEntries(networks.map((d) => [d.name, d.adapter(cfg)]));
}

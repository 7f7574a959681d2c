import type { NetworkDescriptor } from './descriptor';
import * as listed from './network-list';

/**
 * Every network's descriptor, from the one registry (network-list.ts). The tables of networks come from it: the
 * adapters (registry.ts), the credential checks (verifiers.ts), the OAuth sign-in providers (oauth-providers.ts) and
 * what use cases read through the NetworkLimits port (network-limits.ts). A test holds its names equal to the
 * contract's closed list (shared/domain/platforms.ts).
 */
export const NETWORKS: readonly NetworkDescriptor[] = Object.values(listed);

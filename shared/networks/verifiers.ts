import type { NetworkAdapter, NetworkVerifier, Registry } from '../ports/networks';
import type { PlatformName } from '../domain/platforms';
import type { NetworkDescriptor, ServiceConfig } from './descriptor';
import { NETWORKS } from './network-list';

/**
 * Every network's credential check (its verify-credentials.ts, through its descriptor), with the hosts from the
 * configuration as buildRegistry gives them: what connecting and health checks need, with no send code.
 */
function buildVerifiers(cfg: ServiceConfig, networks: readonly NetworkDescriptor[] = NETWORKS): Partial<Record<PlatformName, NetworkVerifier>> {
  return Object.fromEntries(networks.map((d) => [d.name, d.verifier(cfg)]));
}

/** Thrown when a function without the send code (no `publishes` declared) is asked to send, read back, delete or edit. */
export class SendCodeNotWiredError extends Error {
  constructor(platform: string, call: string) {
    super(`${platform}.${call}: the network send code is not wired into this function; only the publish worker declares \`publishes: true\` (functions/workers.ts)`);
    this.name = 'SendCodeNotWiredError';
  }
}

/**
 * The registry of a function that verifies credentials but never sends (connect, health checks, sign-in, MCP): each
 * network's verify, and send members that throw SendCodeNotWiredError. Such a bundle holds no send code.
 */
export function buildVerifyOnlyRegistry(cfg: ServiceConfig, networks: readonly NetworkDescriptor[] = NETWORKS): Registry {
  const out: Registry = {};
  for (const [name, v] of Object.entries(buildVerifiers(cfg, networks)) as Array<[PlatformName, NetworkVerifier]>) {
    const refuse = (call: string) => () => { throw new SendCodeNotWiredError(name, call); };
    out[name] = { name, verify: (ctx) => v.verify(ctx), check: refuse('check'), publish: refuse('publish') } satisfies NetworkAdapter;
  }
  return out;
}

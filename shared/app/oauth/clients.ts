import type { Config } from '../../config';
import type { PlatformName } from '../../domain/platforms';
import type { OAuthProvider } from '../../networks/oauth';

/** The service's client registration at one OAuth network (client id and secret, from configuration). */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

/** Where client registrations come from: the environment locally, SSM Parameter Store in AWS. */
export interface OAuthClients {
  /** The registration of that network; undefined when this deployment has none (the network is "not configured"). */
  get(platform: PlatformName): Promise<OAuthClient | undefined>;
}

/** The OAuth side of the networks: each network's sign-in provider, and the service's registrations. */
export interface OAuthNetworks {
  providers: Partial<Record<PlatformName, OAuthProvider>>;
  clients: OAuthClients;
}

/** Prefix of a network's environment variables: `x` → `X`, `linkedin` → `LINKEDIN`. */
export const envName = (platform: PlatformName) => platform.toUpperCase();

/**
 * Registrations from environment variables `<NAME>_CLIENT_ID` / `<NAME>_CLIENT_SECRET` (decisions.md "Local mode
 * and test seams"). A network with only one of the two is treated as not configured.
 */
export function envClients(env: Record<string, string | undefined> | Config): OAuthClients {
  const vars = env as Record<string, string | undefined>;
  return {
    async get(platform) {
      const clientId = vars[`${envName(platform)}_CLIENT_ID`]?.trim();
      const clientSecret = vars[`${envName(platform)}_CLIENT_SECRET`]?.trim();
      return clientId && clientSecret ? { clientId, clientSecret } : undefined;
    },
  };
}

/** Fixed registrations (tests). */
export function staticClients(clients: Partial<Record<PlatformName, OAuthClient>>): OAuthClients {
  return { get: async (platform) => clients[platform] };
}

/** The first source that knows a network wins (SSM in AWS, with the environment as a fallback). */
export function firstOf(...sources: OAuthClients[]): OAuthClients {
  return {
    async get(platform) {
      for (const s of sources) {
        const found = await s.get(platform);
        if (found) return found;
      }
      return undefined;
    },
  };
}

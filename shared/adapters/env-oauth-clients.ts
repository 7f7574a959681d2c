import type { Config } from '../config';
import { envName } from '../domain/platforms';
import type { OAuthClients } from '../ports/oauth';

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

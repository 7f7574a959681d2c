import type { NetworkVerifier } from '../../ports/networks';
import { guarded } from '../http';
import { trimBase } from '../../domain/values';
import { openSession, SessionCache } from './xrpc';

/**
 * Bluesky's credential check: `com.atproto.server.createSession` with the handle and App Password (a fresh session,
 * kept in `sessions` for the posts that follow); the DID is stored with the credentials.
 */
export function createBlueskyVerifier({ apiBase = 'https://bsky.social', sessions = new SessionCache() }: { apiBase?: string; sessions?: SessionCache } = {}): NetworkVerifier {
  const base = trimBase(apiBase);
  return {
    name: 'bluesky',
    verify: (ctx) => guarded(async () => {
      const session = await openSession(ctx, base, sessions, true);
      if (!session.ok) return session;
      return {
        ok: true as const,
        handle: `@${session.handle}`,
        credentials: { handle: session.handle, app_password: (ctx.credentials.app_password ?? '').trim(), did: session.did },
      };
    }),
  };
}

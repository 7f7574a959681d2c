import type { Deps } from '../deps';
import { NotFoundError } from '../../domain/errors';

/** The account's AI apps (OAuth clients the owner allowed), newest first. */
export const listApps = (deps: Pick<Deps, 'mcpOAuth'>, accountId: string) => deps.mcpOAuth.listApps(accountId);

/** Revokes an AI app: its access and refresh tokens stop working at once (each use checks the app). */
export async function revokeApp(deps: Pick<Deps, 'mcpOAuth' | 'clock'>, accountId: string, appId: string) {
  const revoked = await deps.mcpOAuth.revokeApp(accountId, appId, new Date(deps.clock.now()).toISOString());
  if (!revoked) throw new NotFoundError('No active AI app with that id', { code: 'not_found' });
}

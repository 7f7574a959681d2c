import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import { NotFoundError } from '../../domain/errors';
import { PLANS } from '../../domain/plans';
import { setGuardrails } from '../guardrails/guardrails';
import { guardrailsInputOf } from '../guardrails/form-input';

/** The account's AI apps (OAuth clients the owner allowed), newest first. */

/** Revokes an AI app: its access and refresh tokens stop working at once (each use checks the app). */
export async function revokeApp(deps: Pick<Deps, 'mcpOAuth' | 'clock'>, accountId: string, appId: string) {
  const revoked = await deps.mcpOAuth.revokeApp(accountId, appId, new Date(deps.clock.now()).toISOString());
  if (!revoked) throw new NotFoundError('No active AI app with that id', { code: 'not_found' });
}

/** The AI apps page: the apps the owner allowed, each live one with its guardrails, and the brands they can name. */
export async function appsPage(deps: Pick<Deps, 'mcpOAuth' | 'guardrails' | 'brands'>, account: Account) {
  const [apps, guardrails, brands] = await Promise.all([deps.mcpOAuth.listApps(account.id), deps.guardrails.list(account.id), deps.brands.list(account.id)]);
  return {
    apps: apps.map((a) => ({ ...a, guardrails: guardrails.find((g) => g.kind === 'app' && g.id === a.id) })),
    brands, canGuard: PLANS[account.plan].guardrails,
  };
}

/** The AI apps page's guardrails form: replaces the app's guardrails (paid plans; 404 app_not_found). */
export async function setAppGuardrails(deps: Parameters<typeof setGuardrails>[0], account: Account, appId: string, form: Parameters<typeof guardrailsInputOf>[0]) {
  return setGuardrails(deps, account, { kind: 'app', id: appId }, guardrailsInputOf(form));
}

import type { Deps } from './deps';
import type { Account } from '../ports/store';
import type { PublishContext } from '../ports/publishing';
import { settle } from '../domain/billing';
import { stateOf } from './billing/plan-state';

/**
 * The account and everything publishing needs (brands, connections, guardrails, approval rules) in one query of the
 * account's partition (PublishContextStore). When a plan change has come due, the account is read again through
 * AccountStore.get, which applies it. Used by the API key check of publish routes and by a firing schedule.
 */
export async function loadPublishingAccount(
  deps: Pick<Deps, 'accounts' | 'clock' | 'publishContext'>, accountId: string, actor?: { kind: 'key' | 'app'; id: string },
): Promise<{ account: Account | undefined; context: PublishContext }> {
  const context = await deps.publishContext.load(accountId, actor);
  const account = context.account && planInForce(context.account, deps.clock.now()) ? context.account : await deps.accounts.get(accountId);
  return { account, context };
}

/** True when the stored plan is the plan in force (no scheduled change or grace period has come due). */
function planInForce(account: Account, nowMs: number): boolean {
  const state = stateOf(account);
  return settle(state, nowMs).state === state;
}

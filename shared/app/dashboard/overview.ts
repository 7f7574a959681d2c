import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import { PLANS } from '../../domain/plans';
import { usage } from '../usage';

/** The Overview and Plan pages' data: the account's plan and every usage line of GET /api/usage. */
export async function overview(deps: Pick<Deps, 'counters' | 'clock'>, account: Account) {
  return { plan: PLANS[account.plan], usage: await usage(deps, account) };
}

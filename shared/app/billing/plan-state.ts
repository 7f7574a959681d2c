import type { Account, AccountStore } from '../../ports/store';
import type { BillingStore } from '../../ports/billing';
import type { Clock } from '../../ports/clock';
import type { PlanName } from '../../domain/plans';
import { settle, type AccountBilling, type PlanChange, type PlanState, type StepChange } from '../../domain/billing';
import { errorFields, log } from '../../log';

/** How many times a write that lost to a concurrent one is recomputed from a fresh read. */
export const MAX_WRITE_TRIES = 25;

export const stateOf = (account: Account): PlanState => ({ plan: account.plan, billing: account.billing ?? {} });

export interface ChangeMeta {
  by: PlanChange['by'];
  event_id?: string;
  customer_id?: string;
}

/**
 * Stores a new plan state under the account's billing version, then appends each plan change to the history.
 * Answers the account as stored, or undefined when a concurrent writer came first (the caller reads again).
 */
export async function commitState(
  deps: { clock: Clock; billing: BillingStore }, account: Account, next: PlanState, changes: StepChange[], meta: ChangeMeta,
): Promise<Account | undefined> {
  const version = account.billing_version ?? 0;
  const at = new Date(deps.clock.now()).toISOString();
  const records: PlanChange[] = changes.map((c) => ({
    at, from: c.from, to: c.to, by: meta.by, reason: c.reason,
    ...(meta.event_id ? { event_id: meta.event_id } : {}),
    ...((meta.customer_id ?? account.billing_customer_id) ? { customer_id: meta.customer_id ?? account.billing_customer_id } : {}),
    ...(next.billing.subscription_id ? { subscription_id: next.billing.subscription_id } : {}),
    ...(next.billing.price_id ? { price_id: next.billing.price_id } : {}),
  }));
  const saved = await deps.billing.saveState(account.id, version, { plan: next.plan, billing: next.billing, change: records.at(-1) });
  if (!saved) return undefined;
  for (const [i, record] of records.entries()) {
    // the account item already holds the last change (same write); the history item is its listing
    await deps.billing.recordChange(account.id, (version + 1) * 10 + i, record).catch((err: unknown) => {
      log.error('plan change not added to the history', { account_id: account.id, ...errorFields(err) });
    });
  }
  return { ...account, plan: next.plan, billing: next.billing, billing_version: version + 1, ...(records.length ? { plan_change: records.at(-1) } : {}) };
}

/**
 * Every read of an account answers its plan in force now: a downgrade or cancellation whose period ended, or a
 * grace period that ran out, is applied (and recorded, once: the write is conditional on the billing version) on
 * the first read after its time. So no scheduled job is needed (docs/decisions.md "Billing").
 */
export class PlanLifecycleAccounts implements AccountStore {
  constructor(private readonly inner: AccountStore, private readonly deps: { readonly clock: Clock; readonly billing: BillingStore }) {}

  async get(id: string): Promise<Account | undefined> {
    for (let i = 0; i < MAX_WRITE_TRIES; i++) {
      const account = await this.inner.get(id);
      if (!account) return undefined;
      const start = stateOf(account);
      const due = settle(start, this.deps.clock.now());
      if (due.state === start) return account;
      let saved: Account | undefined;
      try {
        saved = await commitState(this.deps, account, due.state, due.change ? [due.change] : [], { by: 'system' });
      } catch (err) {
        // the plan in force is answered anyway; the next read stores it
        log.error('plan change that came due could not be stored', { account_id: id, ...errorFields(err) });
        return { ...account, plan: due.state.plan, billing: due.state.billing };
      }
      if (saved) return saved;
    }
    const account = await this.inner.get(id);
    return account && { ...account, plan: settle(stateOf(account), this.deps.clock.now()).state.plan };
  }

  claimEmail(email: string, accountId: string) { return this.inner.claimEmail(email, accountId); }
  createAccount(account: Account) { return this.inner.createAccount(account); }
  findIdByEmail(email: string) { return this.inner.findIdByEmail(email); }
  markVerified(id: string) { return this.inner.markVerified(id); }
  setPlan(id: string, plan: PlanName) { return this.inner.setPlan(id, plan); }
  reserveBrand(id: string, limit: number, brandId: string) { return this.inner.reserveBrand(id, limit, brandId); }
  settleBrand(id: string, brandId: string) { return this.inner.settleBrand(id, brandId); }
  releaseBrand(id: string, brandId: string) { return this.inner.releaseBrand(id, brandId); }
  pendingBrands(id: string) { return this.inner.pendingBrands(id); }
  setRedirectOrigins(id: string, origins: string[]) { return this.inner.setRedirectOrigins(id, origins); }
}

/** Sets the plan without billing (POST /dev/plan, local only): any scheduled change is dropped; the change is recorded. */
export async function setPlanManually(deps: { clock: Clock; billing: BillingStore; accounts: AccountStore }, accountId: string, plan: PlanName): Promise<void> {
  for (let i = 0; i < MAX_WRITE_TRIES; i++) {
    const account = await deps.accounts.get(accountId);
    if (!account) return;
    if (account.plan === plan && !account.billing?.pending) return;
    const billing: AccountBilling = { ...(account.billing ?? {}) };
    delete billing.pending;
    const changes = account.plan === plan ? [] : [{ from: account.plan, to: plan, reason: 'set_without_billing' }];
    if (await commitState(deps, account, { plan, billing }, changes, { by: 'dev' })) return;
  }
  throw new Error('The plan kept changing while it was being set; try again');
}

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Account, AccountStore } from '../../ports/store';
import type { PlanName } from '../../domain/plans';
import type { TableRef } from './client';
import { cond, and } from './conditions';
import { conditional, entity, type Bound } from './entity';
import { keys } from './keys';

/** The account item; `brand_pending` (the brand places still pending) is the store's own, never the domain's. */
export const accountEntity = entity({ key: keys.account, keyOf: (a: Account) => keys.account(a.id), hidden: ['brand_pending'] });

/** The claim that keeps one account per email (the email only in the key). */
const emailClaim = entity({
  key: keys.email,
  keyOf: (c: { email: string; account_id: string }) => keys.email(c.email),
  keyOnly: ['email'],
});

/** Accounts and the email → account claim that keeps one account per email. */
export class DynamoAccountStore implements AccountStore {
  private readonly accounts: Bound<typeof accountEntity>;
  private readonly emails: Bound<typeof emailClaim>;
  constructor(private readonly t: TableRef) {
    this.accounts = accountEntity.on(t);
    this.emails = emailClaim.on(t);
  }

  async claimEmail(email: string, accountId: string) {
    const claim = await this.emails.putOrFind({ email, account_id: accountId }, { if: cond.absent });
    if (claim.written) return { claimed: true as const };
    return { claimed: false as const, accountId: claim.found?.account_id as string };
  }

  async createAccount(account: Account) {
    await conditional(this.accounts.put(account, { if: cond.absent }));
  }

  get(id: string) {
    return this.accounts.get(id);
  }

  async findIdByEmail(email: string) {
    return (await this.emails.get(email))?.account_id;
  }

  markVerified(id: string) {
    return this.accounts.update([id], { set: { verified: true } }, { if: cond.present });
  }

  setPlan(id: string, plan: PlanName) {
    return this.accounts.update([id], { set: { plan } }, { if: cond.present });
  }

  setRedirectOrigins(id: string, origins: string[]) {
    return this.accounts.update([id], { set: { redirect_origins: origins } }, { if: cond.present });
  }

  reserveBrand(id: string, limit: number, brandId: string) {
    // the place and the brand it is for, pending until the brand is written or the place given back
    return conditional(this.accounts.update([id], { add: { brand_count: 1, brand_pending: new Set([brandId]) } }, {
      // below the plan's brand limit
      if: and(cond.present, 'brand_count < :limit'), values: { ':limit': limit },
    }));
  }

  settleBrand(id: string, brandId: string) {
    return this.ifPending(id, brandId, 'DELETE brand_pending :ids');
  }

  releaseBrand(id: string, brandId: string) {
    return this.ifPending(id, brandId, 'ADD brand_count :minus DELETE brand_pending :ids', { ':minus': -1 });
  }

  async pendingBrands(id: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.account(id), ConsistentRead: true, ProjectionExpression: 'brand_pending' }));
    return [...((res.Item?.brand_pending as Set<string> | undefined) ?? [])];
  }

  /** Applies `update` once per pending brand: the condition that it is still pending makes a repeat (or a race) a no-op. */
  private ifPending(id: string, brandId: string, update: string, values: Record<string, unknown> = {}) {
    return conditional(this.accounts.update([id], { expression: update, values: { ':ids': new Set([brandId]), ...values } }, {
      if: and(cond.present, 'contains(brand_pending, :id)'), values: { ':id': brandId },
    }));
  }
}

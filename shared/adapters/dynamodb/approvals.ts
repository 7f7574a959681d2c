import type { ApprovalRecord, ApprovalRule, ApprovalStore, ApprovalStatus, DecidedBy } from '../../ports/approvals';
import type { TableRef } from './client';
import { and, cond } from './conditions';
import { entity, orUndefined, type Bound } from './entity';
import { keys } from './keys';

const approval = entity({
  key: keys.approval,
  keyOf: (a: ApprovalRecord) => keys.approval(a.id),
  indexOf: (a: ApprovalRecord) => keys.approvalByAccount(a.account_id, a.id),
});

export const approvalRuleEntity = entity({ key: keys.approvalRule, keyOf: (r: ApprovalRule) => keys.approvalRule(r.account_id, r.scope) });

/**
 * Approvals in the single table: one item per held post (APR#<id>), indexed per account on gsi1; deciding is a
 * conditional update from `pending` that also checks expires_at against the caller's clock (TTL never decides).
 */
export class DynamoApprovalStore implements ApprovalStore {
  private readonly approvals: Bound<typeof approval>;
  private readonly rules: Bound<typeof approvalRuleEntity>;
  constructor(t: TableRef) {
    this.approvals = approval.on(t);
    this.rules = approvalRuleEntity.on(t);
  }

  create(a: ApprovalRecord) {
    return this.approvals.put(a, { if: cond.absent });
  }

  get(id: string) {
    return this.approvals.get(id);
  }

  list(accountId: string, opts: { status?: ApprovalStatus; limit: number; before?: string }) {
    return this.approvals.query({ gsi1pk: keys.approvalByAccount(accountId, '').gsi1pk, before: opts.before }, {
      descending: true, limit: opts.limit, pageSize: Math.max(opts.limit, 25),
      ...(opts.status ? { filter: { if: '#status = :status', names: { '#status': 'status' }, values: { ':status': opts.status } } } : {}),
    });
  }

  decide(id: string, d: { status: Exclude<ApprovalStatus, 'pending'>; decided_by: DecidedBy; note?: string; decided_at: string }, nowMs: number) {
    const set = { status: d.status, decided_by: d.decided_by, decided_at: d.decided_at, ...(d.note ? { note: d.note } : {}) };
    return orUndefined(this.approvals.updateAndRead([id], { set }, {
      // still pending; a person decides before the expiry, the expiry only once it is due
      if: and(cond.present, '#status = :pending', d.decided_by === 'expiry' ? 'expires_at <= :now' : 'expires_at > :now'),
      names: { '#status': 'status' }, values: { ':pending': 'pending', ':now': Math.floor(nowMs / 1000) },
    }));
  }

  async findByPost(accountId: string, postId: string) {
    // the approval id and the post id are ULIDs of the same instant: same 10-character time prefix
    const items = await this.approvals.query({ gsi1pk: keys.approvalByAccount(accountId, '').gsi1pk, beginsWith: `apr_${postId.slice(4, 14)}` }, {
      filter: { if: 'post_id = :post', values: { ':post': postId } },
    });
    return items[0];
  }

  setPublishError(id: string, error: { code: string; error: string }) {
    return this.approvals.update([id], { set: { publish_error: error } }, { if: cond.present });
  }

  getRules(accountId: string) {
    return this.rules.query({ pk: keys.account(accountId).pk, beginsWith: keys.approvalRulePrefix });
  }

  putRule(rule: ApprovalRule) {
    return this.rules.put(rule);
  }
}

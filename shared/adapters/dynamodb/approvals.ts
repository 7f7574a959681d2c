import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApprovalRecord, ApprovalRule, ApprovalStore, ApprovalStatus, DecidedBy } from '../../ports/approvals';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { and, cond } from './conditions';
import { GSI1, keys, strip } from './keys';

/**
 * Approvals in the single table: one item per held post (APR#<id>), indexed per account on gsi1; deciding is a
 * conditional update from `pending` that also checks expires_at against the caller's clock (TTL never decides).
 */
export class DynamoApprovalStore implements ApprovalStore {
  constructor(private readonly t: TableRef) {}

  async create(a: ApprovalRecord) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName, Item: { ...keys.approval(a.id), ...keys.approvalByAccount(a.account_id, a.id), ...a },
      ConditionExpression: cond.absent,
    }));
  }

  async get(id: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.approval(id), ConsistentRead: true }));
    return res.Item ? strip<ApprovalRecord>(res.Item) : undefined;
  }

  async list(accountId: string, opts: { status?: ApprovalStatus; limit: number; before?: string }) {
    const out: ApprovalRecord[] = [];
    let start: Record<string, unknown> | undefined;
    const { gsi1pk } = keys.approvalByAccount(accountId, '');
    do {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, IndexName: GSI1, ScanIndexForward: false, ExclusiveStartKey: start, Limit: Math.max(opts.limit, 25),
        KeyConditionExpression: opts.before ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
        ...(opts.status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: { ':pk': gsi1pk, ...(opts.before ? { ':before': opts.before } : {}), ...(opts.status ? { ':status': opts.status } : {}) },
      }));
      out.push(...(res.Items ?? []).map((i) => strip<ApprovalRecord>(i)));
      start = res.LastEvaluatedKey;
    } while (start && out.length < opts.limit);
    return out.slice(0, opts.limit);
  }

  async decide(id: string, d: { status: Exclude<ApprovalStatus, 'pending'>; decided_by: DecidedBy; note?: string; decided_at: string }, nowMs: number) {
    const now = Math.floor(nowMs / 1000);
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.approval(id),
        UpdateExpression: `SET #status = :status, decided_by = :by, decided_at = :at${d.note ? ', note = :note' : ''}`,
        // still pending; a person decides before the expiry, the expiry only once it is due
        ConditionExpression: and(cond.present, '#status = :pending', d.decided_by === 'expiry' ? 'expires_at <= :now' : 'expires_at > :now'),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': d.status, ':by': d.decided_by, ':at': d.decided_at, ':pending': 'pending', ':now': now, ...(d.note ? { ':note': d.note } : {}) },
        ReturnValues: 'ALL_NEW',
      }));
      return strip<ApprovalRecord>(res.Attributes!);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async findByPost(accountId: string, postId: string) {
    // the approval id and the post id are ULIDs of the same instant: same 10-character time prefix
    const items = await queryAll(this.t, {
      IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :time)', FilterExpression: 'post_id = :post',
      ExpressionAttributeValues: { ':pk': keys.approvalByAccount(accountId, '').gsi1pk, ':time': `apr_${postId.slice(4, 14)}`, ':post': postId },
    });
    return items.length ? strip<ApprovalRecord>(items[0]) : undefined;
  }

  async setPublishError(id: string, error: { code: string; error: string }) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.approval(id), UpdateExpression: 'SET publish_error = :e',
      ConditionExpression: cond.present, ExpressionAttributeValues: { ':e': error },
    }));
  }

  async getRules(accountId: string) {
    const items = await queryAll(this.t, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)', ConsistentRead: true,
      ExpressionAttributeValues: { ':pk': `ACC#${accountId}`, ':sk': keys.approvalRulePrefix },
    });
    return items.map((i) => strip<ApprovalRule>(i));
  }

  async putRule(rule: ApprovalRule) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.approvalRule(rule.account_id, rule.scope), ...rule } }));
  }
}

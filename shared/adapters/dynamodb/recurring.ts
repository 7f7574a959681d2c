import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RecurringRecord, RecurringStore } from '../../ports/schedules';
import { isConditionFailure, type TableRef } from './client';
import { and, cond, or } from './conditions';
import { GSI1, keys, strip } from './keys';

/**
 * Recurring schedules: one item per id, indexed per account (GET /api/recurring). Ending is a conditional write on
 * the status (one winner), and the last occurrence only moves forward.
 */
export class DynamoRecurringStore implements RecurringStore {
  constructor(private readonly t: TableRef) {}

  async create(r: RecurringRecord) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...keys.recurring(r.id), ...keys.recurringByAccount(r.account_id, r.id), ...r },
      // ids are new: never overwrite
      ConditionExpression: cond.absent,
    }));
  }

  async get(id: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.recurring(id), ConsistentRead: true }));
    return res.Item ? strip<RecurringRecord>(res.Item) : undefined;
  }

  async list(accountId: string) {
    const out: RecurringRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, IndexName: GSI1, ExclusiveStartKey: start, ScanIndexForward: false,
        KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.recurringByAccount(accountId, '').gsi1pk },
      }));
      out.push(...(res.Items ?? []).map((i) => strip<RecurringRecord>(i)));
      start = res.LastEvaluatedKey;
    } while (start);
    return out;
  }

  async end(id: string, status: 'canceled' | 'ended', nowIso: string) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.recurring(id),
        UpdateExpression: 'SET #status = :status, counted = :false, updated_at = :now',
        // only an active recurring schedule ends, once
        ConditionExpression: and(cond.present, '#status = :active'),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':active': 'active', ':false': false, ':now': nowIso },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async touch(id: string, occurrence: string, nowIso: string) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.recurring(id),
      UpdateExpression: 'SET last_occurrence = :occ, updated_at = :now',
      // the item exists, and an older occurrence never overwrites a newer one
      ConditionExpression: and(cond.present, or('attribute_not_exists(last_occurrence)', 'last_occurrence < :occ')),
      ExpressionAttributeValues: { ':occ': occurrence, ':now': nowIso },
    })).catch((err) => { if (!isConditionFailure(err)) throw err; });
  }
}

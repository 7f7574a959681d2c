import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DaySummary, DaySummaryStore } from '../../ports/day-summaries';
import { queryAll, type TableRef } from './client';
import { keys } from './keys';

/**
 * Final daily summaries in the account's own summary partition (STATS#<acc> / DAY#<YYYY-MM-DD>): one query per range.
 * Each summary is one JSON string attribute (never queried by field; a string reads much faster than nested maps).
 */
export class DynamoDaySummaryStore implements DaySummaryStore {
  constructor(private readonly t: TableRef) {}

  async list(accountId: string, from: string, to: string): Promise<DaySummary[]> {
    const items = await queryAll(this.t, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.daySummary(accountId, from).pk, ':from': keys.daySummary(accountId, from).sk, ':to': keys.daySummary(accountId, to).sk },
    });
    return items.map((i) => JSON.parse(i.summary as string) as DaySummary);
  }

  async putAll(accountId: string, summaries: DaySummary[]): Promise<void> {
    for (let i = 0; i < summaries.length; i += 25) {
      let pending: Array<Record<string, unknown>> | undefined = summaries.slice(i, i + 25).map((s) => ({ PutRequest: { Item: { ...keys.daySummary(accountId, s.day), summary: JSON.stringify(s) } } }));
      for (let tries = 0; pending?.length && tries < 8; tries++) {
        const res = await this.t.doc.send(new BatchWriteCommand({ RequestItems: { [this.t.tableName]: pending } }));
        pending = res.UnprocessedItems?.[this.t.tableName] as Array<Record<string, unknown>> | undefined;
      }
      // a summary not written is computed again on the next view: nothing is lost
    }
  }
}

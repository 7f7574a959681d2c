import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DaySummary, DaySummaryStore, EngagementDay } from '../../ports/day-summaries';
import { queryAll, type TableRef } from './client';
import { keys } from './keys';

/**
 * Final daily summaries in the account's own summary partition (STATS#<acc> / DAY#<YYYY-MM-DD>): one query per range.
 * Each summary is one JSON string attribute (never queried by field; a string reads much faster than nested maps).
 * Engagement days live beside them (STATS#<acc> / ENG#<YYYY-MM-DD>), in the same form.
 */
export class DynamoDaySummaryStore implements DaySummaryStore {
  constructor(private readonly t: TableRef) {}

  async list(accountId: string, from: string, to: string): Promise<DaySummary[]> {
    return this.range<DaySummary>(keys.daySummary(accountId, from), keys.daySummary(accountId, to));
  }

  async putAll(accountId: string, summaries: DaySummary[]): Promise<void> {
    await this.putJson(summaries.map((s) => ({ ...keys.daySummary(accountId, s.day), summary: JSON.stringify(s) })));
  }

  async listEngagement(accountId: string, from: string, to: string): Promise<EngagementDay[]> {
    return this.range<EngagementDay>(keys.engagementDay(accountId, from), keys.engagementDay(accountId, to));
  }

  async putEngagement(accountId: string, days: EngagementDay[]): Promise<void> {
    await this.putJson(days.map((d) => ({ ...keys.engagementDay(accountId, d.day), summary: JSON.stringify(d) })));
  }

  private async range<T>(from: { pk: string; sk: string }, to: { sk: string }): Promise<T[]> {
    const items = await queryAll(this.t, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': from.pk, ':from': from.sk, ':to': to.sk },
    });
    return items.map((i) => JSON.parse(i.summary as string) as T);
  }

  private async putJson(items: Array<Record<string, unknown>>): Promise<void> {
    for (let i = 0; i < items.length; i += 25) {
      let pending: Array<Record<string, unknown>> | undefined = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
      for (let tries = 0; pending?.length && tries < 8; tries++) {
        const res = await this.t.doc.send(new BatchWriteCommand({ RequestItems: { [this.t.tableName]: pending } }));
        pending = res.UnprocessedItems?.[this.t.tableName] as Array<Record<string, unknown>> | undefined;
      }
      // a summary not written is computed again on the next view (or the next sweep of its day): nothing is lost
    }
  }
}

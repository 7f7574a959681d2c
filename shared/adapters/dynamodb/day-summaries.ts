import type { DaySummary, DaySummaryStore, EngagementDay } from '../../ports/day-summaries';
import type { TableRef } from './client';
import { entity, type Bound } from './entity';
import { keys } from './keys';

/** A day's JSON under the account's summary partition; the account and the day only in the key. */
interface DayJson { account: string; day: string; summary: string }

const daySummaryEntity = entity({ key: keys.daySummary, keyOf: (d: DayJson) => keys.daySummary(d.account, d.day), keyOnly: ['account', 'day'] });
const engagementDayEntity = entity({ key: keys.engagementDay, keyOf: (d: DayJson) => keys.engagementDay(d.account, d.day), keyOnly: ['account', 'day'] });

/**
 * Final daily summaries in the account's own summary partition (STATS#<acc> / DAY#<YYYY-MM-DD>): one query per range.
 * Each summary is one JSON string attribute (never queried by field; a string reads much faster than nested maps).
 * Engagement days live beside them (STATS#<acc> / ENG#<YYYY-MM-DD>), in the same form. Writes are batched: a summary
 * not written is computed again on the next view (or the next sweep of its day), so nothing is lost.
 */
export class DynamoDaySummaryStore implements DaySummaryStore {
  private readonly summaries: Bound<typeof daySummaryEntity>;
  private readonly engagement: Bound<typeof engagementDayEntity>;
  constructor(t: TableRef) {
    this.summaries = daySummaryEntity.on(t);
    this.engagement = engagementDayEntity.on(t);
  }

  async list(accountId: string, from: string, to: string): Promise<DaySummary[]> {
    return parsed<DaySummary>(await this.summaries.query(range(keys.daySummary(accountId, from), keys.daySummary(accountId, to))));
  }

  putAll(accountId: string, summaries: DaySummary[]): Promise<void> {
    return this.summaries.putAll(summaries.map((s) => ({ account: accountId, day: s.day, summary: JSON.stringify(s) })));
  }

  async listEngagement(accountId: string, from: string, to: string): Promise<EngagementDay[]> {
    return parsed<EngagementDay>(await this.engagement.query(range(keys.engagementDay(accountId, from), keys.engagementDay(accountId, to))));
  }

  putEngagement(accountId: string, days: EngagementDay[]): Promise<void> {
    return this.engagement.putAll(days.map((d) => ({ account: accountId, day: d.day, summary: JSON.stringify(d) })));
  }
}

const range = (from: { pk: string; sk: string }, to: { sk: string }) => ({ pk: from.pk, between: [from.sk, to.sk] as const });
const parsed = <T>(items: Array<{ summary: string }>) => items.map((i) => JSON.parse(i.summary) as T);

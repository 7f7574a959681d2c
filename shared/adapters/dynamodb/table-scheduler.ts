import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SCHEDULED_TIME, type CronInvocation, type ScheduledInvocation, type Scheduler } from '../../ports/scheduler';
import { nextOccurrence } from '../../domain/cron';
import { systemClock, type Clock } from '../../ports/clock';
import { isConditionFailure, type TableRef } from './client';
import { cond } from './conditions';
import { GSI1 } from './keys';

const TIMERS = 'TIMERS';
const timerKey = (name: string) => ({ pk: `TIMER#${name}`, sk: 'TIMER' });

export interface DueTimer {
  name: string;
  runAt: string;
  input: Record<string, unknown>;
}

/**
 * The local stand-in for EventBridge Scheduler: each timer is an item in the table (so timers survive a restart),
 * indexed by due time; the local runtime's poller lists due timers and claims each with a conditional delete, so a
 * timer fires once even with two pollers.
 */
export class TableScheduler implements Scheduler {
  constructor(private readonly t: TableRef, private readonly clock: Clock = systemClock) {}

  async scheduleOnce(inv: ScheduledInvocation) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...timerKey(inv.name), gsi1pk: TIMERS, gsi1sk: `${inv.runAt.toISOString()}#${inv.name}`, name: inv.name, run_at: inv.runAt.toISOString(), input: inv.input },
    }));
  }

  /**
   * A recurring timer: one item whose run_at is the next occurrence (cron-parser, in the timezone); claiming a firing
   * moves it to the following occurrence in the same conditional write, or deletes it after the last one.
   */
  async scheduleCron(inv: CronInvocation) {
    const after = Math.max(this.clock.now(), (inv.startsAt?.getTime() ?? 0) - 1);
    const first = nextOccurrence(inv.cron, inv.timezone, new Date(after), inv.endsAt);
    if (!first) {
      await this.cancel(inv.name);
      return;
    }
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: {
        ...timerKey(inv.name), gsi1pk: TIMERS, gsi1sk: `${first.toISOString()}#${inv.name}`, name: inv.name, run_at: first.toISOString(), input: inv.input,
        cron: inv.cron, timezone: inv.timezone, ...(inv.endsAt ? { ends_at: inv.endsAt.toISOString() } : {}),
      },
    }));
  }

  async cancel(name: string) {
    await this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: timerKey(name) }));
  }

  /** Timers due at or before `now`, oldest first. */
  async due(now: Date, limit = 100): Promise<DueTimer[]> {
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, IndexName: GSI1, Limit: limit,
      KeyConditionExpression: 'gsi1pk = :p AND gsi1sk <= :now',
      ExpressionAttributeValues: { ':p': TIMERS, ':now': `${now.toISOString()}#~` },
    }));
    return (res.Items ?? []).map((i) => ({ name: i.name as string, runAt: i.run_at as string, input: withScheduledTime(i.input as Record<string, unknown>, i.run_at as string) }));
  }

  /**
   * Takes this firing of the timer; true for exactly one caller. A one-time timer is removed; a recurring one moves
   * on to its next occurrence after both the firing and `nowMs` (occurrences missed while the runtime was down fire
   * once, as this firing), or is removed after its last.
   */
  async claim(name: string, runAt: string, nowMs: number = this.clock.now()): Promise<boolean> {
    try {
      await this.t.doc.send(new DeleteCommand({
        TableName: this.t.tableName, Key: timerKey(name),
        // still the same firing (not rescheduled meanwhile) of a one-time timer
        ConditionExpression: `${cond.present} AND run_at = :runAt AND attribute_not_exists(cron)`,
        ExpressionAttributeValues: { ':runAt': runAt },
      }));
      return true;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const item = (await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: timerKey(name), ConsistentRead: true }))).Item;
    if (!item || item.run_at !== runAt || typeof item.cron !== 'string') return false;
    const next = nextOccurrence(item.cron, item.timezone as string, new Date(Math.max(Date.parse(runAt), nowMs)), item.ends_at ? new Date(item.ends_at as string) : undefined);
    try {
      if (!next) {
        await this.t.doc.send(new DeleteCommand({
          TableName: this.t.tableName, Key: timerKey(name),
          // still this firing: the last occurrence
          ConditionExpression: `${cond.present} AND run_at = :runAt`, ExpressionAttributeValues: { ':runAt': runAt },
        }));
      } else {
        await this.t.doc.send(new UpdateCommand({
          TableName: this.t.tableName, Key: timerKey(name),
          UpdateExpression: 'SET run_at = :next, gsi1sk = :sk',
          // still this firing: exactly one claimer re-arms it
          ConditionExpression: `${cond.present} AND run_at = :runAt`,
          ExpressionAttributeValues: { ':runAt': runAt, ':next': next.toISOString(), ':sk': `${next.toISOString()}#${name}` },
        }));
      }
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

/** The input of a firing: SCHEDULED_TIME replaced by its time, formatted as EventBridge Scheduler does (no ms). */
function withScheduledTime(input: Record<string, unknown>, runAt: string): Record<string, unknown> {
  const text = JSON.stringify(input);
  if (!text.includes(SCHEDULED_TIME)) return input;
  return JSON.parse(text.split(SCHEDULED_TIME).join(runAt.replace(/\.\d{3}Z$/, 'Z'))) as Record<string, unknown>;
}

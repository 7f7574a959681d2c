import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ScheduledInvocation, Scheduler } from '../../ports/scheduler';
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
  constructor(private readonly t: TableRef) {}

  async scheduleOnce(inv: ScheduledInvocation) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...timerKey(inv.name), gsi1pk: TIMERS, gsi1sk: `${inv.runAt.toISOString()}#${inv.name}`, name: inv.name, run_at: inv.runAt.toISOString(), input: inv.input },
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
    return (res.Items ?? []).map((i) => ({ name: i.name as string, runAt: i.run_at as string, input: i.input as Record<string, unknown> }));
  }

  /** Removes the timer if it is still there; true for exactly one caller. */
  async claim(name: string, runAt: string): Promise<boolean> {
    try {
      await this.t.doc.send(new DeleteCommand({
        TableName: this.t.tableName, Key: timerKey(name),
        // still the same firing (not rescheduled meanwhile)
        ConditionExpression: `${cond.present} AND run_at = :runAt`,
        ExpressionAttributeValues: { ':runAt': runAt },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

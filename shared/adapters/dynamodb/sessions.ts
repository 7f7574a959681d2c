import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DashboardSession, SessionStore } from '../../ports/sessions';
import type { TableRef } from './client';
import { cond } from './conditions';
import { keys, strip } from './keys';

/** Dashboard sessions in the single table, one item per session hash, expiring through the TTL attribute. */
export class DynamoSessionStore implements SessionStore {
  constructor(private readonly t: TableRef) {}

  async create(session: DashboardSession) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName, Item: { ...keys.session(session.hash), ...session }, ConditionExpression: cond.absent,
    }));
  }

  async get(hash: string, nowMs: number): Promise<DashboardSession | undefined> {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.session(hash), ConsistentRead: true }));
    if (!res.Item) return undefined;
    const session = strip<DashboardSession>(res.Item);
    return session.expires_at * 1000 > nowMs ? session : undefined;
  }

  async revoke(hash: string) {
    await this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: keys.session(hash) }));
  }
}

import { DeleteCommand, PutCommand, UpdateCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Connection, ConnectionStore, SweepDue } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { and, cond } from './conditions';
import { GSI1, keys, strip } from './keys';

/** Connections live in the account partition, one per (brand, network), so listing is one query. */
export class DynamoConnectionStore implements ConnectionStore {
  constructor(private readonly t: TableRef) {}

  async put(c: Connection) {
    const sweep = c.sweep_at === undefined ? {} : keys.connectionSweep(c.account_id, c.brand_id, c.platform, c.sweep_at);
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.connection(c.account_id, c.brand_id, c.platform), ...sweep, ...c } }));
  }

  async get(accountId: string, brandId: string, platform: PlatformName) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.connection(accountId, brandId, platform), ConsistentRead: true }));
    return res.Item ? strip<Connection>(res.Item) : undefined;
  }

  async listByAccount(accountId: string) {
    const items = await queryAll(this.t, {
      ConsistentRead: true, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.account(accountId).pk, ':prefix': keys.connectionPrefix },
    });
    return items.map((i) => strip<Connection>(i));
  }

  async delete(accountId: string, connectionId: string) {
    const found = (await this.listByAccount(accountId)).find((c) => c.id === connectionId);
    if (!found) return false;
    try {
      await this.t.doc.send(new DeleteCommand({
        TableName: this.t.tableName, Key: keys.connection(accountId, found.brand_id, found.platform),
        // still the same connection (not replaced by a reconnect meanwhile)
        ConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': connectionId },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async setStatus(accountId: string, brandId: string, platform: PlatformName, status: Connection['status']) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.connection(accountId, brandId, platform),
      UpdateExpression: 'SET #status = :status', ConditionExpression: cond.present,
      ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':status': status },
    })).catch((err) => { if (!isConditionFailure(err)) throw err; });
  }

  async saveTokens(c: Connection, tokens: { tokens_enc: string; token_expires_at?: number; lapses_at?: number; sweep_at?: number }) {
    const { set, remove, values } = this.fields(c, { token_expires_at: tokens.token_expires_at, lapses_at: tokens.lapses_at, sweep_at: tokens.sweep_at, network_down_since: undefined, network_error: undefined });
    return this.update(c, [...set, 'tokens_enc = :t'], remove, { ...values, ':t': tokens.tokens_enc });
  }

  async saveHealth(c: Connection, f: Pick<Connection, 'sweep_at' | 'lapses_at' | 'network_down_since' | 'network_error'>) {
    const { set, remove, values } = this.fields(c, { sweep_at: f.sweep_at, lapses_at: f.lapses_at, network_down_since: f.network_down_since, network_error: f.network_error });
    return this.update(c, set, remove, values);
  }

  async claimExpiringNotice(c: Connection, lapsesAt: number) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.connection(c.account_id, c.brand_id, c.platform),
        UpdateExpression: 'SET expiring_notified = :l',
        // the same connection, not told about this lapse date yet: exactly one sweep records connection.expiring
        ConditionExpression: and(cond.present, 'id = :id', 'attribute_not_exists(expiring_notified) OR expiring_notified <> :l'),
        ExpressionAttributeValues: { ':l': lapsesAt, ':id': c.id },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async dueForSweep(before: number, limit: number): Promise<SweepDue[]> {
    const hi = `${String(Math.max(0, Math.floor(before))).padStart(15, '0')}#~`;
    const out: SweepDue[] = [];
    for (const pk of keys.connectionSweepShards) {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, IndexName: GSI1, Limit: limit,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :hi', ExpressionAttributeValues: { ':pk': pk, ':hi': hi },
      }));
      for (const i of res.Items ?? []) out.push({ account_id: i.account_id as string, brand_id: i.brand_id as string, platform: i.platform as SweepDue['platform'], sweep_at: i.sweep_at as number });
    }
    return out.sort((a, b) => a.sweep_at - b.sweep_at).slice(0, limit);
  }

  /** SET the defined fields, REMOVE the undefined ones; sweep_at also moves (or drops) the sweep index keys. */
  private fields(c: Connection, f: Record<string, string | number | undefined>) {
    const set: string[] = [];
    const remove: string[] = [];
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(f)) {
      if (v === undefined) remove.push(k);
      else { set.push(`${k} = :${k}`); values[`:${k}`] = v; }
    }
    if (f.sweep_at === undefined) remove.push('gsi1pk', 'gsi1sk');
    else {
      const idx = keys.connectionSweep(c.account_id, c.brand_id, c.platform, f.sweep_at as number);
      set.push('gsi1pk = :g1', 'gsi1sk = :g2');
      values[':g1'] = idx.gsi1pk; values[':g2'] = idx.gsi1sk;
    }
    return { set, remove, values };
  }

  private async update(c: Connection, set: string[], remove: string[], values: Record<string, unknown>) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.connection(c.account_id, c.brand_id, c.platform),
        UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' '),
        // still the same connection (a reconnect meanwhile brought its own tokens)
        ConditionExpression: and(cond.present, 'id = :id'),
        ExpressionAttributeValues: { ...values, ':id': c.id },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async markReauth(c: Connection) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.connection(c.account_id, c.brand_id, c.platform),
        // a lost sign-in leaves the renewal sweep's index (nothing to renew until the user signs in again)
        UpdateExpression: 'SET #status = :reauth REMOVE sweep_at, gsi1pk, gsi1sk',
        // the same connection, and not marked yet: exactly one caller records the lost sign-in
        ConditionExpression: and(cond.present, 'id = :id', '#status <> :reauth'),
        ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':reauth': 'reauth_required', ':id': c.id },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

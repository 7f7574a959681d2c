import type { Connection, ConnectionStore, SweepDue } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import type { TableRef } from './client';
import { and, cond } from './conditions';
import { conditional, entity, type Bound, type Condition } from './entity';
import { keys } from './keys';

/** A connection, on the renewal sweep's index while it has a sweep_at. */
export const connectionEntity = entity({
  key: keys.connection,
  keyOf: (c: Connection) => keys.connection(c.account_id, c.brand_id, c.platform),
  indexOf: (c: Connection) => (c.sweep_at === undefined ? {} : keys.connectionSweep(c.account_id, c.brand_id, c.platform, c.sweep_at)),
});

/** Still the same connection (a reconnect meanwhile brought its own tokens). */
const same = (c: Connection, also?: string): Condition => ({ if: and(cond.present, 'id = :id', ...(also ? [also] : [])), values: { ':id': c.id } });

/** Connections live in the account partition, one per (brand, network), so listing is one query. */
export class DynamoConnectionStore implements ConnectionStore {
  private readonly items: Bound<typeof connectionEntity>;
  constructor(t: TableRef) { this.items = connectionEntity.on(t); }

  put(c: Connection) {
    return this.items.put(c);
  }

  get(accountId: string, brandId: string, platform: PlatformName) {
    return this.items.get(accountId, brandId, platform);
  }

  listByAccount(accountId: string) {
    return this.items.query({ pk: keys.account(accountId).pk, beginsWith: keys.connectionPrefix });
  }

  async delete(accountId: string, connectionId: string) {
    const found = (await this.listByAccount(accountId)).find((c) => c.id === connectionId);
    if (!found) return false;
    // still the same connection (not replaced by a reconnect meanwhile)
    return conditional(this.items.delete([accountId, found.brand_id, found.platform], { if: 'id = :id', values: { ':id': connectionId } }));
  }

  async setStatus(accountId: string, brandId: string, platform: PlatformName, status: Connection['status']) {
    await conditional(this.items.update([accountId, brandId, platform], { set: { status } }, { if: cond.present }));
  }

  saveTokens(c: Connection, tokens: { tokens_enc: string; token_expires_at?: number; lapses_at?: number; sweep_at?: number }) {
    const change = this.fields(c, { token_expires_at: tokens.token_expires_at, lapses_at: tokens.lapses_at, sweep_at: tokens.sweep_at, network_down_since: undefined, network_error: undefined });
    return conditional(this.items.update(this.keyOf(c), { ...change, set: { ...change.set, tokens_enc: tokens.tokens_enc } }, same(c)));
  }

  saveHealth(c: Connection, f: Pick<Connection, 'sweep_at' | 'lapses_at' | 'network_down_since' | 'network_error'>) {
    const change = this.fields(c, { sweep_at: f.sweep_at, lapses_at: f.lapses_at, network_down_since: f.network_down_since, network_error: f.network_error });
    return conditional(this.items.update(this.keyOf(c), change, same(c)));
  }

  claimExpiringNotice(c: Connection, lapsesAt: number) {
    // the same connection, not told about this lapse date yet: exactly one sweep records connection.expiring
    const notYet = same(c, 'attribute_not_exists(expiring_notified) OR expiring_notified <> :l');
    return conditional(this.items.update(this.keyOf(c), { set: { expiring_notified: lapsesAt } }, { ...notYet, values: { ...notYet.values, ':l': lapsesAt } }));
  }

  async dueForSweep(before: number, limit: number): Promise<SweepDue[]> {
    const upTo = `${String(Math.max(0, Math.floor(before))).padStart(15, '0')}#~`;
    const out: SweepDue[] = [];
    for (const gsi1pk of keys.connectionSweepShards) {
      const page = await this.items.page({ gsi1pk, upTo }, { limit });
      for (const c of page.items) out.push({ account_id: c.account_id, brand_id: c.brand_id, platform: c.platform, sweep_at: c.sweep_at as number });
    }
    return out.sort((a, b) => a.sweep_at - b.sweep_at).slice(0, limit);
  }

  markReauth(c: Connection) {
    // a lost sign-in leaves the renewal sweep's index (nothing to renew until the user signs in again)
    const change = { set: { status: 'reauth_required' }, remove: ['sweep_at', 'gsi1pk', 'gsi1sk'] };
    // the same connection, and not marked yet: exactly one caller records the lost sign-in
    const unmarked = same(c, '#status <> :reauth');
    return conditional(this.items.update(this.keyOf(c), change, { ...unmarked, values: { ...unmarked.values, ':reauth': 'reauth_required' } }));
  }

  private keyOf(c: Connection): [string, string, PlatformName] {
    return [c.account_id, c.brand_id, c.platform];
  }

  /** SET the defined fields, REMOVE the undefined ones; sweep_at also moves (or drops) the sweep index keys. */
  private fields(c: Connection, f: Record<string, string | number | undefined>) {
    const set: Record<string, unknown> = {};
    const remove: string[] = [];
    for (const [k, v] of Object.entries(f)) {
      if (v === undefined) remove.push(k);
      else set[k] = v;
    }
    if (f.sweep_at === undefined) remove.push('gsi1pk', 'gsi1sk');
    else Object.assign(set, keys.connectionSweep(c.account_id, c.brand_id, c.platform, f.sweep_at as number));
    return { set, remove };
  }
}

import { createHash } from 'node:crypto';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { CounterStore } from '../../ports/store';
import { counterShards, counterShares } from '../../domain/usage';
import type { TableRef } from './client';
import { cond, or } from './conditions';
import { conditional, entity, orUndefined, type Bound } from './entity';
import { keys } from './keys';
import { systemClock } from '../../ports/clock';

/** Read-and-retry rounds of one increment or release under contention before it gives up (refuses / leaves the rest). */
const MAX_ROUNDS = 20;

interface Item { count: number; live: boolean }

/** One item of a counter (item `shard` of a spread one): a number made by updates only, and its window's TTL. */
const counterEntity = entity({
  key: keys.counterShard,
  keyOf: (c: { counter: string; shard: number; count: number; expires_at?: number }) => keys.counterShard(c.counter, c.shard),
  keyOnly: ['counter', 'shard'],
});

/**
 * Fixed-window counters shared by every Lambda instance: callers put the window into the key, so each window is
 * its own item (or items), incremented with a conditional ADD so the limit holds under concurrency; TTL removes old
 * windows.
 *
 * A hot counter (counterShards(key) > 1: the month's posts, the scheduled posts, an actor's cap) is spread over
 * several items so a burst of one account is not throttled on one partition. Item i may hold at most its share of
 * the limit (counterShares), checked by its own conditional ADD, so the items never add up to more than the limit.
 * An increment tries one item (the one its `spreadBy` id hashes to, else a random one; an amount of at least one
 * per item is spread evenly over all of them); when that fails it reads all the items in one BatchGet, refuses when
 * the total has no room, and otherwise tries the items with the most room (an amount larger than any one item's room
 * is split over several, all or nothing: the parts are given back if another writer got there first). A release
 * takes from the `spreadBy` (or a random) item, else after one BatchGet from the fullest ones; no item goes below
 * zero. Reads sum the items (one BatchGet).
 */
export class DynamoCounterStore implements CounterStore {
  private readonly items: Bound<typeof counterEntity>;
  constructor(
    private readonly t: TableRef,
    private readonly nowSec: () => number = () => Math.floor(systemClock.now() / 1000),
    private readonly opts: { shardsOf?: (key: string) => number; random?: () => number } = {},
  ) {
    this.items = counterEntity.on(t);
  }

  private shards(key: string) { return (this.opts.shardsOf ?? counterShards)(key); }
  /** The item to try first: the one `spreadBy` hashes to, else a random one. */
  private pick(n: number, spreadBy?: string) {
    if (spreadBy !== undefined) return createHash('sha256').update(spreadBy).digest().readUInt32BE(0) % n;
    return Math.min(n - 1, Math.floor((this.opts.random ?? Math.random)() * n));
  }

  async increment(key: string, amount: number, limit: number, expiresAtSec: number, spreadBy?: string) {
    const n = this.shards(key);
    if (amount > limit) return { allowed: false, count: await this.get(key) };
    if (n === 1) {
      const count = await this.add(key, 0, amount, limit, expiresAtSec);
      return count === undefined ? { allowed: false, count: await this.get(key) } : { allowed: true, count };
    }
    if (amount <= 0) {
      const count = await this.get(key);
      return { allowed: count <= limit, count };
    }
    const shares = counterShares(limit, n);
    if (amount >= n) {
      // a large amount (e.g. a bulk of scheduled posts) is spread evenly, so later releases find it on any item
      const even = shares.map((_, i) => Math.floor(amount / n) + (i < amount % n ? 1 : 0));
      if (even.every((take, i) => take <= shares[i]) && (await this.addAll(key, even.flatMap((take, i) => (take > 0 ? [[i, take] as [number, number]] : [])), shares, expiresAtSec))) {
        return { allowed: true, count: amount };
      }
    } else {
      const fits = shares.flatMap((s, i) => (s >= amount ? [i] : []));
      const first = spreadBy !== undefined && shares[this.pick(n, spreadBy)] >= amount ? this.pick(n, spreadBy) : fits[this.pick(fits.length)];
      if (first !== undefined) {
        const count = await this.add(key, first, amount, shares, expiresAtSec);
        if (count !== undefined) return { allowed: true, count };
      }
    }
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const items = await this.read(key, n);
      const total = sum(items.map((i) => i.count));
      if (total + amount > limit) return { allowed: false, count: total };
      const room = shares.map((s, i) => Math.max(0, s - items[i].count));
      // an item above its share (the limit was lowered in this window) lends nothing to the others
      if (sum(room) < amount) return { allowed: false, count: total };
      const order = room.map((_, i) => i).filter((i) => room[i] > 0).sort((a, b) => room[b] - room[a]);
      if (room[order[0]] >= amount) {
        for (const i of order.filter((j) => room[j] >= amount)) {
          const count = await this.add(key, i, amount, shares, expiresAtSec);
          if (count !== undefined) return { allowed: true, count };
        }
        continue;
      }
      // no one item has room for all of it: take it from several, all or nothing
      const plan: Array<[number, number]> = [];
      let left = amount;
      for (const i of order) {
        if (!left) break;
        const take = Math.min(room[i], left);
        plan.push([i, take]);
        left -= take;
      }
      if (await this.addAll(key, plan, shares, expiresAtSec)) return { allowed: true, count: total + amount };
    }
    return { allowed: false, count: await this.get(key) };
  }

  async release(key: string, amount: number, spreadBy?: string) {
    if (amount <= 0) return;
    const n = this.shards(key);
    if (await this.subtract(key, n === 1 ? 0 : this.pick(n, spreadBy), amount)) return;
    if (n === 1) return; // never below zero
    let left = amount;
    for (let round = 0; round < MAX_ROUNDS && left > 0; round++) {
      const items = await this.read(key, n);
      const order = items.map((_, i) => i).filter((i) => items[i].count > 0).sort((a, b) => items[b].count - items[a].count);
      if (!order.length) return; // nothing left to give back: never below zero
      for (const i of order) {
        if (!left) break;
        const take = Math.min(items[i].count, left);
        if (await this.subtract(key, i, take)) left -= take;
      }
    }
  }

  async get(key: string) {
    const items = await this.read(key, this.shards(key));
    return sum(items.map((i) => (i.live ? i.count : 0)));
  }

  /** Counters of one item each are read together (BatchGet, 100 a request); a spread counter with `get`. */
  async getMany(counterKeys: string[]): Promise<number[]> {
    const single = counterKeys.filter((k) => this.shards(k) === 1);
    const now = this.nowSec();
    const counts = new Map<string, number>();
    for (let i = 0; i < single.length; i += 100) {
      let wanted: Record<string, unknown>[] = single.slice(i, i + 100).map((k) => keys.counterShard(k, 0));
      for (let tries = 0; wanted.length && tries < MAX_ROUNDS; tries++) {
        const res = await this.t.doc.send(new BatchGetCommand({ RequestItems: { [this.t.tableName]: { Keys: wanted, ConsistentRead: true } } }));
        for (const item of res.Responses?.[this.t.tableName] ?? []) {
          const live = !(typeof item.expires_at === 'number' && item.expires_at < now);
          counts.set(String(item.pk), live ? Number(item.count ?? 0) : 0);
        }
        wanted = (res.UnprocessedKeys?.[this.t.tableName]?.Keys ?? []) as Record<string, unknown>[];
      }
      if (wanted.length) throw new Error(`counters: the table left ${wanted.length} items unread`);
    }
    return Promise.all(counterKeys.map(async (k) => (this.shards(k) === 1 ? counts.get(keys.counterShard(k, 0).pk) ?? 0 : this.get(k))));
  }

  /**
   * Adds `amount` to item `shard` if it stays within its share (`shares[shard]`, or `limit` for a single item).
   * Answers the item's count after, or undefined when the condition refused it.
   */
  private async add(key: string, shard: number, amount: number, sharesOrLimit: number[] | number, expiresAtSec: number): Promise<number | undefined> {
    const share = typeof sharesOrLimit === 'number' ? sharesOrLimit : sharesOrLimit[shard];
    const item = await orUndefined(this.items.updateAndRead([key, shard], { add: { count: amount }, set: { expires_at: expiresAtSec } }, {
      // a new item, or one still within its share after adding
      if: or(cond.absent, '#count <= :room'), names: { '#count': 'count' }, values: { ':room': share - amount },
    }));
    return item === undefined ? undefined : Number(item.count ?? amount);
  }

  /** Adds each [item, amount] of `plan` within its share, all or nothing: what was added is given back if any is refused. */
  private async addAll(key: string, plan: Array<[number, number]>, shares: number[], expiresAtSec: number): Promise<boolean> {
    const added = await Promise.all(plan.map(([i, take]) => this.add(key, i, take, shares, expiresAtSec)));
    if (added.every((c) => c !== undefined)) return true;
    await Promise.all(plan.map(([i, take], j) => (added[j] === undefined ? undefined : this.subtract(key, i, take))));
    return false;
  }

  /** Takes `amount` off item `shard` if it holds that much; answers whether it did. */
  private subtract(key: string, shard: number, amount: number): Promise<boolean> {
    return conditional(this.items.update([key, shard], { add: { count: -amount } }, {
      // never below zero
      if: '#count >= :amount', names: { '#count': 'count' }, values: { ':amount': amount },
    }));
  }

  /** The counter's items (a missing one counts 0), consistently read: one GetItem, or one BatchGet for several. */
  private async read(key: string, n: number): Promise<Item[]> {
    const now = this.nowSec();
    const itemOf = (raw: { count?: unknown; expires_at?: unknown } | undefined): Item => ({
      count: Number(raw?.count ?? 0), live: !(typeof raw?.expires_at === 'number' && raw.expires_at < now),
    });
    if (n === 1) return [itemOf(await this.items.get(key, 0))];
    const byPk = new Map<string, Record<string, unknown>>();
    let wanted: Record<string, unknown>[] = Array.from({ length: n }, (_, i) => keys.counterShard(key, i));
    for (let tries = 0; wanted.length && tries < MAX_ROUNDS; tries++) {
      const res = await this.t.doc.send(new BatchGetCommand({ RequestItems: { [this.t.tableName]: { Keys: wanted, ConsistentRead: true } } }));
      for (const item of res.Responses?.[this.t.tableName] ?? []) byPk.set(String(item.pk), item);
      wanted = (res.UnprocessedKeys?.[this.t.tableName]?.Keys ?? []) as Record<string, unknown>[];
    }
    if (wanted.length) throw new Error(`counter ${key}: the table left ${wanted.length} items unread`);
    return Array.from({ length: n }, (_, i) => itemOf(byPk.get(keys.counterShard(key, i).pk)));
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

import { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { FORMAT_VERSION } from '../../domain/format-version';
import { isConditionFailure, type TableRef } from './client';
import { GSI1 } from './keys';

type Attributes = Record<string, unknown>;

/** An item's primary key, as the key catalogue (keys.ts) builds it. */
interface PrimaryKey { pk: string; sk: string }

/**
 * A condition for a write: an expression composed of the named fragments of conditions.ts (with `and` / `or`), and
 * the names and values it refers to.
 */
export interface Condition {
  if: string;
  names?: Record<string, string>;
  values?: Attributes;
}

/**
 * One kind of item of the single table, declared once (in the spirit of ElectroDB, without its framework): how its
 * keys come from the key catalogue, what else the item carries, and how an item reads back as the domain's value.
 */
export interface EntityDefinition<T, A extends unknown[], K extends keyof T = never> {
  /** The item's key from its identifying arguments (a function of keys.ts). */
  key: (...args: A) => PrimaryKey;
  /** The key of a value about to be written. */
  keyOf: (value: T) => PrimaryKey;
  /** The item's gsi1 keys when it is listed on the index (`{}` when this one is not). */
  indexOf?: (value: T) => { gsi1pk?: string; gsi1sk?: string };
  /** Attributes the item carries beyond the value (a TTL computed from it, say). */
  extraOf?: (value: T) => Attributes;
  /** Attributes kept on the item that are not part of the value (the keys and `v` never are). */
  hidden?: readonly string[];
  /** Fields of the value that only make its key: not written as attributes, so reads answer the value without them. */
  keyOnly?: readonly K[];
  /** Gets and base-table queries are strongly consistent unless this says false (index queries never are). */
  consistentRead?: boolean;
}

/** A value as read back: without its key-only fields. */
type Stored<T, K extends keyof T> = [K] extends [never] ? T : Omit<T, K>;

/**
 * A change of an item: `set` and `add` map attribute names to values, `remove` lists names; or, where a change needs
 * what these cannot say (a map entry `#n.#p.state`, `if_not_exists`), `expression` is the whole update expression,
 * with its `names` and `values`.
 */
export type Change =
  | { set?: Attributes; add?: Attributes; remove?: readonly string[]; expression?: never }
  | { expression: string; names?: Record<string, string>; values?: Attributes };

/**
 * A change of one entry of a map attribute (a post's `networks.<platform>`, say): `set` gives fields of the entry
 * (undefined values are left out), `remove` takes fields off, `count` adds to number fields that start from 0. In the
 * expression the map is #n and the entry #p, so a condition on the entry (conditions.ts `entry`) names them alike;
 * each field is #f_<field> with the value :f_<field>.
 */
export function entryChange(map: string, key: string, change: { set?: Attributes; remove?: readonly string[]; count?: Record<string, number> }): Change {
  const names: Record<string, string> = { '#n': map, '#p': key };
  const values: Attributes = {};
  const path = (field: string) => { names[`#f_${field}`] = field; return `#n.#p.#f_${field}`; };
  const sets = Object.entries(change.set ?? {}).filter(([, value]) => value !== undefined)
    .map(([field, value]) => { values[`:f_${field}`] = value; return `${path(field)} = :f_${field}`; });
  for (const [field, by] of Object.entries(change.count ?? {})) {
    values[':f_zero'] = 0;
    values[`:f_${field}`] = by;
    sets.push(`${path(field)} = if_not_exists(${path(field)}, :f_zero) + :f_${field}`);
  }
  const removes = (change.remove ?? []).map(path);
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  return { expression, names, values };
}

/**
 * A key range of one partition: of the table (`pk`) or of the index (`gsi1pk`), optionally narrowed on the sort key.
 * `before` and `upTo` are exclusive and inclusive upper bounds.
 */
export type KeyRange = ({ pk: string; gsi1pk?: never } | { gsi1pk: string; pk?: never }) & {
  beginsWith?: string;
  between?: readonly [string, string];
  before?: string;
  upTo?: string;
};

export interface QueryOptions {
  /** A filter applied after the read (DynamoDB filters after Limit counts). */
  filter?: Condition;
  /** Newest (highest sort key) first. */
  descending?: boolean;
  /** At most this many items: pages are read until this many are found (each page asks `pageSize`, else `limit`). */
  limit?: number;
  pageSize?: number;
}

/** The items a single query request answered, and where the next page starts. */
export interface Page<T> {
  items: T[];
  next?: Attributes;
}

/**
 * An entity bound to a table: typed put (optionally conditional), get, update, delete and queries, with the keys,
 * the index keys and the format version `v` written on every put, and taken off again on every read.
 */
export class Entity<T, A extends unknown[], K extends keyof T = never> {
  constructor(private readonly t: TableRef, private readonly def: EntityDefinition<T, A, K>) {}

  /** The item a value is stored as. */
  toItem(value: T): Attributes {
    const d = this.def;
    const item: Attributes = { ...d.keyOf(value), ...d.indexOf?.(value), ...value, ...d.extraOf?.(value), v: FORMAT_VERSION };
    for (const name of d.keyOnly ?? []) delete item[name as string];
    return item;
  }

  /** The value an item reads as: its keys, `v` and the hidden attributes left out. */
  fromItem(item: Attributes): Stored<T, K> {
    const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, v: _v, ...rest } = item;
    for (const name of this.def.hidden ?? []) delete rest[name];
    return rest as Stored<T, K>;
  }

  async get(...args: A): Promise<Stored<T, K> | undefined> {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: this.def.key(...args), ConsistentRead: this.consistent }));
    return res.Item ? this.fromItem(res.Item) : undefined;
  }

  /** Writes the value whole; with `when`, only if the condition holds (else ConditionalCheckFailedException). */
  async put(value: T, when?: Condition): Promise<void> {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: this.toItem(value), ...conditionInput(when) }));
  }

  /**
   * Writes the values whole, unconditionally, 25 a request (BatchWriteItem); what the table leaves unprocessed is sent
   * again, up to `tries` requests a batch, and then left unwritten (for values that are recomputed when missing).
   */
  async putAll(values: readonly T[], tries = 8): Promise<void> {
    for (let i = 0; i < values.length; i += 25) {
      let pending: Array<Record<string, unknown>> | undefined = values.slice(i, i + 25).map((v) => ({ PutRequest: { Item: this.toItem(v) } }));
      for (let n = 0; pending?.length && n < tries; n++) {
        const res = await this.t.doc.send(new BatchWriteCommand({ RequestItems: { [this.t.tableName]: pending } }));
        pending = res.UnprocessedItems?.[this.t.tableName] as Array<Record<string, unknown>> | undefined;
      }
    }
  }

  /** The values as items of a batch written with `putAllOrThrow` (which throws when any is left unwritten). */
  batchOf(values: readonly T[]): BatchPuts {
    return { t: this.t, items: values.map((v) => this.toItem(v)) };
  }

  /**
   * A conditional put that, refused, answers the item that stopped it: DynamoDB sends it with the failure
   * (ReturnValuesOnConditionCheckFailure), and an engine that does not is asked once more with a consistent get.
   */
  async putOrFind(value: T, when: Condition): Promise<{ written: true } | { written: false; found?: Stored<T, K> }> {
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName, Item: this.toItem(value), ...conditionInput(when), ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }));
      return { written: true };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const found = (err as { Item?: Attributes }).Item
        ?? (await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: this.def.keyOf(value), ConsistentRead: true }))).Item;
      return { written: false, ...(found ? { found: this.fromItem(found) } : {}) };
    }
  }

  /** Changes the item; with `when`, only if the condition holds (else ConditionalCheckFailedException). */
  async update(key: A, change: Change, when?: Condition): Promise<void> {
    await this.t.doc.send(new UpdateCommand(this.updateInput(key, change, when)));
  }

  /** As update, answering the item as it is after the change (no second read). */
  async updateAndRead(key: A, change: Change, when?: Condition): Promise<Stored<T, K>> {
    const res = await this.t.doc.send(new UpdateCommand({ ...this.updateInput(key, change, when), ReturnValues: 'ALL_NEW' }));
    return this.fromItem(res.Attributes!);
  }

  /** As update, answering the item as it was before the change (a claim that hands over what it took). */
  async updateAndReadBefore(key: A, change: Change, when?: Condition): Promise<Stored<T, K> | undefined> {
    const res = await this.t.doc.send(new UpdateCommand({ ...this.updateInput(key, change, when), ReturnValues: 'ALL_OLD' }));
    return res.Attributes ? this.fromItem(res.Attributes) : undefined;
  }

  /** Deletes the item; with `when`, only if the condition holds (else ConditionalCheckFailedException). */
  async delete(key: A, when?: Condition): Promise<void> {
    await this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: this.def.key(...key), ...conditionInput(when) }));
  }

  /** Every item of the range (pages followed), or the first `limit` of them. */
  async query(range: KeyRange, opts: QueryOptions = {}): Promise<Stored<T, K>[]> {
    const out: Stored<T, K>[] = [];
    let start: Attributes | undefined;
    do {
      const page = await this.page(range, { ...opts, limit: opts.pageSize ?? opts.limit }, start);
      out.push(...page.items);
      start = page.next;
    } while (start && (opts.limit === undefined || out.length < opts.limit));
    return opts.limit === undefined ? out : out.slice(0, opts.limit);
  }

  /** One query request: up to `limit` items read (fewer after a filter), and the key the next page starts from. */
  async page(range: KeyRange, opts: Omit<QueryOptions, 'pageSize'> = {}, start?: Attributes): Promise<Page<Stored<T, K>>> {
    const onIndex = range.gsi1pk !== undefined;
    const p = onIndex ? 'gsi1pk' : 'pk';
    const s = onIndex ? 'gsi1sk' : 'sk';
    const values: Attributes = { ':pk': onIndex ? range.gsi1pk : range.pk };
    const parts = [`${p} = :pk`];
    if (range.beginsWith !== undefined) { parts.push(`begins_with(${s}, :prefix)`); values[':prefix'] = range.beginsWith; }
    if (range.between) { parts.push(`${s} BETWEEN :from AND :to`); values[':from'] = range.between[0]; values[':to'] = range.between[1]; }
    if (range.before !== undefined) { parts.push(`${s} < :before`); values[':before'] = range.before; }
    if (range.upTo !== undefined) { parts.push(`${s} <= :upTo`); values[':upTo'] = range.upTo; }
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName,
      ...(onIndex ? { IndexName: GSI1 } : { ConsistentRead: this.consistent }),
      KeyConditionExpression: parts.join(' AND '),
      ...(opts.filter ? { FilterExpression: opts.filter.if } : {}),
      ...(opts.filter?.names ? { ExpressionAttributeNames: opts.filter.names } : {}),
      ExpressionAttributeValues: { ...values, ...opts.filter?.values },
      ...(opts.descending ? { ScanIndexForward: false } : {}),
      ...(opts.limit !== undefined ? { Limit: opts.limit } : {}),
      ...(start ? { ExclusiveStartKey: start } : {}),
    }));
    return { items: (res.Items ?? []).map((i) => this.fromItem(i)), ...(res.LastEvaluatedKey ? { next: res.LastEvaluatedKey } : {}) };
  }

  /**
   * The items of these keys that exist, in strongly consistent BatchGetItem requests of 100 keys (unless the entity's
   * reads are eventually consistent); keys the table leaves unprocessed are asked again, up to `tries` requests a
   * batch, and then it throws rather than answer less. In no particular order.
   */
  async getAll(keyArgs: readonly A[], tries = 8): Promise<Stored<T, K>[]> {
    const found: Stored<T, K>[] = [];
    for (let i = 0; i < keyArgs.length; i += 100) {
      let pending: Attributes[] | undefined = keyArgs.slice(i, i + 100).map((args) => ({ ...this.def.key(...args) }));
      for (let n = 0; pending?.length && n < tries; n++) {
        const res: BatchGetCommandOutput = await this.t.doc.send(new BatchGetCommand({ RequestItems: { [this.t.tableName]: { Keys: pending, ConsistentRead: this.consistent } } }));
        found.push(...(res.Responses?.[this.t.tableName] ?? []).map((item) => this.fromItem(item)));
        pending = res.UnprocessedKeys?.[this.t.tableName]?.Keys;
      }
      if (pending?.length) throw new Error('getAll: the table kept refusing part of the batch read');
    }
    return found;
  }

  /**
   * Only some attributes of the item (a ProjectionExpression, with the names it uses): a smaller read answering what
   * the item holds of them (of a map, only the entries and fields named), or undefined when there is no item.
   */
  async project(key: A, projection: { expression: string; names?: Record<string, string> }): Promise<Partial<Stored<T, K>> | undefined> {
    const res = await this.t.doc.send(new GetCommand({
      TableName: this.t.tableName, Key: this.def.key(...key), ConsistentRead: this.consistent,
      ProjectionExpression: projection.expression, ...(projection.names ? { ExpressionAttributeNames: projection.names } : {}),
    }));
    return res.Item ? this.fromItem(res.Item) : undefined;
  }

  private get consistent() {
    return this.def.consistentRead ?? true;
  }

  private updateInput(key: A, change: Change, when?: Condition) {
    const names: Record<string, string> = { ...when?.names };
    const values: Attributes = { ...when?.values };
    let expression: string;
    if (change.expression !== undefined) {
      Object.assign(names, change.names);
      Object.assign(values, change.values);
      expression = change.expression;
    } else {
      const name = (attr: string) => { names[`#${attr}`] = attr; return `#${attr}`; };
      const set = Object.entries(change.set ?? {}).map(([attr, value]) => { values[`:set_${attr}`] = value; return `${name(attr)} = :set_${attr}`; });
      const add = Object.entries(change.add ?? {}).map(([attr, value]) => { values[`:add_${attr}`] = value; return `${name(attr)} :add_${attr}`; });
      expression = [
        set.length ? `SET ${set.join(', ')}` : '', add.length ? `ADD ${add.join(', ')}` : '',
        change.remove?.length ? `REMOVE ${change.remove.map(name).join(', ')}` : '',
      ].filter(Boolean).join(' ');
    }
    return {
      TableName: this.t.tableName, Key: this.def.key(...key),
      UpdateExpression: expression,
      ...(when ? { ConditionExpression: when.if } : {}),
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    };
  }
}

function conditionInput(when?: Condition) {
  if (!when) return {};
  return {
    ConditionExpression: when.if,
    ...(when.names ? { ExpressionAttributeNames: when.names } : {}),
    ...(when.values ? { ExpressionAttributeValues: when.values } : {}),
  };
}

/** Declares an entity once; each store binds it to its table (`.on(table)`, in the store's constructor). */
export function entity<T, A extends unknown[], K extends keyof T = never>(def: EntityDefinition<T, A, K>) {
  return { on: (t: TableRef) => new Entity(t, def) };
}

/** The type of a declared entity bound to a table (a store's field). */
export type Bound<E extends { on: (t: TableRef) => unknown }> = ReturnType<E['on']>;

/** Runs a conditional write: true when it was made, false when its condition did not hold (other errors are thrown). */
export async function conditional(write: Promise<unknown>): Promise<boolean> {
  return (await unlessRefused(write)) !== REFUSED;
}

const REFUSED = Symbol('refused');

/** A conditional write's answer, or undefined when its condition did not hold (other errors are thrown). */
export async function orUndefined<R>(write: Promise<R>): Promise<R | undefined> {
  const r = await unlessRefused(write);
  return r === REFUSED ? undefined : r;
}

async function unlessRefused<R>(write: Promise<R>): Promise<R | typeof REFUSED> {
  try {
    return await write;
  } catch (err) {
    if (isConditionFailure(err)) return REFUSED;
    throw err;
  }
}

/** Items of one entity, made by `Entity.batchOf`, for a batch that may hold other entities' items too (`putAllOrThrow`). */
export interface BatchPuts {
  readonly t: TableRef;
  readonly items: readonly Attributes[];
}

/** A batch write left items unwritten after every try (some of the batch may have been written). */
export class UnwrittenItemsError extends Error {
  override readonly name = 'UnwrittenItemsError';
  constructor(readonly left: number) {
    super(`${left} items were left unwritten by the table`);
  }
}

/**
 * Writes the items of one or more entities of one table whole, unconditionally, in order, 25 a request
 * (BatchWriteItem); what the table leaves unprocessed is sent again, up to `tries` rounds, and then
 * UnwrittenItemsError is thrown: for new items whose writer must know they are all there.
 */
export async function putAllOrThrow(batches: readonly BatchPuts[], tries = 8): Promise<void> {
  const t = batches[0]?.t;
  if (!t) return;
  if (batches.some((b) => b.t.tableName !== t.tableName)) throw new Error('putAllOrThrow writes to one table');
  let puts = batches.flatMap((b) => b.items.map((Item) => ({ PutRequest: { Item } })));
  for (let round = 0; puts.length; round++) {
    if (round === tries) throw new UnwrittenItemsError(puts.length);
    const left: typeof puts = [];
    for (let i = 0; i < puts.length; i += 25) {
      const res = await t.doc.send(new BatchWriteCommand({ RequestItems: { [t.tableName]: puts.slice(i, i + 25) } }));
      left.push(...((res.UnprocessedItems?.[t.tableName] ?? []) as typeof puts));
    }
    puts = left;
  }
}

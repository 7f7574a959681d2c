import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DueMarker, ScheduleQuery, ScheduleRecord, ScheduleStore } from '../../ports/schedules';
import { isConditionFailure, type TableRef } from './client';
import { and, cond, or } from './conditions';
import { GSI1, keys, strip } from './keys';
import { bestEffort } from '../../log';
import { BadRequestError } from '../../domain/errors';
import { isId } from '../../domain/ids';

/** A due-index marker outlives its run_at by this long at most (TTL), whatever happens to its schedule. */
const DUE_MARKER_TTL_SEC = 7 * 86_400;
/** Items per BatchWriteItem (DynamoDB's limit), and tries of what the table leaves unprocessed. */
const BATCH_WRITE_ITEMS = 25;
const BATCH_WRITE_TRIES = 8;
/** Markers asked for per query page of the due index (a page stops at 1 MB anyway: ~10,000 markers). */
const DUE_PAGE = 1_000;

/**
 * Scheduled posts. A schedule item is keyed by its id (the dispatcher reads
 * it by id) and indexed per account by run_at (GET /api/schedule lists by date). Every transition is a single
 * conditional write on the status, so racing writers (two fires, fire vs cancel, fire vs PATCH) have one winner.
 *
 * A pending scheduled post (not a deferral) also has a due-index marker (keys.scheduleDue: run_at across accounts,
 * for the reconciliation sweep). The marker is written BEFORE the item or its new run_at, so every waiting schedule
 * is covered; it is deleted (best effort) after the item leaves `scheduled` or moves, and the sweep drops markers
 * whose schedule no longer waits at that time. A marker only says "look here": the item decides.
 */
export class DynamoScheduleStore implements ScheduleStore {
  constructor(private readonly t: TableRef) {}

  async create(s: ScheduleRecord) {
    // a recurring occurrence is written already `publishing`: indexed too, so a run that dies is taken over
    if ((s.status === 'scheduled' || s.status === 'publishing') && !s.deferred) await this.putDue(s.id, s.run_at, s.account_id);
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName,
        Item: { ...keys.schedule(s.id), ...keys.scheduleByAccount(s.account_id, s.run_at, s.id), ...s },
        // a schedule id is written once (a recurring occurrence's id is derived from its time: the claim)
        ConditionExpression: cond.absent,
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  /**
   * New schedules (fresh ids, so no condition is needed) and their markers, BatchWriteItem by 25 items: one call
   * for a single schedule instead of two, 40 for a bulk of 500 instead of 1,000. What the table leaves unprocessed
   * is sent again, up to BATCH_WRITE_TRIES rounds.
   */
  async createNew(records: ScheduleRecord[]) {
    let puts = records.flatMap((s) => [
      ...(s.status === 'scheduled' && !s.deferred ? [this.dueItem(s.id, s.run_at, s.account_id)] : []),
      { ...keys.schedule(s.id), ...keys.scheduleByAccount(s.account_id, s.run_at, s.id), ...s },
    ]).map((Item) => ({ PutRequest: { Item } }));
    for (let tries = 0; puts.length; tries++) {
      if (tries === BATCH_WRITE_TRIES) throw new Error(`${puts.length} schedule items were left unwritten by the table`);
      const left: typeof puts = [];
      for (let i = 0; i < puts.length; i += BATCH_WRITE_ITEMS) {
        const res = await this.t.doc.send(new BatchWriteCommand({ RequestItems: { [this.t.tableName]: puts.slice(i, i + BATCH_WRITE_ITEMS) } }));
        left.push(...((res.UnprocessedItems?.[this.t.tableName] ?? []) as typeof puts));
      }
      puts = left;
    }
  }

  async get(id: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.schedule(id), ConsistentRead: true }));
    return res.Item ? strip<ScheduleRecord>(res.Item) : undefined;
  }

  async list(accountId: string, q: ScheduleQuery) {
    const gsi1pk = keys.scheduleByAccount(accountId, '', '').gsi1pk;
    const lower = q.from ?? '';
    const upper = `${q.to ?? '9999'}#~`;
    if (lower > upper) return { items: [], cursor: undefined };
    const filters: string[] = [];
    const values: Record<string, unknown> = { ':pk': gsi1pk, ':lo': lower, ':hi': upper };
    const names: Record<string, string> = {};
    if (q.statuses?.length) {
      filters.push(`#status IN (${q.statuses.map((_, i) => `:st${i}`).join(', ')})`);
      q.statuses.forEach((s, i) => { values[`:st${i}`] = s; });
      names['#status'] = 'status';
    }
    if (q.brand_id) { filters.push('brand_id = :brand'); values[':brand'] = q.brand_id; }
    if (q.deferred !== undefined) {
      filters.push(q.deferred ? '#deferred = :deferred' : or('attribute_not_exists(#deferred)', '#deferred = :deferred'));
      values[':deferred'] = q.deferred;
      names['#deferred'] = 'deferred';
    }

    const items: ScheduleRecord[] = [];
    let start: Record<string, unknown> | undefined = q.cursor ? this.startKey(accountId, q.cursor) : undefined;
    let more = true;
    while (items.length < q.limit && more) {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, IndexName: GSI1, ExclusiveStartKey: start, Limit: Math.max(q.limit * 2, 50),
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :lo AND :hi',
        ...(filters.length ? { FilterExpression: and(...filters) } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      }));
      for (const i of res.Items ?? []) {
        if (items.length === q.limit) { more = true; break; }
        items.push(strip<ScheduleRecord>(i));
      }
      start = res.LastEvaluatedKey;
      more = !!start;
    }
    const last = items.at(-1);
    const full = items.length === q.limit;
    return { items, cursor: full && last ? Buffer.from(`${last.run_at}#${last.id}`).toString('base64url') : undefined };
  }

  /**
   * The index position of a cursor (run_at#id): the full key of that item, as DynamoDB's ExclusiveStartKey.
   * Anything that is not such a cursor is 400 invalid_cursor.
   */
  private startKey(accountId: string, cursor: string) {
    const text = Buffer.from(cursor, 'base64url').toString();
    const at = text.lastIndexOf('#');
    const runAt = text.slice(0, at);
    const id = text.slice(at + 1);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/.test(runAt) || !isId('sch', id)) {
      throw new BadRequestError('cursor is not a next_cursor from a previous page', { code: 'invalid_cursor' });
    }
    return { ...keys.schedule(id), ...keys.scheduleByAccount(accountId, runAt, id) };
  }

  async claim(id: string, dueBy: string, nowMs: number) {
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.schedule(id),
        UpdateExpression: 'SET #status = :publishing, claimed_at = :now, counted = :false, updated_at = :iso',
        // still scheduled (not canceled, not claimed by another fire) and due
        ConditionExpression: and(cond.present, '#status = :scheduled', 'run_at <= :due'),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':publishing': 'publishing', ':scheduled': 'scheduled', ':due': dueBy, ':now': nowMs, ':false': false, ':iso': new Date(nowMs).toISOString() },
        ReturnValues: 'ALL_OLD',
      }));
      // the due marker stays until the run records its post or ends, so the sweep can take over a run that dies
      return res.Attributes ? strip<ScheduleRecord>(res.Attributes) : undefined;
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async takeOver(id: string, claimedAt: number, nowMs: number) {
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.schedule(id),
        UpdateExpression: 'SET claimed_at = :now ADD takeovers :one',
        // the same stale claim, which never recorded a post
        ConditionExpression: and(cond.present, '#status = :publishing', 'claimed_at = :was', 'attribute_not_exists(post_id)'),
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':publishing': 'publishing', ':was': claimedAt, ':now': nowMs, ':one': 1 },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async updateScheduled(id: string, patch: Parameters<ScheduleStore['updateScheduled']>[1], nowIso: string) {
    const current = await this.get(id);
    if (!current) return undefined;
    // a field given as undefined is removed (e.g. the slot a moved schedule gave back)
    const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
    const removes = Object.entries(patch).filter(([, v]) => v === undefined).map(([k]) => k);
    const runAt = patch.run_at ?? current.run_at;
    const waiting = current.status === 'scheduled' && !current.deferred;
    const moved = runAt !== current.run_at;
    // the new time is indexed before the item moves there (a crash in between leaves an extra marker, not a gap)
    if (waiting && moved && patch.status === undefined) await this.putDue(id, runAt, current.account_id);
    const sets = [...entries.map(([k]) => `#${k} = :${k}`), 'updated_at = :now', 'gsi1sk = :g1sk'];
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.schedule(id),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.map((k) => `#${k}`).join(', ')}` : ''}`,
        // only a schedule that has not started (nor been canceled) changes
        ConditionExpression: and(cond.present, '#st = :scheduled'),
        ExpressionAttributeNames: { '#st': 'status', ...Object.fromEntries([...entries.map(([k]) => k), ...removes].map((k) => [`#${k}`, k])) },
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([k, v]) => [`:${k}`, v])), ':scheduled': 'scheduled', ':now': nowIso,
          ':g1sk': keys.scheduleByAccount(current.account_id, runAt, id).gsi1sk,
        },
        ReturnValues: 'ALL_NEW',
      }));
      const updated = res.Attributes ? strip<ScheduleRecord>(res.Attributes) : undefined;
      // the old time's marker goes once the item left it (moved, or no longer scheduled: canceled)
      if (updated && waiting && (moved || updated.status !== 'scheduled')) await this.dropDue(id, current.run_at);
      return updated;
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async overdue(before: string, limit: number) {
    const markers: { schedule_id: string; run_at: string }[] = [];
    for (const pk of keys.scheduleDueShards) {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, Limit: limit,
        KeyConditionExpression: 'pk = :pk AND sk <= :hi',
        ExpressionAttributeValues: { ':pk': pk, ':hi': `${before}#~` },
      }));
      for (const i of res.Items ?? []) markers.push({ schedule_id: i.schedule_id as string, run_at: i.run_at as string });
    }
    markers.sort((a, b) => (a.run_at === b.run_at ? a.schedule_id.localeCompare(b.schedule_id) : a.run_at < b.run_at ? -1 : 1));
    const out: ScheduleRecord[] = [];
    for (const m of markers.slice(0, limit)) {
      const s = await this.get(m.schedule_id);
      const waiting = s?.status === 'scheduled' || (s?.status === 'publishing' && !s.post_id);
      if (s && waiting && !s.deferred && s.run_at === m.run_at) out.push(s);
      else await this.dropDue(m.schedule_id, m.run_at); // gone, ran, canceled, or moved (its new time has its own)
    }
    return out;
  }

  /**
   * The markers of [from, to): the four shards queried at once, each page by page until `limit` markers in all.
   * Only the markers are read (no item): the fire worker's claim decides on each.
   */
  async due(from: string, to: string, limit: number) {
    const perShard = await Promise.all(keys.scheduleDueShards.map(async (pk) => {
      const found: DueMarker[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const res = await this.t.doc.send(new QueryCommand({
          TableName: this.t.tableName, Limit: Math.min(limit - found.length, DUE_PAGE),
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
          ExpressionAttributeValues: { ':pk': pk, ':lo': `${from}#`, ':hi': `${to}#` },
          ExclusiveStartKey: start,
        }));
        for (const i of res.Items ?? []) {
          found.push({ schedule_id: i.schedule_id as string, run_at: i.run_at as string, ...(typeof i.account_id === 'string' ? { account_id: i.account_id } : {}) });
        }
        start = res.LastEvaluatedKey;
      } while (start && found.length < limit);
      return found;
    }));
    return perShard.flat().sort((a, b) => (a.run_at === b.run_at ? a.schedule_id.localeCompare(b.schedule_id) : a.run_at < b.run_at ? -1 : 1)).slice(0, limit);
  }

  /** Indexes a waiting schedule at run_at (idempotent: the same key is the same marker). */
  private async putDue(id: string, runAt: string, accountId: string) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: this.dueItem(id, runAt, accountId) }));
  }

  /** The marker carries the account so the fan-out can queue each fire in the account's message group. */
  private dueItem(id: string, runAt: string, accountId: string) {
    return { ...keys.scheduleDue(id, runAt), schedule_id: id, run_at: runAt, account_id: accountId, expires_at: Math.floor(Date.parse(runAt) / 1000) + DUE_MARKER_TTL_SEC };
  }

  /** Drops a marker; best effort (a marker left behind is dropped by the sweep that meets it). */
  private async dropDue(id: string, runAt: string) {
    await bestEffort('due marker drop', this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: keys.scheduleDue(id, runAt) })), { schedule_id: id });
  }

  async settle(id: string, fields: { status: ScheduleRecord['status']; post_id?: string; error?: ScheduleRecord['error'] }, nowIso: string) {
    const sets = ['#status = :status', 'updated_at = :now', ...(fields.post_id ? ['post_id = :post'] : []), ...(fields.error ? ['#error = :error'] : [])];
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.schedule(id),
        UpdateExpression: 'SET ' + sets.join(', '),
        // only the run in progress records its outcome (once final, it stays)
        ConditionExpression: and(cond.present, '#status = :publishing'),
        ExpressionAttributeNames: { '#status': 'status', ...(fields.error ? { '#error': 'error' } : {}) },
        ExpressionAttributeValues: {
          ':status': fields.status, ':publishing': 'publishing', ':now': nowIso,
          ...(fields.post_id ? { ':post': fields.post_id } : {}), ...(fields.error ? { ':error': fields.error } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }));
      // a run that recorded its post, or ended, no longer needs the sweep
      const run = res.Attributes as { run_at?: string; post_id?: string; status?: string } | undefined;
      if (run?.run_at && (run.post_id || run.status !== 'publishing')) await this.dropDue(id, run.run_at);
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

import type { DueMarker, ScheduleQuery, ScheduleRecord, ScheduleStore } from '../../ports/schedules';
import type { TableRef } from './client';
import { and, cond, or } from './conditions';
import { conditional, entity, orUndefined, putAllOrThrow, type Bound, type Condition } from './entity';
import { keys } from './keys';
import { bestEffort } from '../../log';
import { BadRequestError } from '../../domain/errors';
import { isId } from '../../domain/ids';

/** A due-index marker outlives its run_at by this long at most (TTL), whatever happens to its schedule. */
const DUE_MARKER_TTL_SEC = 7 * 86_400;
/** Markers asked for per query page of the due index (a page stops at 1 MB anyway: ~10,000 markers). */
const DUE_PAGE = 1_000;

const scheduleEntity = entity({
  key: keys.schedule,
  keyOf: (s: ScheduleRecord) => keys.schedule(s.id),
  indexOf: (s: ScheduleRecord) => keys.scheduleByAccount(s.account_id, s.run_at, s.id),
});

/**
 * A waiting schedule's marker on the due index. It carries the account so the fan-out can queue each fire in the
 * account's message group (markers written before that carry none). Its queries are eventually consistent: a marker
 * only says "look here", and the item, read strongly, decides.
 */
const markerEntity = entity({
  key: keys.scheduleDue,
  keyOf: (m: DueMarker) => keys.scheduleDue(m.schedule_id, m.run_at),
  extraOf: (m: DueMarker) => ({ expires_at: Math.floor(Date.parse(m.run_at) / 1000) + DUE_MARKER_TTL_SEC }),
  hidden: ['expires_at'],
  consistentRead: false,
});

const STATUS = { '#status': 'status' };
const byRunAt = (a: DueMarker, b: DueMarker) => (a.run_at === b.run_at ? a.schedule_id.localeCompare(b.schedule_id) : a.run_at < b.run_at ? -1 : 1);

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
  private readonly schedules: Bound<typeof scheduleEntity>;
  private readonly markers: Bound<typeof markerEntity>;
  constructor(t: TableRef) {
    this.schedules = scheduleEntity.on(t);
    this.markers = markerEntity.on(t);
  }

  async create(s: ScheduleRecord) {
    // a recurring occurrence is written already `publishing`: indexed too, so a run that dies is taken over
    if ((s.status === 'scheduled' || s.status === 'publishing') && !s.deferred) await this.putDue(s.id, s.run_at, s.account_id);
    // a schedule id is written once (a recurring occurrence's id is derived from its time: the claim)
    return conditional(this.schedules.put(s, { if: cond.absent }));
  }

  /**
   * New schedules (fresh ids, so no condition is needed) and their markers, BatchWriteItem by 25 items: one call
   * for a single schedule instead of two, 40 for a bulk of 500 instead of 1,000. The markers go first (a schedule
   * is never written before its marker's request); what the table leaves unprocessed is sent again, and what is
   * still left after that is an error (putAllOrThrow).
   */
  async createNew(records: ScheduleRecord[]) {
    const waiting = records.filter((s) => s.status === 'scheduled' && !s.deferred);
    await putAllOrThrow([
      this.markers.batchOf(waiting.map((s) => ({ schedule_id: s.id, run_at: s.run_at, account_id: s.account_id }))),
      this.schedules.batchOf(records),
    ]);
  }

  async get(id: string) {
    return this.schedules.get(id);
  }

  async list(accountId: string, q: ScheduleQuery) {
    const gsi1pk = keys.scheduleByAccount(accountId, '', '').gsi1pk;
    const lower = q.from ?? '';
    const upper = `${q.to ?? '9999'}#~`;
    if (lower > upper) return { items: [], cursor: undefined };
    const filters: string[] = [];
    const values: Record<string, unknown> = {};
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
    const filter: Condition | undefined = filters.length
      ? { if: and(...filters), values, ...(Object.keys(names).length ? { names } : {}) }
      : undefined;

    const items: ScheduleRecord[] = [];
    let start: Record<string, unknown> | undefined = q.cursor ? this.startKey(accountId, q.cursor) : undefined;
    let more = true;
    while (items.length < q.limit && more) {
      const page = await this.schedules.page({ gsi1pk, between: [lower, upper] }, { ...(filter ? { filter } : {}), limit: Math.max(q.limit * 2, 50) }, start);
      for (const s of page.items) {
        if (items.length === q.limit) break;
        items.push(s);
      }
      start = page.next;
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
    // the due marker stays until the run records its post or ends, so the sweep can take over a run that dies
    return orUndefined(this.schedules.updateAndReadBefore([id], {
      set: { status: 'publishing', claimed_at: nowMs, counted: false, updated_at: new Date(nowMs).toISOString() },
    }, {
      // still scheduled (not canceled, not claimed by another fire) and due
      if: and(cond.present, '#status = :scheduled', 'run_at <= :due'),
      names: STATUS,
      values: { ':scheduled': 'scheduled', ':due': dueBy },
    }));
  }

  async takeOver(id: string, claimedAt: number, nowMs: number) {
    return conditional(this.schedules.update([id], { set: { claimed_at: nowMs }, add: { takeovers: 1 } }, {
      // the same stale claim, which never recorded a post
      if: and(cond.present, '#status = :publishing', 'claimed_at = :was', 'attribute_not_exists(post_id)'),
      names: STATUS,
      values: { ':publishing': 'publishing', ':was': claimedAt },
    }));
  }

  async updateScheduled(id: string, patch: Parameters<ScheduleStore['updateScheduled']>[1], nowIso: string) {
    const current = await this.get(id);
    if (!current) return undefined;
    // a field given as undefined is removed (e.g. the slot a moved schedule gave back)
    const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const remove = Object.entries(patch).filter(([, v]) => v === undefined).map(([k]) => k);
    const runAt = patch.run_at ?? current.run_at;
    const waiting = current.status === 'scheduled' && !current.deferred;
    const moved = runAt !== current.run_at;
    // the new time is indexed before the item moves there (a crash in between leaves an extra marker, not a gap)
    if (waiting && moved && patch.status === undefined) await this.putDue(id, runAt, current.account_id);
    const updated = await orUndefined(this.schedules.updateAndRead([id], {
      set: { ...set, updated_at: nowIso, gsi1sk: keys.scheduleByAccount(current.account_id, runAt, id).gsi1sk }, remove,
    }, {
      // only a schedule that has not started (nor been canceled) changes
      if: and(cond.present, '#st = :scheduled'),
      names: { '#st': 'status' },
      values: { ':scheduled': 'scheduled' },
    }));
    // the old time's marker goes once the item left it (moved, or no longer scheduled: canceled)
    if (updated && waiting && (moved || updated.status !== 'scheduled')) await this.dropDue(id, current.run_at);
    return updated;
  }

  async overdue(before: string, limit: number) {
    const markers: DueMarker[] = [];
    for (const pk of keys.scheduleDueShards) markers.push(...(await this.markers.page({ pk, upTo: `${before}#~` }, { limit })).items);
    markers.sort(byRunAt);
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
        const page = await this.markers.page({ pk, between: [`${from}#`, `${to}#`] }, { limit: Math.min(limit - found.length, DUE_PAGE) }, start);
        found.push(...page.items);
        start = page.next;
      } while (start && found.length < limit);
      return found;
    }));
    return perShard.flat().sort(byRunAt).slice(0, limit);
  }

  /** Indexes a waiting schedule at run_at (idempotent: the same key is the same marker). */
  private async putDue(id: string, runAt: string, accountId: string) {
    await this.markers.put({ schedule_id: id, run_at: runAt, account_id: accountId });
  }

  /** Drops a marker; best effort (a marker left behind is dropped by the sweep that meets it). */
  private async dropDue(id: string, runAt: string) {
    await bestEffort('due marker drop', this.markers.delete([id, runAt]), { schedule_id: id });
  }

  async settle(id: string, fields: { status: ScheduleRecord['status']; post_id?: string; error?: ScheduleRecord['error'] }, nowIso: string) {
    const run = await orUndefined(this.schedules.updateAndRead([id], {
      set: { status: fields.status, updated_at: nowIso, ...(fields.post_id ? { post_id: fields.post_id } : {}), ...(fields.error ? { error: fields.error } : {}) },
    }, {
      // only the run in progress records its outcome (once final, it stays)
      if: and(cond.present, '#status = :publishing'),
      names: STATUS,
      values: { ':publishing': 'publishing' },
    }));
    if (!run) return false;
    // a run that recorded its post, or ended, no longer needs the sweep
    if (run.run_at && (run.post_id || run.status !== 'publishing')) await this.dropDue(id, run.run_at);
    return true;
  }
}

import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { NetworkRecord } from '../../ports/publishing';
import { FINAL_STATUSES, type ScheduleRecord, type ScheduleStatus } from '../../ports/schedules';
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../domain/errors';
import { isId } from '../../domain/ids';
import { statusOf } from '../network-results';
import { PostRequestSchema, type PostRequest } from '../publish/request';
import { checkNow, type CheckDeps } from './check';
import { SlotFinder } from './slots';
import { iso, parseRunAt, releaseScheduled } from './common';
import type { SchedulePatch } from './request';
import { armIfBeforeNextFanOut } from './due-fan-out';

/** The outcome of a run from its post's networks: publishing while any is still on its way. */
export function outcomeOf(networks: NetworkRecord[]): ScheduleStatus {
  if (networks.length === 0) return 'failed';
  if (networks.some((n) => n.state !== 'done')) return 'publishing';
  const ok = networks.filter((n) => n.result?.ok).length;
  return ok === networks.length ? 'published' : ok === 0 ? 'failed' : 'partially_published';
}

/** The networks of the run: all of its post's, or the one network of a deferral. */
async function runNetworks(deps: Pick<Deps, 'posts'>, s: ScheduleRecord): Promise<NetworkRecord[] | undefined> {
  if (!s.post_id) return undefined;
  const found = await deps.posts.get(s.post_id);
  if (!found) return undefined;
  return s.deferred ? found.networks.filter((n) => s.platforms.includes(n.platform)) : found.networks;
}

/**
 * A run is `publishing` until its networks are done; the outcome is written back the first time someone reads it
 * after that (a conditional write from publishing, so it happens once), so the stored status converges without the
 * workers knowing about schedules. A change or cancel only looks (`write: false`): a refused change writes nothing.
 */
async function settled(deps: Pick<Deps, 'posts' | 'schedules' | 'clock'>, s: ScheduleRecord, networks?: NetworkRecord[], write = true): Promise<ScheduleRecord> {
  if (s.status !== 'publishing' || !s.post_id) return s;
  const nets = networks ?? await runNetworks(deps, s);
  if (!nets) return s;
  const status = outcomeOf(nets);
  if (status === 'publishing') return s;
  if (!write) return { ...s, status };
  const now = iso(deps.clock.now());
  if (await deps.schedules.settle(s.id, { status }, now)) return { ...s, status, updated_at: now };
  return (await deps.schedules.get(s.id)) ?? { ...s, status };
}

export function scheduleView(s: ScheduleRecord) {
  const req = (s.request ?? {}) as PostRequest;
  return {
    schedule_id: s.id, status: s.status, run_at: s.run_at, brand_id: s.brand_id, platforms: s.platforms,
    deferred: s.deferred === true, next_slot: s.slot === true,
    ...(s.recurring_id ? { recurring_id: s.recurring_id, occurrence: s.occurrence } : {}),
    post_id: s.post_id ?? null,
    text: typeof req.text === 'string' ? req.text : null, title: req.title ?? null,
    ...(s.error ? { error: s.error.error, code: s.error.code } : {}),
    created_at: s.created_at, updated_at: s.updated_at, ...(s.canceled_at ? { canceled_at: s.canceled_at } : {}),
  };
}

async function owned(deps: Pick<Deps, 'schedules'>, accountId: string, id: string): Promise<ScheduleRecord> {
  const s = isId('sch', id) ? await deps.schedules.get(id) : undefined;
  if (!s || s.account_id !== accountId) throw new NotFoundError('No such schedule');
  return s;
}

/** GET /api/schedule/{id}: the schedule, its request, and once it ran, each network's result. */
export async function getSchedule(deps: Pick<Deps, 'schedules' | 'posts' | 'clock'>, accountId: string, id: string) {
  const found = await owned(deps, accountId, id);
  const networks = await runNetworks(deps, found);
  const s = await settled(deps, found, networks);
  return {
    ...scheduleView(s),
    request: s.request ?? null,
    results: networks ? networks.map((n) => ({ ...(n.result ?? { platform: n.platform, ok: false }), status: n.result?.status ?? statusOf(n.state) })) : [],
  };
}

export interface ScheduleListQuery {
  status?: ScheduleStatus;
  brand_id?: string;
  from?: string;
  to?: string;
  deferred?: boolean;
  limit: number;
  cursor?: string;
}

const YEAR_10000 = Date.UTC(10000, 0, 1);

/**
 * GET /api/schedule: by run_at ascending, filtered by status, brand, run_at range (ISO 8601 with offset) and
 * deferred; `cursor` pages on. A filter on a final status also looks at runs still marked publishing, settling them.
 */
export async function listSchedules(deps: Pick<Deps, 'schedules' | 'posts' | 'clock'>, accountId: string, q: ScheduleListQuery) {
  const bound = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const ms = Date.parse(v);
    if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(v) || Number.isNaN(ms)) throw new BadRequestError(`${name} must be ISO 8601 with a UTC offset`, { code: 'invalid_request' });
    if (ms < 0 || ms >= YEAR_10000) throw new BadRequestError(`${name} must be between the years 1970 and 9999`, { code: 'invalid_request' });
    return new Date(ms).toISOString();
  };
  const widened = q.status && FINAL_STATUSES.includes(q.status) && q.status !== 'canceled';
  const page = await deps.schedules.list(accountId, {
    statuses: q.status ? (widened ? [q.status, 'publishing'] : [q.status]) : undefined,
    brand_id: q.brand_id, deferred: q.deferred, from: bound(q.from, 'from'), to: bound(q.to, 'to'), limit: q.limit, cursor: q.cursor,
  });
  const items = await Promise.all(page.items.map((s) => settled(deps, s)));
  return {
    schedules: items.filter((s) => !q.status || s.status === q.status).map(scheduleView),
    next_cursor: page.cursor ?? null,
  };
}

function notChangeable(s: ScheduleRecord, verb: 'changed' | 'canceled'): AppError {
  if (s.deferred) {
    return new ConflictError(`This is a network's rate-limit deferral, run by the service; it cannot be ${verb}`, { code: 'schedule_deferred', details: { status: s.status } });
  }
  if (s.status === 'publishing') {
    return new ConflictError(`This scheduled post is publishing now; it can no longer be ${verb}`, { code: 'schedule_publishing', details: { status: s.status } });
  }
  return new ConflictError(`This scheduled post is ${s.status}; it can no longer be ${verb}`, { code: 'schedule_not_pending', details: { status: s.status } });
}

/**
 * PATCH /api/schedule/{id}: a new run_at and/or new post fields (top-level fields replace the stored ones;
 * platform and platforms replace each other).
 * 1. Only a `scheduled`, non-deferred schedule changes (409 otherwise).
 * 2. New content is checked now like a new schedule (checkNow); a new run_at like POST /api/schedule
 *    (next_slot takes the brand's next free slot).
 * 3. Write the item and its due marker (conditional on still being scheduled: a fire that won the race makes this a
 *    409). Nothing else moves: the per-minute fan-out finds the new run_at in the due index (a run_at before the next
 *    fan-out gets a one-time alarm too); an alarm of the previous release, or a fire message already queued for the
 *    old time, finds the item not due and does nothing.
 * 4. Give back the slot the old run_at held.
 */
export async function patchSchedule(deps: CheckDeps & Pick<Deps, 'posts' | 'scheduler' | 'schedules' | 'slots'>, account: Account, id: string, patch: SchedulePatch) {
  const current = await settled(deps, await owned(deps, account.id, id), undefined, false);
  if (current.status !== 'scheduled' || current.deferred) throw notChangeable(current, 'changed');
  const now = deps.clock.now();
  const { run_at, ...fields } = patch;
  const contentChanged = Object.values(fields).some((v) => v !== undefined);
  if (!contentChanged && run_at === undefined) throw new BadRequestError('Send run_at and/or post fields to change');

  let request = PostRequestSchema.parse(current.request ?? {});
  let brand;
  if (contentChanged) {
    const base: Record<string, unknown> = { ...request };
    if (fields.platform !== undefined || fields.platforms !== undefined) { delete base.platform; delete base.platforms; }
    if (fields.brand_id === undefined) base.brand_id = current.brand_id;
    const checked = await checkNow(deps, account, PostRequestSchema.parse({ ...base, ...stripUndefined(fields) }));
    request = checked.request;
    brand = checked.brand;
  } else {
    brand = (await deps.brands.get(account.id, current.brand_id)) ?? undefined;
  }

  const upd: Parameters<Deps['schedules']['updateScheduled']>[1] = {};
  if (contentChanged) Object.assign(upd, { request, platforms: validPlatforms(request), brand_id: brand!.id });
  let newSlot: string | undefined;
  const brandChanged = brand !== undefined && brand.id !== current.brand_id;
  if (run_at !== undefined || brandChanged) {
    const slots = new SlotFinder(deps, now);
    const target = run_at !== undefined ? parseRunAt(run_at, now) : current.slot ? { kind: 'next_slot' as const } : { kind: 'at' as const, at: new Date(current.run_at) };
    if (!brand) throw new NotFoundError('No such brand', { code: 'brand_not_found' });
    if (target.kind === 'next_slot') {
      const at = await slots.take(brand, id);
      newSlot = at.toISOString();
      Object.assign(upd, { run_at: newSlot, slot: true, slot_claim: newSlot });
    } else {
      newSlot = await slots.takeIfSlot(brand, target.at, id);
      Object.assign(upd, { run_at: target.at.toISOString(), slot: undefined, slot_claim: newSlot });
    }
  }

  const updated = await deps.schedules.updateScheduled(id, upd, iso(now));
  if (!updated) {
    if (newSlot) await deps.slots.release(brand!.id, newSlot, id);
    throw notChangeable((await deps.schedules.get(id)) ?? current, 'changed');
  }
  if (updated.run_at !== current.run_at) await armIfBeforeNextFanOut(deps, updated, now);
  if (current.slot_claim && ('slot_claim' in upd) && current.slot_claim !== newSlot) await deps.slots.release(current.brand_id, current.slot_claim, id);
  return scheduleView(updated);
}

const stripUndefined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const validPlatforms = (r: PostRequest) => (r.platforms ?? [r.platform!]) as ScheduleRecord['platforms'];

/**
 * DELETE /api/schedule/{id}: cancels, in the order that cannot publish a canceled post:
 * 1. Mark the item canceled and drop its due marker (conditional on `scheduled`: one that is publishing or ran is a
 *    409). From here on a fire message, or an alarm of the previous release, finds it canceled and does nothing.
 * 2. Give back the place on the plan's counter and the brand slot.
 */
export async function cancelSchedule(deps: Pick<Deps, 'clock' | 'counters' | 'posts' | 'schedules' | 'slots'>, accountId: string, id: string) {
  const current = await settled(deps, await owned(deps, accountId, id), undefined, false);
  if (current.status !== 'scheduled' || current.deferred) throw notChangeable(current, 'canceled');
  const now = iso(deps.clock.now());
  const canceled = await deps.schedules.updateScheduled(id, { status: 'canceled', canceled_at: now, counted: false }, now);
  if (!canceled) throw notChangeable((await deps.schedules.get(id)) ?? current, 'canceled');
  if (current.counted) await releaseScheduled(deps, accountId, id);
  if (current.slot_claim) await deps.slots.release(current.brand_id, current.slot_claim, id);
  return scheduleView(canceled);
}

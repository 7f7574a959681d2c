import { DateTime } from 'luxon';
import type { Deps } from '../deps';
import type { Account, Brand } from '../../ports/store';
import type { PlatformName } from '../../domain/platforms';
import { BadRequestError, NotFoundError } from '../../domain/errors';
import { slotInstants, slotsOfDay } from '../../domain/slots';
import { activityPages } from './activity';
import { listSchedules, patchSchedule } from '../schedule/manage';
import { nextRunOf } from '../schedule/recurring';
import type { CheckDeps } from '../schedule/check';

/** One thing on the calendar: a post waiting to run, a coming occurrence of a recurring post, or a post made. */
export interface CalendarItem {
  kind: 'scheduled' | 'recurring' | 'post';
  /** When it runs or ran (ISO UTC) and that time on the brand's clock (HH:mm). */
  at: string;
  time: string;
  text: string;
  platforms: PlatformName[];
  /** scheduled, publishing; for a post: published, partially_published, failed, waiting. */
  status: string;
  schedule_id?: string;
  recurring_id?: string;
  post_id?: string;
  /** A scheduled post that can still be moved (not a network's rate-limit deferral, not publishing). */
  movable: boolean;
}

export interface CalendarDay {
  /** YYYY-MM-DD on the brand's clock. */
  date: string;
  inRange: boolean;
  today: boolean;
  items: CalendarItem[];
  /** The brand's posting slots that day still to come, and whether a scheduled post holds each. */
  slots: Array<{ at: string; time: string; taken: boolean }>;
}

export type CalendarView = 'week' | 'month';

/** How far ahead the move form offers the brand's free slots, and how many at most. */
const MOVE_DAYS = 14;
const MOVE_TARGETS = 40;
/** Limits per view: the calendar shows at most this many schedules, posts and occurrences of each recurring post. */
const MAX_SCHEDULES = 1_000;
const MAX_POSTS = 2_000;
const MAX_OCCURRENCES = 200;

function outcome(statuses: string[]): string {
  if (statuses.some((s) => ['queued', 'sending', 'scheduled', 'processing', 'unknown'].includes(s))) return 'waiting';
  const ok = statuses.filter((s) => s === 'published' || s === 'deleted').length;
  return ok === statuses.length ? 'published' : ok === 0 ? 'failed' : 'partially_published';
}

/**
 * The Calendar page of one brand: a week (Monday first) or a month (whole weeks) on the brand's clock, with its
 * scheduled posts, the coming occurrences of its recurring posts, the posts it made, and its posting slots (free or
 * taken); plus the free slots a scheduled post can be moved to. `date` (YYYY-MM-DD) picks the week or month shown.
 */
export async function calendarPage(deps: Pick<Deps, 'brands' | 'schedules' | 'recurring' | 'slots' | 'posts' | 'approvals' | 'clock'>, account: Account, q: { brand?: string; view?: CalendarView; date?: string }) {
  const brands = await deps.brands.list(account.id);
  const brand = (q.brand ? brands.find((b) => b.id === q.brand) : undefined) ?? brands[0];
  if (!brand) throw new NotFoundError('No such brand', { code: 'brand_not_found' });
  if (q.brand && brand.id !== q.brand) throw new NotFoundError('No such brand', { code: 'brand_not_found' });
  const zone = brand.timezone;
  const now = deps.clock.now();
  const view: CalendarView = q.view ?? 'week';
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  const anchor = q.date ? DateTime.fromISO(q.date, { zone }) : today;
  if (!anchor.isValid) throw new BadRequestError('date must be a real date (YYYY-MM-DD)', { code: 'invalid_request' });
  const rangeStart = view === 'week' ? anchor.startOf('week') : anchor.startOf('month');
  const rangeEnd = view === 'week' ? rangeStart.plus({ weeks: 1 }) : rangeStart.plus({ months: 1 });
  const gridStart = rangeStart.startOf('week');
  const gridEnd = rangeEnd.minus({ days: 1 }).endOf('week').plus({ milliseconds: 1 });
  const fromIso = gridStart.toUTC().toISO()!;
  const toIso = gridEnd.toUTC().toISO()!;

  const [items, taken] = await Promise.all([
    itemsOf(deps, account, brand, gridStart.toMillis(), gridEnd.toMillis(), now),
    deps.slots.taken(brand.id, fromIso, toIso, Math.floor(now / 1000)),
  ]);
  const days: CalendarDay[] = [];
  for (let d = gridStart; d < gridEnd; d = d.plus({ days: 1 })) {
    const date = d.toISODate()!;
    days.push({
      date, inRange: d >= rangeStart && d < rangeEnd, today: d.hasSame(today, 'day'),
      items: items.filter((i) => DateTime.fromISO(i.at, { zone }).toISODate() === date),
      slots: slotsOfDay(zone, d, brand.slots).filter((s) => s.toMillis() > now).map((s) => ({ at: s.toUTC().toISO()!, time: s.toFormat('HH:mm'), taken: taken.has(s.toUTC().toISO()!) })),
    });
  }
  const weeks: CalendarDay[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));

  const takenAhead = await deps.slots.taken(brand.id, new Date(now).toISOString(), new Date(now + MOVE_DAYS * 86_400_000).toISOString(), Math.floor(now / 1000));
  const moveTargets: Array<{ at: string; label: string }> = [];
  for (const at of slotInstants(zone, brand.slots, now, MOVE_DAYS)) {
    if (moveTargets.length >= MOVE_TARGETS || at.getTime() > now + MOVE_DAYS * 86_400_000) break;
    if (takenAhead.has(at.toISOString())) continue;
    moveTargets.push({ at: at.toISOString(), label: DateTime.fromJSDate(at, { zone }).toFormat('ccc d LLL, HH:mm') });
  }
  const step = view === 'week' ? { weeks: 1 } : { months: 1 };
  return {
    brand, brands, view, timezone: zone, weeks, moveTargets,
    title: view === 'week' ? `Week of ${rangeStart.toFormat('d LLLL yyyy')}` : rangeStart.toFormat('LLLL yyyy'),
    date: rangeStart.toISODate()!, prev: rangeStart.minus(step).toISODate()!, next: rangeStart.plus(step).toISODate()!, today: today.toISODate()!,
  };
}

/** The brand's schedules, coming recurring occurrences and posts made between `fromMs` and `toMs`, by time. */
async function itemsOf(deps: Pick<Deps, 'schedules' | 'recurring' | 'posts' | 'approvals' | 'clock'>, account: Account, brand: Brand, fromMs: number, toMs: number, now: number): Promise<CalendarItem[]> {
  const zone = brand.timezone;
  const time = (iso: string) => DateTime.fromISO(iso, { zone }).toFormat('HH:mm');
  const items: CalendarItem[] = [];

  // waiting posts: scheduled (movable unless a deferral) and publishing; those that ran show as the posts they made
  let cursor: string | undefined;
  let seen = 0;
  do {
    const page = await listSchedules(deps, account.id, { brand_id: brand.id, from: new Date(fromMs).toISOString(), to: new Date(toMs - 1).toISOString(), limit: 100, cursor });
    for (const s of page.schedules) {
      if (s.status !== 'scheduled' && !(s.status === 'publishing' && !s.post_id)) continue;
      items.push({ kind: 'scheduled', at: s.run_at, time: time(s.run_at), text: s.text ?? s.title ?? '', platforms: s.platforms, status: s.status, schedule_id: s.schedule_id, ...(s.recurring_id ? { recurring_id: s.recurring_id } : {}), movable: s.status === 'scheduled' && !s.deferred && !s.recurring_id });
    }
    seen += page.schedules.length;
    cursor = page.next_cursor ?? undefined;
  } while (cursor && seen < MAX_SCHEDULES);

  // coming occurrences of the brand's active recurring posts
  for (const r of (await deps.recurring.list(account.id)).filter((r) => r.brand_id === brand.id && r.status === 'active')) {
    let after = Math.max(now, fromMs - 1);
    for (let i = 0; i < MAX_OCCURRENCES; i++) {
      const next = nextRunOf(r, after);
      if (!next || next.getTime() >= toMs) break;
      const at = next.toISOString();
      if (!items.some((x) => x.recurring_id === r.id && x.at === at)) {
        const text = r.request.text;
        items.push({ kind: 'recurring', at, time: time(at), text: typeof text === 'string' ? text : '', platforms: r.platforms, status: 'recurring', recurring_id: r.id, movable: false });
      }
      after = next.getTime();
    }
  }

  // posts the brand made
  const fromDay = new Date(fromMs).toISOString().slice(0, 10);
  const toDay = new Date(toMs - 1).toISOString().slice(0, 10);
  let posts = 0;
  for await (const batch of activityPages(deps, account.id, { brand_id: brand.id, from: fromDay, to: toDay })) {
    for (const p of batch.posts) {
      const at = Date.parse(p.created_at);
      if (at < fromMs || at >= toMs) continue;
      items.push({ kind: 'post', at: p.created_at, time: time(p.created_at), text: p.text, platforms: p.networks.map((n) => n.platform), status: outcome(p.networks.map((n) => n.status)), post_id: p.id, movable: false });
    }
    posts += batch.posts.length;
    if (posts >= MAX_POSTS) break;
  }
  return items.sort((a, b) => a.at.localeCompare(b.at));
}

/**
 * Moves a scheduled post to another time from the calendar: to one of the brand's slots (an instant), or to a
 * wall-clock time on the brand's clock (`YYYY-MM-DDTHH:mm`, as a datetime-local field sends it). The change is
 * PATCH /api/schedule/{id}'s own use case with a new run_at, so every rule of a move holds (only a scheduled post,
 * a time in the future, the slot claims moved).
 */
export async function moveScheduled(deps: CheckDeps & Pick<Deps, 'posts' | 'scheduler' | 'schedules' | 'slots'>, account: Account, scheduleId: string, target: { slot?: string; local?: string }) {
  let runAt: string;
  if (target.slot) runAt = target.slot;
  else if (target.local) {
    const s = await deps.schedules.get(scheduleId);
    const brand = s && s.account_id === account.id ? await deps.brands.get(account.id, s.brand_id) : undefined;
    const at = DateTime.fromISO(target.local, { zone: brand?.timezone ?? 'UTC' });
    if (!at.isValid) throw new BadRequestError('The new time is not a real date and time', { code: 'invalid_run_at' });
    runAt = at.toISO({ suppressMilliseconds: true })!;
  } else {
    throw new BadRequestError('Pick a slot or a time to move the post to', { code: 'invalid_run_at' });
  }
  return patchSchedule(deps, account, scheduleId, { run_at: runAt });
}

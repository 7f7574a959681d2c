import { DateTime } from 'luxon';
import type { Deps } from '../deps';
import type { Account, Brand } from '../../ports/store';
import type { WeekInput, DraftView } from '../../api/ai-schemas';
import { BadRequestError } from '../../domain/errors';
import { slotInstants } from '../../domain/slots';
import { hit } from '../rate-limit';
import { getBrand } from '../brands';
import type { Actor } from '../auth';
import { checkBrandAllowed, loadGuardrails } from '../guardrails/enforce';
import { resolveBrand } from '../publish/brand';
import { scheduleRows, type ScheduleRowsDeps } from '../schedule/create';
import { networkBrief } from './brief';
import { checkPlatforms, draftWithAllowance, shapeOf } from './run';
import { WEEK_RATE } from './quota';

export const WEEK_DAYS = 7;
/** How far ahead the week's days are looked for (days without a free slot are skipped). */
const SEARCH_DAYS = 60;

export interface WeekSlot { day: number; date: string; at: Date }

/** `start`: a date in the brand's timezone (its beginning) or an instant with a UTC offset; never before now. */
export function parseStart(start: string | undefined, zone: string, nowMs: number): number {
  if (start === undefined) return nowMs;
  let at: DateTime;
  if (/^\d{4}-\d{2}-\d{2}$/.test(start)) at = DateTime.fromISO(start, { zone }).startOf('day');
  else if (/(?:Z|[+-]\d{2}:?\d{2})$/i.test(start)) at = DateTime.fromISO(start, { setZone: true });
  else throw new BadRequestError('start must be a date (YYYY-MM-DD) or an instant with a UTC offset (2026-12-01T09:00:00+01:00)', { code: 'invalid_start' });
  if (!at.isValid) throw new BadRequestError(`start is not a valid date: ${start}`, { code: 'invalid_start' });
  return Math.max(nowMs, at.toMillis());
}

/**
 * The week's seven posting times: on each of the next seven local days (brand timezone, DST-aware) that has a free
 * slot after `fromMs`, the first such slot. Slots already held by a scheduled post of the brand are skipped.
 */
export async function weekSlots(deps: Pick<Deps, 'slots'>, brand: Brand, fromMs: number, nowMs: number): Promise<WeekSlot[]> {
  const until = fromMs + SEARCH_DAYS * 86_400_000;
  const taken = await deps.slots.taken(brand.id, new Date(fromMs).toISOString(), new Date(until).toISOString(), Math.floor(nowMs / 1000));
  const out: WeekSlot[] = [];
  for (const at of slotInstants(brand.timezone, brand.slots, fromMs, SEARCH_DAYS)) {
    const date = DateTime.fromJSDate(at, { zone: brand.timezone }).toISODate()!;
    if (out.some((s) => s.date === date) || taken.has(at.toISOString())) continue;
    out.push({ day: out.length + 1, date, at });
    if (out.length === WEEK_DAYS) break;
  }
  if (out.length < WEEK_DAYS) {
    throw new BadRequestError(`Brand ${brand.name} has free posting slots on ${out.length} of the next days only; add slots with PATCH /api/brands/{id}`, { code: 'no_free_slot' });
  }
  return out;
}

/** The publishable fields of a draft (per_platform of POST /api/schedule). */
function postable(d: DraftView) {
  return {
    text: d.text,
    ...(d.title !== undefined ? { title: d.title } : {}),
    ...(d.thread ? { thread: d.thread } : {}),
    ...(d.first_comment !== undefined ? { first_comment: d.first_comment } : {}),
  };
}

/**
 * POST /api/week (and the MCP tool plan_week): seven days of drafts, one post a day placed on the brand's slots.
 * Order: input (networks, brand, start, slots) → 3 an hour per account → one of the plan's AI drafts a day (a week
 * counts one) → the provider. With `schedule: true` each day becomes a scheduled post through the schedule use case
 * (plan caps and the calling key's guardrails apply, `actor`), answered per day like bulk rows.
 */
export async function planWeek(deps: ScheduleRowsDeps & Pick<Deps, 'ai'>, account: Account, input: WeekInput, actor?: Actor) {
  const platforms = checkPlatforms(input.platforms);
  const brand = input.brand_id !== undefined ? await getBrand(deps, account.id, input.brand_id) : (await resolveBrand(deps, account, platforms)).brand;
  // a key that may not post to this brand is refused before anything is spent (its rows could never be scheduled)
  if (input.schedule) checkBrandAllowed(await loadGuardrails(deps, account.id, actor), brand.id);
  const now = deps.clock.now();
  const slots = await weekSlots(deps, brand, parseStart(input.start, brand.timezone, now), now);
  await hit(deps, `week#acc#${account.id}`, WEEK_RATE);
  const shape = shapeOf(input.media);
  const brief = {
    prompt: input.prompt, tone: input.tone, language: input.language, link: input.link,
    networks: platforms.map((p) => networkBrief(p, deps.networkLimits.textRule(p), shape)), days: WEEK_DAYS,
  };
  const run = await draftWithAllowance(deps, account, brief, shape);
  const days = slots.map((s, i) => ({ day: s.day, date: s.date, run_at: s.at.toISOString(), drafts: run.days[i] }));

  let scheduled: { accepted: number; rejected: number } | undefined;
  const reports = new Map<number, Record<string, unknown>>();
  if (input.schedule) {
    const rows = days.map((d) => ({
      row: d.day,
      fields: {
        platforms, brand_id: brand.id, run_at: d.run_at,
        per_platform: Object.fromEntries(Object.entries(d.drafts).map(([p, draft]) => [p, postable(draft)])),
        ...(input.media?.length ? { media: input.media } : {}),
      },
    }));
    const outcomes = await scheduleRows(deps, account, rows, { actor });
    for (const o of outcomes) {
      reports.set(o.row, o.ok
        ? { ok: true, schedule_id: o.schedule.id, run_at: o.schedule.run_at, status: o.schedule.status }
        : { ok: false, code: o.error.code, error: o.error.message, ...(typeof o.error.details.upgrade_url === 'string' ? { upgrade_url: o.error.details.upgrade_url } : {}) });
    }
    const accepted = outcomes.filter((o) => o.ok).length;
    scheduled = { accepted, rejected: outcomes.length - accepted };
  }
  return {
    brand_id: brand.id,
    timezone: brand.timezone,
    days: days.map((d) => ({ ...d, ...(reports.has(d.day) ? { schedule: reports.get(d.day) } : {}) })),
    ...(scheduled ? { scheduled } : {}),
    provider: run.provider,
    model: run.model,
    usage: run.usage,
  };
}

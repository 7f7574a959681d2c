import { DateTime } from 'luxon';

/**
 * A brand's posting slots (decisions.md "Scheduling": `HH:MM` wall-clock times in the brand's timezone) as instants.
 * DST: a slot that does not exist that day (skipped by the spring change) moves forward by the gap, like cron does
 * (02:30 → 03:30); a slot that happens twice (the autumn change) is the first of the two. Two slots that land on the
 * same instant count once.
 */

/** How far ahead `next_slot` looks for a free slot. */
export const SLOT_HORIZON_DAYS = 400;

/** The instant of wall time `hh:mm` on a calendar day in `zone` (first occurrence; a skipped time moves forward). */
export function slotInstant(zone: string, year: number, month: number, day: number, hhmm: string): DateTime {
  const [hour, minute] = hhmm.split(':').map(Number);
  const dt = DateTime.fromObject({ year, month, day, hour, minute }, { zone });
  // luxon resolves a repeated wall time to the later offset: prefer the earlier one when it shows the same wall time.
  const before = dt.minus({ hours: 3 });
  if (before.offset > dt.offset) {
    const earlier = dt.minus({ minutes: before.offset - dt.offset });
    if (earlier.hour === hour && earlier.minute === minute && earlier.day === day) return earlier;
  }
  return dt;
}

/** Every slot instant of one calendar day in `zone`, ascending and without duplicates. */
export function slotsOfDay(zone: string, day: DateTime, slots: readonly string[]): DateTime[] {
  const all = slots.map((s) => slotInstant(zone, day.year, day.month, day.day, s));
  const byMs = new Map(all.map((d) => [d.toMillis(), d]));
  return [...byMs.values()].sort((a, b) => a.toMillis() - b.toMillis());
}

/** Slot instants strictly after `afterMs`, ascending, for up to `horizonDays` calendar days. */
export function* slotInstants(zone: string, slots: readonly string[], afterMs: number, horizonDays = SLOT_HORIZON_DAYS): Generator<Date> {
  if (slots.length === 0) return;
  // start one day early: a slot late on the previous local day can still be after `afterMs` after a DST shift
  let day = DateTime.fromMillis(afterMs, { zone }).startOf('day').minus({ days: 1 });
  for (let i = 0; i <= horizonDays + 1; i++, day = day.plus({ days: 1 })) {
    for (const s of slotsOfDay(zone, day, slots)) {
      if (s.toMillis() > afterMs) yield s.toJSDate();
    }
  }
}

/** True when `at` is exactly one of the brand's slots (to the second). */
export function isSlotInstant(zone: string, slots: readonly string[], at: Date): boolean {
  const local = DateTime.fromJSDate(at, { zone });
  if (local.second !== 0 || local.millisecond !== 0) return false;
  return slotsOfDay(zone, local.startOf('day'), slots).some((s) => s.toMillis() === at.getTime());
}

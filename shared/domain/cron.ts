import { CronExpressionParser, type CronExpression } from 'cron-parser';
import { IANAZone } from 'luxon';

/**
 * Recurring posts' cron expressions (decisions.md "Scheduling": 5 fields + an IANA timezone).
 * One parser (cron-parser) answers the occurrences everywhere (validation, the local scheduler, `next_run_at`), and
 * the same expression is translated once for EventBridge Scheduler's 6-field `cron(...)` dialect.
 */

/** Characters standard 5-field cron uses; `?`, `L`, `W`, `#`, `H` and `@` macros are refused (not portable). */
const FIELD = /^[0-9A-Za-z*,/-]+$/;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

export class CronError extends Error {}

export interface ParsedCron {
  /** The expression as given, whitespace normalised. */
  expression: string;
  minute: number[];
  hour: number[];
  dayOfMonth: number[];
  month: number[];
  /** 0 = Sunday … 6 = Saturday (7 folded into 0). */
  dayOfWeek: number[];
  /** Whether the day-of-month / day-of-week field restricts anything (all values = unrestricted). */
  domRestricted: boolean;
  dowRestricted: boolean;
}

/**
 * Parses a 5-field cron expression (minute hour day-of-month month day-of-week; numbers, names, `*`, `,`, `-`, `/`).
 * Restricting both day-of-month and day-of-week is refused: classic cron ORs them, EventBridge cannot express that.
 */
export function parseCron(expression: string): ParsedCron {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5 || parts[0] === '') throw new CronError('cron must have 5 fields: minute hour day-of-month month day-of-week (e.g. "0 9 * * 1-5")');
  const bad = parts.find((p) => !FIELD.test(p));
  if (bad !== undefined) throw new CronError(`cron field "${bad}" uses characters other than digits, names, * , - and /`);
  parts.forEach((p, i) => {
    const allowed = i === 3 ? MONTHS : i === 4 ? DAYS : [];
    const word = (p.match(/[A-Za-z]+/g) ?? []).find((w) => !allowed.includes(w.toUpperCase()));
    if (word !== undefined) throw new CronError(`cron field "${p}": "${word}" is not ${i === 3 ? 'a month name (JAN-DEC)' : i === 4 ? 'a day name (SUN-SAT)' : 'allowed here'}`);
  });
  let parsed: CronExpression;
  try {
    parsed = CronExpressionParser.parse(parts.join(' '), { tz: 'UTC' });
  } catch (err) {
    throw new CronError(`cron is not valid: ${(err as Error).message}`);
  }
  const f = parsed.fields;
  const dayOfWeek = [...new Set(f.dayOfWeek.values.map((d) => Number(d) % 7))].sort((a, b) => a - b);
  const dayOfMonth = f.dayOfMonth.values.map(Number);
  const domRestricted = dayOfMonth.length < 31;
  const dowRestricted = dayOfWeek.length < 7;
  if (domRestricted && dowRestricted) {
    throw new CronError('cron cannot restrict both day-of-month and day-of-week: put * in one of them');
  }
  return {
    expression: parts.join(' '),
    minute: f.minute.values.map(Number), hour: f.hour.values.map(Number), dayOfMonth, month: f.month.values.map(Number), dayOfWeek,
    domRestricted, dowRestricted,
  };
}

/** `1,2,3,5,7,8` → `1-3,5,7-8`. */
function compact(values: number[]): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    out.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

/**
 * The EventBridge Scheduler form: `cron(minutes hours day-of-month month day-of-week year)`, written from the parsed
 * values (so names and steps need no translation), day-of-week numbered 1 = Sunday … 7 = Saturday, and `?` in
 * whichever day field is unrestricted.
 */
export function toAwsCron(c: ParsedCron): string {
  const full = (values: number[], size: number) => values.length >= size;
  const minute = full(c.minute, 60) ? '*' : compact(c.minute);
  const hour = full(c.hour, 24) ? '*' : compact(c.hour);
  const month = full(c.month, 12) ? '*' : compact(c.month);
  const dom = c.domRestricted ? compact(c.dayOfMonth) : c.dowRestricted ? '?' : '*';
  const dow = c.dowRestricted ? compact(c.dayOfWeek.map((d) => d + 1)) : '?';
  return `cron(${minute} ${hour} ${dom} ${month} ${dow} *)`;
}

/**
 * The first occurrence strictly after `after` (wall-clock time in `timezone`; a time skipped by a DST change runs
 * right after the change, a repeated time runs once), or undefined when it would fall after `until`.
 */
export function nextOccurrence(expression: string, timezone: string, after: Date, until?: Date): Date | undefined {
  const it = CronExpressionParser.parse(expression, { tz: timezone, currentDate: after });
  const next = it.next().toDate();
  if (until && next.getTime() > until.getTime()) return undefined;
  return next;
}

/** True for an IANA time zone name (e.g. Europe/Berlin, UTC). */
export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

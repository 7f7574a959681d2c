import { CronError, isTimeZone, nextOccurrence, parseCron, toAwsCron } from '../../shared/domain/cron';

describe('parseCron', () => {
  it('accepts 5 fields with numbers, names, ranges, lists and steps', () => {
    const c = parseCron(' 0  9 * * MON-FRI ');
    expect(c).toMatchObject({ expression: '0 9 * * MON-FRI', minute: [0], hour: [9], dayOfWeek: [1, 2, 3, 4, 5], domRestricted: false, dowRestricted: true });
    expect(parseCron('*/15 8-18 * JAN,jul 1,7').dayOfWeek).toEqual([0, 1]);
  });

  it.each([
    ['0 9 * *', /5 fields/],
    ['0 0 9 * * *', /5 fields/],
    ['0 9 ? * MON', /characters/],
    ['0 9 L * *', /not allowed here/],
    ['0 9 * * 5L', /not a day name/],
    ['0 9 * FOO *', /not a month name/],
    ['0 9 * * 1#2', /characters/],
    ['@daily', /5 fields/],
    ['61 * * * *', /not valid/],
    ['0 25 * * *', /not valid/],
    ['0 9 1 * 1', /both day-of-month and day-of-week/],
  ])('refuses %s', (expr, message) => {
    expect(() => parseCron(expr)).toThrow(CronError);
    expect(() => parseCron(expr)).toThrow(message);
  });
});

describe('toAwsCron (EventBridge Scheduler dialect)', () => {
  it.each([
    ['0 9 * * *', 'cron(0 9 * * ? *)'],
    ['0 9 * * 1-5', 'cron(0 9 ? * 2-6 *)'],
    ['0 9 * * MON-FRI', 'cron(0 9 ? * 2-6 *)'],
    ['30 8 * * 0', 'cron(30 8 ? * 1 *)'],
    ['30 8 * * 7', 'cron(30 8 ? * 1 *)'],
    ['0 12 * * 5-7', 'cron(0 12 ? * 1,6-7 *)'],
    ['*/15 * * * *', 'cron(0,15,30,45 * * * ? *)'],
    ['0 9 1,15 * *', 'cron(0 9 1,15 * ? *)'],
    ['0 0 1 JAN,JUL *', 'cron(0 0 1 1,7 ? *)'],
    ['5 4 * * SUN', 'cron(5 4 ? * 1 *)'],
  ])('%s → %s', (expr, aws) => {
    expect(toAwsCron(parseCron(expr))).toBe(aws);
  });
});

describe('nextOccurrence', () => {
  it('is strictly after the given time, in the timezone', () => {
    expect(nextOccurrence('0 9 * * *', 'Europe/Berlin', new Date('2026-01-05T07:59:00Z'))!.toISOString()).toBe('2026-01-05T08:00:00.000Z');
    expect(nextOccurrence('0 9 * * *', 'Europe/Berlin', new Date('2026-01-05T08:00:00Z'))!.toISOString()).toBe('2026-01-06T08:00:00.000Z');
    expect(nextOccurrence('0 9 * * *', 'Europe/Berlin', new Date('2026-07-05T08:00:00Z'))!.toISOString()).toBe('2026-07-06T07:00:00.000Z');
  });

  it('DST: a skipped time runs right after the change; a repeated time runs once', () => {
    // New York 2026-03-08: 02:00 → 03:00
    expect(nextOccurrence('30 2 * * *', 'America/New_York', new Date('2026-03-07T12:00:00Z'))!.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // New York 2026-11-01: 02:00 → 01:00; 01:30 happens twice, runs at the first
    const first = nextOccurrence('30 1 * * *', 'America/New_York', new Date('2026-10-31T12:00:00Z'))!;
    expect(first.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(nextOccurrence('30 1 * * *', 'America/New_York', first)!.toISOString()).toBe('2026-11-02T06:30:00.000Z');
  });

  it('answers undefined past the window end', () => {
    expect(nextOccurrence('0 9 * * *', 'UTC', new Date('2026-01-01T10:00:00Z'), new Date('2026-01-02T08:59:59Z'))).toBeUndefined();
    expect(nextOccurrence('0 9 * * *', 'UTC', new Date('2026-01-01T10:00:00Z'), new Date('2026-01-02T09:00:00Z'))!.toISOString()).toBe('2026-01-02T09:00:00.000Z');
  });

  it('knows IANA zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

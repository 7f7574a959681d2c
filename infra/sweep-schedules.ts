import type { z } from 'zod';
import { FORMAT_VERSION } from '../shared/ports/format-version';
import { SCHEDULE_SWEEP, type ScheduleSweepInput } from '../shared/app/schedule/sweep';
import { SCHEDULE_FAN_OUT, type ScheduleFanOutInput } from '../shared/app/schedule/due-fan-out';
import { SWEEP_SCHEDULE, type WebhookSweepInput } from '../shared/app/webhooks/sweep-schedule';
import { PUBLISH_SWEEP, type PublishSweepInput } from '../shared/app/publish/reconcile';
import { RENEWAL_SWEEP, type RenewalSweepInput } from '../shared/app/oauth/renewal-sweep';
import { ANALYTICS_SWEEP, type AnalyticsSweepInput } from '../shared/app/analytics/analytics-sweep';

/** A recurring timer of the deployment: a 5-field cron in `timezone`, and the dispatcher's input. */
export interface SweepSchedule {
  name: string;
  cron: string;
  timezone: string;
  input: z.infer<typeof WebhookSweepInput> | z.infer<typeof ScheduleSweepInput> | z.infer<typeof ScheduleFanOutInput> | z.infer<typeof PublishSweepInput> | z.infer<typeof RenewalSweepInput> | z.infer<typeof AnalyticsSweepInput>;
}

/**
 * The service's recurring sweeps, each a timer of the deployment that invokes the dispatcher with the input the
 * app defines: the webhook delivery sweep, the fan-out of scheduled posts that come due (one alarm a minute for all
 * of them), the scheduled posts' and the published posts' reconciliation sweeps, every minute, the connections' renewal sweep (sign-ins renewed before they lapse), every 15 minutes, and the
 * analytics sweep (published posts' figures that are due), every minute. In AWS
 * they are EventBridge Scheduler schedules of the API stack; the local runtime arms them as timers at start.
 */
export const SWEEP_SCHEDULES: readonly SweepSchedule[] = [
  { ...SWEEP_SCHEDULE, input: { v: FORMAT_VERSION, kind: 'webhook-sweep' } },
  { ...SCHEDULE_FAN_OUT, input: { v: FORMAT_VERSION, kind: 'schedule-fan-out' } },
  { ...SCHEDULE_SWEEP, input: { v: FORMAT_VERSION, kind: 'schedule-sweep' } },
  { ...PUBLISH_SWEEP, input: { v: FORMAT_VERSION, kind: 'publish-sweep' } },
  { ...RENEWAL_SWEEP, input: { v: FORMAT_VERSION, kind: 'connection-sweep' } },
  { ...ANALYTICS_SWEEP, input: { v: FORMAT_VERSION, kind: 'analytics-sweep' } },
];

/**
 * EventBridge Scheduler's `cron(minutes hours day-of-month month day-of-week year)` for a 5-field cron: one of the
 * two day fields must be `?`, steps start from a value (`0/5`, not `*\/5`).
 */
export function awsCronExpression(cron: string): string {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`Not a 5-field cron: "${cron}"`);
  const [minute, hour, dom, month, dow] = fields.map((f) => f.replace(/^\*\//, '0/'));
  const days = dow === '*' ? [dom, '?'] : dom === '*' ? ['?', dow] : undefined;
  if (!days) throw new Error(`EventBridge Scheduler cannot take both a day of month and a day of week: "${cron}"`);
  return `cron(${minute} ${hour} ${days[0]} ${month} ${days[1]} *)`;
}

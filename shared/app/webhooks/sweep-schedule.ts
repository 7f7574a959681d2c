import * as z from 'zod';
import { formatVersion } from '../../ports/format-version';

/** The dispatcher input of the recurring delivery sweep. */
export const WebhookSweepInput = z.object({ v: formatVersion, kind: z.literal('webhook-sweep') });

/**
 * The recurring timer that runs the sweep: every minute, through the dispatcher. It is part of the deployment
 * (infra/sweep-schedules.ts: a schedule of the CDK API stack; the local runtime arms its own timer at start).
 */
export const SWEEP_SCHEDULE = { name: 'webhook-sweep', cron: '* * * * *', timezone: 'UTC' } as const;

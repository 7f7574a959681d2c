import * as z from 'zod';

/** The dispatcher input of the recurring delivery sweep. */
export const WebhookSweepInput = z.object({ kind: z.literal('webhook-sweep') });

/**
 * The recurring timer that runs the sweep: every 5 minutes, through the dispatcher. It is part of the deployment
 * (infra/sweep-schedules.ts: a schedule of the CDK API stack; the local runtime arms its own timer at start).
 */
export const SWEEP_SCHEDULE = { name: 'webhook-sweep', cron: '*/5 * * * *', timezone: 'UTC' } as const;

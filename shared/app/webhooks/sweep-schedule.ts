import * as z from 'zod';
import type { Deps } from '../deps';

/** The dispatcher input of the recurring sweep (see ensureSweepSchedule). */
export const WebhookSweepInput = z.object({ kind: z.literal('webhook-sweep') });

/** The recurring timer that runs the sweep: every 5 minutes, through the dispatcher. */
export const SWEEP_SCHEDULE = { name: 'webhook-sweep', cron: '*/5 * * * *', timezone: 'UTC' } as const;

/**
 * Creates (or refreshes) the sweep's recurring timer; called when an endpoint is registered, so a deployment
 * without webhooks runs no sweep. Idempotent (one timer by name).
 */
export async function ensureSweepSchedule(deps: Pick<Deps, 'scheduler'>): Promise<void> {
  await deps.scheduler.scheduleCron({ ...SWEEP_SCHEDULE, input: { kind: 'webhook-sweep' } satisfies z.infer<typeof WebhookSweepInput> });
}

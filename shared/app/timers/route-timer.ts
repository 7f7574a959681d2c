import * as z from 'zod';
import { formatVersion, FORMAT_VERSION } from '../../ports/format-version';
import type { Deps } from '../deps';
import { isPlatformName } from '../../domain/platforms';
import type { PublishMessage } from '../publish/publish-message';
import { dispatchWebhookTry, WebhookDispatchInput } from '../webhooks/delivery-queue';
import { sweepDeliveries } from '../webhooks/delivery-sweep';
import { WebhookSweepInput } from '../webhooks/sweep-schedule';
import { fireRecurring, fireScheduled, type FireDeps } from '../schedule/fire';
import { markDeferralFired } from '../publish/deferral';
import { ScheduleSweepInput, sweepSchedules } from '../schedule/sweep';
import { fanOutDue, ScheduleFanOutInput } from '../schedule/due-fan-out';
import { PublishSweepInput, sweepPublishing } from '../publish/reconcile';
import { expireApproval, type DecideApprovalDeps } from '../approvals/approvals';
import { putMetric } from '../../metrics';
import { RenewalSweepInput, sweepConnections, type RenewalSweepDeps } from '../oauth/renewal-sweep';
import { AnalyticsSweepInput, sweepAnalytics, type AnalyticsSweepDeps } from '../analytics/analytics-sweep';

/** What a scheduler timer carries to the dispatcher (validated: the input crosses a process boundary). */
export const DispatchInput = z.discriminatedUnion('kind', [
  z.object({
    v: formatVersion,
    kind: z.literal('deferred'),
    post_id: z.string().regex(/^pst_[0-9A-Z]{26}$/),
    platform: z.string().refine(isPlatformName, 'unknown network'),
    deferral: z.number().int().min(1).max(10),
    schedule_id: z.string().optional(),
  }),
  // a webhook try whose wait is longer than SQS allows (shared/app/webhooks/delivery-queue.ts), and the delivery sweep
  WebhookDispatchInput,
  WebhookSweepInput,
  // a scheduled post's one-time alarm of the previous release (shared/app/schedule/fire.ts; the item is read from the
  // table by id): scheduled posts are now fired by the per-minute fan-out, alarms armed before it still fire once
  z.object({ v: formatVersion, kind: z.literal('scheduled'), schedule_id: z.string().regex(/^sch_[0-9A-Z]{26}$/) }),
  // one occurrence of a recurring schedule; occurrence is EventBridge Scheduler's <aws.scheduler.scheduled-time>
  z.object({ v: formatVersion, kind: z.literal('recurring'), recurring_id: z.string().regex(/^rec_[0-9A-Z]{26}$/), occurrence: z.string().min(10).max(40) }),
  // the every-minute reconciliation of scheduled posts whose alarm never fired (shared/app/schedule/sweep.ts)
  ScheduleSweepInput,
  // the every-minute fan-out of scheduled posts that come due (shared/app/schedule/due-fan-out.ts)
  ScheduleFanOutInput,
  // the every-15-minutes renewal of sign-ins before they lapse (shared/app/oauth/renewal-sweep.ts)
  RenewalSweepInput,
  // the every-minute reconciliation of posts whose networks' work is overdue (shared/app/publish/reconcile.ts)
  PublishSweepInput,
  // the every-minute fetch of published posts' figures that are due (shared/app/analytics/analytics-sweep.ts)
  AnalyticsSweepInput,
  // a held post's 7-day expiry (shared/app/approvals/approvals.ts)
  z.object({ v: formatVersion, kind: z.literal('approval-expiry'), approval_id: z.string().regex(/^apr_[0-9A-Z]{26}$/) }),
]);
export type DispatchInput = z.infer<typeof DispatchInput>;

/** Fires a due timer: a deferred network goes back on the publish queue, where the worker claims it once. */
export async function dispatch(deps: FireDeps & DecideApprovalDeps & RenewalSweepDeps & AnalyticsSweepDeps & Pick<Deps, 'webhooks'>, input: z.input<typeof DispatchInput>): Promise<void> {
  putMetric('SchedulesFired', 1, { kind: input.kind });
  if (input.kind === 'recurring' && !Number.isNaN(Date.parse(input.occurrence))) {
    putMetric('ScheduleLateness', Math.max(0, deps.clock.now() - Date.parse(input.occurrence)), { kind: 'recurring' });
  }
  if (input.kind === 'webhook') return dispatchWebhookTry(deps, input);
  if (input.kind === 'webhook-sweep') { await sweepDeliveries(deps); return; }
  if (input.kind === 'scheduled') return fireScheduled(deps, input.schedule_id);
  if (input.kind === 'recurring') return fireRecurring(deps, input.recurring_id, input.occurrence);
  if (input.kind === 'schedule-sweep') { await sweepSchedules(deps); return; }
  if (input.kind === 'schedule-fan-out') { await fanOutDue(deps); return; }
  if (input.kind === 'connection-sweep') { await sweepConnections(deps); return; }
  if (input.kind === 'publish-sweep') { await sweepPublishing(deps); return; }
  if (input.kind === 'analytics-sweep') { await sweepAnalytics(deps); return; }
  if (input.kind === 'approval-expiry') return expireApproval(deps, input.approval_id);
  if (input.schedule_id) await markDeferralFired(deps, input.schedule_id);
  const body: PublishMessage = { v: FORMAT_VERSION, post_id: input.post_id, platform: input.platform as PublishMessage['platform'], deferral: input.deferral };
  await deps.queue.sendAll(deps.settings.publishQueueUrl, [{ id: `${input.post_id}-${input.platform}`, body }]);
}

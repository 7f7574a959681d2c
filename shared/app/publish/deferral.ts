import type { Deps } from '../deps';
import type { ScheduleRecord } from '../../ports/schedules';

/**
 * A rate-limit deferral made by the publishing worker (send-to-network): recorded as a schedule item with
 * deferred: true so GET /api/schedule shows it; the item points at the post and network it will send.
 */
export async function recordDeferral(deps: Pick<Deps, 'schedules' | 'clock'>, d: { schedule_id: string; account_id: string; brand_id: string; post_id: string; platform: ScheduleRecord['platforms'][number]; run_at: Date }): Promise<void> {
  const now = new Date(deps.clock.now()).toISOString();
  await deps.schedules.create({
    id: d.schedule_id, account_id: d.account_id, brand_id: d.brand_id, status: 'scheduled', run_at: d.run_at.toISOString(),
    platforms: [d.platform], deferred: true, post_id: d.post_id, counted: false, created_at: now, updated_at: now,
  });
}

/** A deferral's alarm fired: its item moves to publishing (the worker's own claim keeps the send at most once). */
export async function markDeferralFired(deps: Pick<Deps, 'schedules' | 'clock'>, scheduleId: string): Promise<void> {
  const now = deps.clock.now();
  await deps.schedules.claim(scheduleId, '9999-12-31T23:59:59.999Z', now);
}

import type { Deps } from '../../shared/app/deps';
import { sweepPublishing } from '../../shared/app/publish/reconcile';
import { sweepDeliveries } from '../../shared/app/webhooks/delivery-sweep';
import { sweepSchedules } from '../../shared/app/schedule/sweep';
import { fanOutDue } from '../../shared/app/schedule/due-fan-out';
import { errorFields, log as serviceLog } from '../../shared/log';

/**
 * The local runtime's start: its SQS stand-in (fauxqs) is in memory, so every message of a previous process is gone
 * and every claim older than this process belongs to a worker that died with it (settings.claimsDeadBefore). The
 * three sweeps (and the scheduled posts' fan-out of this minute) run once at once, each over everything due (not only what is past its grace): schedules whose alarm
 * was taken but not run, every post with work left (its networks re-driven through their claims, its stored events'
 * deliveries written), and every pending webhook delivery. Then the timer poller runs them every minute.
 */
export async function startupSweeps(deps: Deps, log: (line: string) => void): Promise<void> {
  try {
    const schedules = await sweepSchedules(deps, undefined, { startup: true });
    // the fire messages the previous process had queued (delayed to their second) died with it
    await fanOutDue(deps);
    const posts = await sweepPublishing(deps, { all: true });
    const deliveries = await sweepDeliveries(deps, 1_000, { startup: true });
    if (schedules.fired || posts.redriven || deliveries.requeued) {
      log(`local runtime: re-driven at start: ${schedules.fired} schedules, ${posts.redriven} networks of ${posts.visited} posts, ${deliveries.requeued} webhook deliveries`);
    }
  } catch (err) {
    serviceLog.error('start-up sweep failed; the minute sweeps will retry', errorFields(err));
  }
}

import type { Context } from 'aws-lambda';
import { depsFor } from '../../shared/container';
import { dispatcher } from '../workers';
import { coldStart } from '../../shared/metrics';
import { DispatchInput, dispatch } from '../../shared/app/timers/route-timer';
import { log, withLogContext } from '../../shared/log';

/** What this function declares it uses (functions/workers.ts), as its Lambda bundle wires it. */
const dispatcherDeps = depsFor('dispatch', dispatcher);

/** EventBridge Scheduler's target (and the local timer poller's): validates the input, then dispatches. */
export const handler = async (event: unknown, context?: Context): Promise<void> => {
  coldStart(context?.functionName);
  const input = DispatchInput.safeParse(event);
  if (!input.success) {
    log.error('scheduler input refused', { issues: input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
    return;
  }
  const d = input.data as Record<string, unknown>;
  const id = [d.schedule_id, d.recurring_id, d.delivery_id, d.post_id, d.kind].find((v): v is string => typeof v === 'string');
  // a timer has no request: its schedule (or post, or delivery) id correlates what it causes
  const fields = { correlation_id: id ?? 'scheduler', dispatch_kind: d.kind, post_id: d.post_id, schedule_id: d.schedule_id };
  await withLogContext(fields, () => dispatch(dispatcherDeps(), input.data));
};

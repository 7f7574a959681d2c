import type { Context } from 'aws-lambda';
import { wiredHandler } from '../../shared/container';
import type { DepsOf } from '../../shared/wiring/declaration';
import { dispatcher } from '../workers';
import { coldStart } from '../../shared/metrics';
import { DispatchInput, dispatch } from '../../shared/app/timers/route-timer';
import { log, withLogContext } from '../../shared/log';
import { isNewerFormat, NewerFormatError } from '../../shared/ports/format-version';

/**
 * EventBridge Scheduler's target (and the local timer poller's): validates the input, then dispatches. It sees what
 * it declares (functions/workers.ts), as its Lambda bundle wires it.
 */
export const handler = wiredHandler((dispatcherDeps: () => DepsOf<typeof dispatcher>) => async (event: unknown, context?: Context): Promise<void> => {
  coldStart(context?.functionName);
  // a newer release's timer: fail the invocation (Lambda retries it, then its on-failure destination), never drop it
  if (isNewerFormat(event)) {
    log.warn('scheduler input left for a newer release', { v: event.v });
    throw new NewerFormatError(event.v);
  }
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
});

import { getDeps } from '../../shared/container';
import { DispatchInput, dispatch } from '../../shared/app/publish/dispatch';
import { log } from '../../shared/log';

/** EventBridge Scheduler's target (and the local timer poller's): validates the input, then dispatches. */
export const handler = async (event: unknown): Promise<void> => {
  const input = DispatchInput.safeParse(event);
  if (!input.success) {
    log.error('scheduler input refused', { issues: input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
    return;
  }
  await dispatch(getDeps(), input.data);
};

import type { ResultListener, ResultSignal } from '../../ports/result-signal';

const never: Promise<void> = new Promise<void>(() => undefined);

/**
 * The result signal in AWS: the API Lambda and the publish worker run in separate instances, so nothing rings and
 * the waiting request notices results by its fixed-interval poll alone.
 */
export const polledResults: ResultSignal = {
  rings: false,
  ring: () => undefined,
  listen: (): ResultListener => ({ rung: never, stop: () => undefined }),
};

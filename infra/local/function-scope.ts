import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which function of the deployment the code running now stands for: the local runtime runs each route handler,
 * worker batch and dispatcher invocation inside `asFunction(id, …)` (the route id, the worker id, the dispatcher's
 * id). Nothing in the local runtime reads it; the test suite's IAM simulation (test/support/iam) does, to decide
 * every AWS request against that function's own synthesized policy. Not part of any Lambda bundle.
 */
export const functionScope = new AsyncLocalStorage<{ fn: string }>();

export function asFunction<T>(fn: string, run: () => Promise<T>): Promise<T> {
  return functionScope.run({ fn }, run);
}

import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { Deps } from '../../shared/app/deps';

/** A handler module's exported function, as Lambda calls it. */
export type AnyHandler = (event: unknown, context: Context) => Promise<unknown>;
export type LoadHandler = (file: string) => Promise<AnyHandler>;

export const ROOT = path.resolve(__dirname, '..', '..');

/** Loads `handler` from a module under the project root (the same module esbuild bundles for Lambda). */
export const loadHandler: LoadHandler = async (file) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(ROOT, file)) as { handler?: AnyHandler };
  if (typeof mod.handler !== 'function') throw new Error(`${file} exports no handler`);
  return mod.handler;
};

/**
 * Loads each module's `handler` made over `deps` (its `using`, shared/container.ts wiredHandler), once per module: the
 * local runtime serves every function from its one container. A module whose handler cannot be made over given
 * dependencies is refused.
 */
export function handlersOver(deps: Promise<Deps>): LoadHandler {
  const made = new Map<string, Promise<AnyHandler>>();
  return (file) => {
    let handler = made.get(file);
    if (!handler) {
      handler = deps.then((d) => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const mod = require(path.join(ROOT, file)) as { handler?: { using?: (deps: Deps) => AnyHandler } };
        if (typeof mod.handler?.using !== 'function') throw new Error(`${file} exports no handler made with wiredHandler (shared/container.ts)`);
        return mod.handler.using(d);
      });
      made.set(file, handler);
    }
    return handler;
  };
}

/** A Lambda context with a deadline, so middleware that reads the remaining time behaves as in Lambda. */
export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName, functionVersion: '$LATEST', invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024', awsRequestId: randomUUID(), logGroupName: `/aws/lambda/${functionName}`, logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined, fail: () => undefined, succeed: () => undefined,
  };
}

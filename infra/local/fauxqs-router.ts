import fs from 'node:fs';
import path from 'node:path';
import type { SqsRouter } from './in-process-requests';

interface RouterClass { prototype: SqsRouter & { register(action: string, handler: unknown): void } }

/**
 * Builds a fauxqs app with `build` and answers it with the SQS router it made (fauxqs keeps the router inside
 * buildApp; its POST / route only hands JSON-protocol requests to it): the router's `register`, which buildApp
 * calls on the new router synchronously, notes it.
 */
export async function captureSqsRouter<A>(build: () => A): Promise<{ app: A; router: SqsRouter }> {
  const file = (require.resolve.paths('fauxqs') ?? []).map((dir) => path.join(dir, 'fauxqs', 'dist', 'sqs', 'sqsRouter.js')).find((f) => fs.existsSync(f));
  if (!file) throw new Error('fauxqs not found: cannot reach its SQS router');
  const { SqsRouter: Router } = (await import(file)) as { SqsRouter: RouterClass };
  const register = Router.prototype.register;
  let made: SqsRouter | undefined;
  Router.prototype.register = function noted(this: SqsRouter, ...args: [string, unknown]) {
    made ??= this;
    return register.apply(this, args);
  };
  try {
    const app = build();
    if (!made) throw new Error('fauxqs built no SQS router');
    return { app, router: made };
  } finally {
    Router.prototype.register = register;
  }
}

import type { Tracer } from '@aws-lambda-powertools/tracer';
import { logContext } from './log';

/**
 * X-Ray subsegments through Powertools Tracer: AWS SDK clients are captured (`traceClient`), and every network call
 * runs in its own subsegment annotated with the platform and the post id of the current work (`traced`). Like `log`,
 * an output side channel.
 *
 * The Tracer (and with it aws-xray-sdk-core and cls-hooked, whose async_hooks cost CPU in every process that loads
 * them) is loaded only where tracing is really on: in a Lambda bundle whose declaration says `tracing: true` (the
 * `SPA_WIRE_TRACING` switch, shared/wiring/declaration.ts; esbuild drops the require elsewhere) and, at run time, in a
 * Lambda execution environment with POWERTOOLS_TRACE_ENABLED not "false" (Powertools' own rule). Everywhere else
 * (other functions, the local runtime, tests) both helpers are pass-throughs. Lambda active tracing still records
 * every function's own segment without the SDK.
 */
let tracer: Tracer | null | undefined;

/** Powertools' rule for "tracing on": a Lambda execution environment that is not SAM local nor Amplify's mock, not switched off. */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.POWERTOOLS_TRACE_ENABLED ?? '').toLowerCase() === 'false') return false;
  const exec = env.AWS_EXECUTION_ENV ?? '';
  return exec !== '' && exec !== 'AWS_Lambda_amplify-mock' && !env.AWS_SAM_LOCAL;
}

function active(): Tracer | undefined {
  if (tracer === undefined) {
    const load = (): typeof import('@aws-lambda-powertools/tracer') | undefined => process.env.SPA_WIRE_TRACING === 'off' ? undefined : require('@aws-lambda-powertools/tracer');
    const mod = tracingEnabled() ? load() : undefined;
    tracer = mod ? new mod.Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'social-publishing' }) : null;
  }
  return tracer ?? undefined;
}

/** The SDK client with X-Ray capture of its calls (unchanged when tracing is off). */
export function traceClient<T>(client: T): T {
  const t = active();
  return t ? t.captureAWSv3Client(client as never) as T : client;
}

/** Runs `fn` in a subsegment `name`, annotated with `annotations` and the current post id; errors are recorded. */
export async function traced<T>(name: string, annotations: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const t = active();
  if (!t?.isTracingEnabled()) return fn();
  const parent = t.getSegment();
  if (!parent) return fn();
  const sub = parent.addNewSubsegment(name);
  t.setSegment(sub);
  const postId = logContext().post_id;
  for (const [k, v] of Object.entries({ ...annotations, ...(typeof postId === 'string' ? { post_id: postId } : {}) })) sub.addAnnotation(k, v);
  try {
    return await fn();
  } catch (err) {
    sub.addError(err as Error);
    throw err;
  } finally {
    sub.close();
    t.setSegment(parent);
  }
}

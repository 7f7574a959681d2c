import { Tracer } from '@aws-lambda-powertools/tracer';
import { logContext } from './log';

/**
 * X-Ray tracing through Powertools Tracer: AWS SDK clients are captured (`traceClient`), and every network call runs
 * in its own subsegment annotated with the platform and the post id of the current work (`traced`). Outside Lambda
 * (local runtime, tests) the Tracer is disabled and both are pass-throughs. Like `log`, an output side channel.
 */
let tracer: Tracer | undefined;
function get(): Tracer {
  tracer ??= new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'social-publishing' });
  return tracer;
}

/** The SDK client with X-Ray capture of its calls (unchanged when tracing is off). */
export function traceClient<T>(client: T): T {
  return get().captureAWSv3Client(client as never) as T;
}

/** Runs `fn` in a subsegment `name`, annotated with `annotations` and the current post id; errors are recorded. */
export async function traced<T>(name: string, annotations: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const t = get();
  if (!t.isTracingEnabled()) return fn();
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

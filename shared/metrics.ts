import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logContext } from './log';

/**
 * Business and operations metrics as CloudWatch EMF lines (Powertools Metrics), written to stdout like the logs:
 * in Lambda, CloudWatch turns them into metrics with no API call; locally they are plain JSON lines.
 *
 * Like `log`, this is an output side channel every layer may use. Each call writes one EMF line at once (a single
 * metric with its own dimension set), so a worker that dies mid-batch loses nothing already counted. Names and
 * dimensions are the contract the Observability stack's dashboard and alarms read (infra/stacks/observability-stack.ts).
 * `POWERTOOLS_METRICS_DISABLED=true` turns them off (the test setup does; `POWERTOOLS_DEV` does too unless that is
 * set to false; so does `LOG_LEVEL=silent` in the local runtime unless the switch says otherwise).
 */
export const METRICS_NAMESPACE_DEFAULT = 'SocialPublishing';

/** Metric name → its dimensions (besides `service`) and unit. */
export const METRICS = {
  /** A network's final result was published (per post and network). */
  PostsPublished: { dimensions: ['platform'], unit: MetricUnit.Count },
  /** A network's final result failed, per network (the failure-rate alarm's numerator). */
  PostsFailed: { dimensions: ['platform'], unit: MetricUnit.Count },
  /** The same failures by result code. */
  PostsFailedByCode: { dimensions: ['platform', 'code'], unit: MetricUnit.Count },
  /** Duration of one network publish call (the adapter's publish, retries included). */
  NetworkLatency: { dimensions: ['platform'], unit: MetricUnit.Milliseconds },
  /** One webhook try, by outcome: delivered, retrying, failed (final), abandoned. */
  WebhookDeliveries: { dimensions: ['outcome'], unit: MetricUnit.Count },
  /** How long a webhook try waited past its due time before it was sent. */
  WebhookBacklogAge: { dimensions: [], unit: MetricUnit.Milliseconds },
  /** A scheduler timer fired (kind: scheduled, recurring, deferred, webhook, sweeps). */
  SchedulesFired: { dimensions: ['kind'], unit: MetricUnit.Count },
  SchedulesQueued: { dimensions: ['kind'], unit: MetricUnit.Count },
  /** How late a scheduled or recurring post fired against its run_at. */
  ScheduleLateness: { dimensions: ['kind'], unit: MetricUnit.Milliseconds },
  /** Networks whose overdue work the publish reconciliation sweep re-drove (a lost message, a DLQ, a crash). */
  NetworksRedriven: { dimensions: [], unit: MetricUnit.Count },
  /** The first invocation of a function instance. */
  ColdStart: { dimensions: ['function_name'], unit: MetricUnit.Count },
} as const;

export type MetricName = keyof typeof METRICS;
type DimensionsOf<N extends MetricName> = { [D in (typeof METRICS)[N]['dimensions'][number]]: string };

let base: Metrics | undefined;
const serviceName = () => process.env.POWERTOOLS_SERVICE_NAME ?? 'social-publishing';

function root(): Metrics {
  base ??= new Metrics({ namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE_DEFAULT, serviceName: serviceName() });
  return base;
}

/**
 * Powertools' own rule, checked before building anything: the explicit switch wins, else dev mode turns EMF off.
 * The local runtime, where no one turns these lines into metrics, also writes none while its logs are silenced
 * (LOG_LEVEL=silent): they would be the only output, at a cost per call.
 */
function disabled(): boolean {
  const flag = process.env.POWERTOOLS_METRICS_DISABLED;
  if (flag !== undefined) return flag === 'true' || flag === '1';
  if (process.env.RUNTIME === 'local' && process.env.LOG_LEVEL === 'silent') return true;
  return process.env.POWERTOOLS_DEV === 'true' || process.env.POWERTOOLS_DEV === '1';
}

/** Writes one metric value now, with its dimensions and the current correlation ids as metadata. */
export function putMetric<N extends MetricName>(name: N, value: number, dimensions: DimensionsOf<N>): void {
  if (disabled()) return;
  try {
    const m = root().singleMetric();
    for (const [k, v] of Object.entries(dimensions) as Array<[string, string]>) m.addDimension(k, v);
    for (const [k, v] of Object.entries(logContext())) if (typeof v === 'string' && !(k in dimensions)) m.addMetadata(k, v);
    m.addMetric(name, METRICS[name].unit, value);
  } catch {
    // metrics never break the work they describe
  }
}

let cold = true;
/** Counts a cold start once per instance (call at the start of every handler). */
export function coldStart(functionName: string | undefined): void {
  if (!cold) return;
  cold = false;
  putMetric('ColdStart', 1, { function_name: process.env.AWS_LAMBDA_FUNCTION_NAME ?? functionName ?? 'local' });
}

import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE_DEFAULT, type MetricName } from '../../shared/metrics';

/** The EMF namespace the functions write to (POWERTOOLS_METRICS_NAMESPACE, set in serviceEnvironment). */
export const METRICS_NAMESPACE = METRICS_NAMESPACE_DEFAULT;

/** One of the service's EMF metrics (shared/metrics.ts), for the stage whose `service` dimension is `service`. */
export function serviceMetric(service: string, name: MetricName, dimensions: Record<string, string> = {}, opts: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
  return new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { service, ...dimensions }, period: Duration.minutes(5), ...opts });
}

/** A SEARCH expression graphing one EMF metric for every value of its dimensions (e.g. per network). */
function search(service: string, name: MetricName, dimensions: string[], stat: string, label: string): cloudwatch.MathExpression {
  const schema = ['SocialPublishing', 'service', ...dimensions].join(',');
  return new cloudwatch.MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${name}" service="${service}"', '${stat}', 300)`,
    label, usingMetrics: {}, period: Duration.minutes(5),
  });
}

export interface ServiceDashboardProps {
  prefix: string;
  httpApiId: string;
  deadLetterQueues: Array<{ name: string; queue: { metricApproximateNumberOfMessagesVisible(o?: cloudwatch.MetricOptions): cloudwatch.Metric } }>;
}

/**
 * The stage's CloudWatch dashboard: results by network and code, network latency, webhook deliveries and backlog
 * age, schedules fired and lateness, cold starts, the API's answers and the DLQs. Metric names and dimensions are
 * those of shared/metrics.ts.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const s = props.prefix;
    const api = (metricName: string, stat: string) => new cloudwatch.Metric({
      namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiId: props.httpApiId, Stage: '$default' }, statistic: stat, period: Duration.minutes(5),
    });
    const graph = (title: string, left: cloudwatch.IMetric[], width = 12, leftYAxis?: cloudwatch.YAxisProps) =>
      new cloudwatch.GraphWidget({ title, left, width, height: 6, ...(leftYAxis ? { leftYAxis } : {}) });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: s,
      defaultInterval: Duration.hours(6),
      widgets: [
        [new cloudwatch.TextWidget({ markdown: `# ${s}\nResults, latency, webhooks and schedules from the functions' EMF metrics (namespace ${METRICS_NAMESPACE}). Runbooks: docs/operations.md`, width: 24, height: 2 })],
        [
          graph('Published by network (per 5 min)', [search(s, 'PostsPublished', ['platform'], 'Sum', '')]),
          graph('Failed by network (per 5 min)', [search(s, 'PostsFailed', ['platform'], 'Sum', '')]),
        ],
        [
          graph('Failures by network and code', [search(s, 'PostsFailedByCode', ['platform', 'code'], 'Sum', '')]),
          graph('Network latency p90 (ms)', [search(s, 'NetworkLatency', ['platform'], 'p90', '')]),
        ],
        [
          graph('Networks re-driven by the publish sweep', [serviceMetric(s, 'NetworksRedriven', {}, { statistic: 'Sum' })], 24),
        ],
        [
          graph('Webhook deliveries by outcome', [search(s, 'WebhookDeliveries', ['outcome'], 'Sum', '')], 8),
          graph('Webhook backlog age (max, ms)', [serviceMetric(s, 'WebhookBacklogAge', {}, { statistic: 'Maximum' })], 8),
          graph('Cold starts by function', [search(s, 'ColdStart', ['function_name'], 'Sum', '')], 8),
        ],
        [
          graph('Schedules fired by kind, and queued by the per-minute fan-out', [search(s, 'SchedulesFired', ['kind'], 'Sum', ''), search(s, 'SchedulesQueued', ['kind'], 'Sum', '')], 8),
          graph('Schedule lateness p99 (ms)', [search(s, 'ScheduleLateness', ['kind'], 'p99', '')], 8),
          graph('Dead-letter queues (messages)', props.deadLetterQueues.map((d) => d.queue.metricApproximateNumberOfMessagesVisible({ label: d.name, period: Duration.minutes(5), statistic: 'Maximum' })), 8),
        ],
        [
          graph('API requests, 4xx, 5xx', [api('Count', 'Sum'), api('4xx', 'Sum'), api('5xx', 'Sum')]),
          graph('API latency p50 / p99 (ms)', [api('Latency', 'p50'), api('Latency', 'p99')]),
        ],
        [new cloudwatch.SingleValueWidget({
          title: 'Results in the last 24 h', width: 24, height: 3, setPeriodToTimeRange: true,
          metrics: ['PostsPublished', 'PostsFailed'].map((name) => new cloudwatch.MathExpression({
            expression: `SUM(SEARCH('{SocialPublishing,service,platform} MetricName="${name}" service="${s}"', 'Sum', 86400))`,
            label: name === 'PostsPublished' ? 'published' : 'failed', usingMetrics: {}, period: Duration.days(1),
          })),
        })],
      ],
    });
  }
}

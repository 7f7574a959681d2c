import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subs from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import type { ApiStack } from './api-stack';
import type { DataStack } from './data-stack';
import type { WorkersStack } from './workers-stack';
import { ServiceDashboard, serviceMetric } from '../constructs/service-dashboard';
import { PLATFORM_NAMES } from '../../shared/domain/platforms';

/** Alarm thresholds of the issue-14 alarms (runbooks in docs/operations.md). */
export const ALARM_THRESHOLDS = {
  /** A network's failed share of its results over 15 minutes, once it had at least `minResults` results. */
  failureRate: 0.5, minResults: 5,
  /** Oldest webhook try waiting past its due time (ms). */
  webhookBacklogMs: 10 * 60_000,
  // --- Concurrency in AWS
  /** Oldest message of the publish queue (s): a due post should be picked up within seconds. */
  publishQueueAgeSeconds: 5 * 60,
  /** The publish route's p99 duration, as a share of its timeout. */
  postDurationShareOfTimeout: 0.8,
} as const;

/** The route whose function publishes (reserved concurrency, throttle and duration alarms). */
export const POST_ROUTE_ID = 'post-post';

export interface ObservabilityStackProps extends StackProps {
  stage: string;
  data: DataStack;
  api: ApiStack;
  workers: WorkersStack;
  /** Optional address subscribed to the alarm topic. */
  alarmEmail?: string;
}

/**
 * Alarms, all sent to one encrypted SNS topic (ALARM and OK): a message in any DLQ, any API 5xx in 5 minutes, any
 * error of a worker or of the dispatcher, a per-network failure-rate spike, webhook backlog age, Lambda and
 * DynamoDB throttles; and the stage's dashboard. Runbooks: docs/operations.md.
 */
export class ObservabilityStack extends Stack {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ObservabilityStackProps) {
    super(scope, id, props);
    const prefix = props.data.prefix;

    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: `${prefix}: encrypts the alarm topic`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    // CloudWatch publishes to the encrypted topic, so it must be able to use the key.
    key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      topicName: `${prefix}-alarms`,
      displayName: `${prefix} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new subs.EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const alarm = (id: string, metric: cloudwatch.IMetric, description: string, runbook: string) => {
      const a = new cloudwatch.Alarm(this, id, {
        alarmName: `${prefix}-${id}`,
        alarmDescription: `${description} Runbook: docs/operations.md#${runbook}`,
        metric,
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      a.addOkAction(action);
      this.alarms.push(a);
      return a;
    };
    const fiveMinutes = Duration.minutes(5);

    for (const { name, queue } of props.data.deadLetterQueues) {
      alarm(`dlq-${name.replace(/-dlq$/, '')}`,
        queue.metricApproximateNumberOfMessagesVisible({ period: fiveMinutes, statistic: cloudwatch.Stats.MAXIMUM }),
        `Messages are waiting in the dead-letter queue ${prefix}-${name}.`,
        name === 'scheduler-dlq' ? 'alarm-dlq-scheduler' : 'alarm-dlq-worker');
    }
    alarm('api-5xx', props.api.httpApi.metricServerError({ period: fiveMinutes, statistic: cloudwatch.Stats.SUM }),
      'The HTTP API answered 5xx in the last 5 minutes.', 'alarm-api-5xx');
    for (const [id, w] of props.workers.workerFunctions) {
      alarm(`worker-${id}-errors`, w.fn.fn.metricErrors({ period: fiveMinutes, statistic: cloudwatch.Stats.SUM }),
        `The ${id} function failed (threw or timed out) in the last 5 minutes.`, 'alarm-worker-errors');
    }
    alarm('dispatcher-errors', props.api.dispatcher.fn.metricErrors({ period: fiveMinutes, statistic: cloudwatch.Stats.SUM }),
      'The scheduler dispatcher failed in the last 5 minutes (Lambda retries an asynchronous invocation twice, then sends it to the scheduler DLQ).',
      'alarm-dispatcher-errors');

    // --- Observability: dashboard, failure-rate, webhook backlog and throttle alarms ---
    const threshold = (id: string, metric: cloudwatch.IMetric, value: number, description: string, runbook: string, evaluationPeriods = 1) => {
      const a = new cloudwatch.Alarm(this, id, {
        alarmName: `${prefix}-${id}`, alarmDescription: `${description} Runbook: docs/operations.md#${runbook}`,
        metric, threshold: value, evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD, treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      a.addOkAction(action);
      this.alarms.push(a);
      return a;
    };
    const fifteenMinutes = Duration.minutes(15);
    for (const platform of PLATFORM_NAMES) {
      const rate = new cloudwatch.MathExpression({
        // FILL: a total outage publishes no PostsPublished at all; without it the expression would be empty (no alarm)
        expression: `IF((FILL(p, 0) + FILL(f, 0)) >= ${ALARM_THRESHOLDS.minResults}, FILL(f, 0) / (FILL(p, 0) + FILL(f, 0)), 0)`,
        usingMetrics: {
          p: serviceMetric(prefix, 'PostsPublished', { platform }, { statistic: 'Sum', period: fifteenMinutes }),
          f: serviceMetric(prefix, 'PostsFailed', { platform }, { statistic: 'Sum', period: fifteenMinutes }),
        },
        period: fifteenMinutes, label: `${platform} failure rate`,
      });
      threshold(`failure-rate-${platform}`, rate, ALARM_THRESHOLDS.failureRate,
        `More than half of the ${platform} results failed in 15 minutes (at least ${ALARM_THRESHOLDS.minResults} results).`, 'alarm-failure-rate');
    }
    threshold('webhook-backlog-age', serviceMetric(prefix, 'WebhookBacklogAge', {}, { statistic: 'Maximum', period: fiveMinutes }),
      ALARM_THRESHOLDS.webhookBacklogMs, 'A webhook try was sent more than 10 minutes after it was due.', 'alarm-webhook-backlog');
    threshold('lambda-throttles', new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName: 'Throttles', statistic: 'Sum', period: fiveMinutes }),
      0, 'Lambda throttled invocations in this account and region in the last 5 minutes.', 'alarm-throttles');
    threshold('dynamodb-throttles', props.data.table.metricThrottledRequestsForOperations({
      operations: [dynamodb.Operation.GET_ITEM, dynamodb.Operation.PUT_ITEM, dynamodb.Operation.UPDATE_ITEM, dynamodb.Operation.DELETE_ITEM, dynamodb.Operation.QUERY],
      period: fiveMinutes,
    }), 0, 'DynamoDB throttled requests on the table in the last 5 minutes.', 'alarm-throttles');

    // --- Concurrency in AWS: the publish route's throttles and duration, the publish queue's backlog
    const post = props.api.routeFunctions.get(POST_ROUTE_ID);
    if (!post) throw new Error(`No function of route ${POST_ROUTE_ID} in the API stack`);
    threshold('post-throttles', post.fn.metricThrottles({ period: fiveMinutes, statistic: cloudwatch.Stats.SUM }), 0,
      'POST /api/post was throttled in the last 5 minutes (its reserved concurrency is used up).', 'alarm-post-throttles');
    const postTimeoutMs = post.fn.timeout!.toMilliseconds();
    threshold('post-duration', post.fn.metricDuration({ period: fiveMinutes, statistic: cloudwatch.Stats.p(99) }),
      Math.round(postTimeoutMs * ALARM_THRESHOLDS.postDurationShareOfTimeout),
      `POST /api/post took more than ${ALARM_THRESHOLDS.postDurationShareOfTimeout * 100} % of its ${postTimeoutMs / 1000} s timeout at p99 over 5 minutes.`, 'alarm-post-duration');
    const publishQueue = props.data.queueFor('PUBLISH_QUEUE_URL');
    if (publishQueue) {
      threshold('publish-queue-age', publishQueue.metricApproximateAgeOfOldestMessage({ period: fiveMinutes, statistic: cloudwatch.Stats.MAXIMUM }),
        ALARM_THRESHOLDS.publishQueueAgeSeconds, 'A message waited in the publish queue for more than 5 minutes.', 'alarm-publish-queue-age');
    }

    this.dashboard = new ServiceDashboard(this, 'Dashboard', {
      prefix, httpApiId: props.api.httpApi.apiId, deadLetterQueues: props.data.deadLetterQueues,
    }).dashboard;

    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn });
    new CfnOutput(this, 'DashboardUrl', { value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards:name=${prefix}` });
  }
}

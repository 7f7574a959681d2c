import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subs from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import type { ApiStack } from './api-stack';
import type { DataStack } from './data-stack';
import type { WorkersStack } from './workers-stack';

export interface ObservabilityStackProps extends StackProps {
  stage: string;
  data: DataStack;
  api: ApiStack;
  workers: WorkersStack;
  /** Optional address subscribed to the alarm topic. */
  alarmEmail?: string;
}

/**
 * Alarms, all sent to one encrypted SNS topic (ALARM and OK): a message in any DLQ, any API 5xx in 5 minutes, and
 * any error of a worker or of the dispatcher. Runbooks: docs/operations.md.
 */
export class ObservabilityStack extends Stack {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];

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
      'The scheduler dispatcher failed in the last 5 minutes (EventBridge Scheduler retries, then uses its DLQ).',
      'alarm-dispatcher-errors');

    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn });
  }
}

import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { TABLE_DEFINITION, TTL_ATTRIBUTE } from '../../shared/adapters/dynamodb/table-definition';
import { workers, type WorkerDef } from '../../functions/workers';

export interface DataStackProps extends StackProps {
  stage: string;
  /** The service's public origin (publicBaseUrl): the only origin the media bucket accepts browser PUTs from. */
  publicOrigin?: string;
}

/** A worker's queue and the dead-letter queue its messages move to after `maxReceiveCount` receives. */
export interface WorkerQueue {
  def: WorkerDef;
  queue: sqs.Queue;
  dlq: sqs.Queue;
}

/** `prod` keeps its data when the stack or a resource is deleted; other stages clean up after themselves. */
export const isProd = (stage: string) => stage === 'prod';

/**
 * The stateful part: the single table, the credential key, the media bucket (+ its access-log bucket), one queue and
 * DLQ per worker, the EventBridge Scheduler group and the scheduler's DLQ. Nothing here depends on code, so this
 * stack rarely changes and is deployed first.
 */
export class DataStack extends Stack {
  readonly prefix: string;
  readonly table: dynamodb.Table;
  readonly tableIndexNames: string[];
  readonly key: kms.Key;
  /** Customer-managed key of the table's encryption at rest. */
  readonly tableKey: kms.Key;
  /** Customer-managed key of every log group of the service. */
  readonly logsKey: kms.Key;
  readonly mediaBucket: s3.Bucket;
  readonly accessLogsBucket: s3.Bucket;
  /** Export holding the media bucket ARN, imported by name by the IAM grants (see grants.ts). */
  readonly mediaBucketArnExport: string;
  readonly workerQueues: WorkerQueue[];
  readonly scheduleGroupName: string;
  readonly schedulerDlq: sqs.Queue;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    // S3 server access logs via a bucket policy for logging.s3.amazonaws.com instead of the legacy LogDeliveryWrite
    // ACL, so both buckets keep ACLs disabled (BucketOwnerEnforced). cdk.json does not set this flag; scoped here.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const prod = isProd(props.stage);
    const removalPolicy = prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.prefix = `SocialPublishing-${props.stage}`;

    // ---- Table: the same physical shape as the local runtime's (table-definition.ts).
    const keyOf = (name: string | undefined): dynamodb.Attribute => {
      const def = TABLE_DEFINITION.AttributeDefinitions?.find((a) => a.AttributeName === name);
      if (!name || !def) throw new Error(`table-definition.ts: attribute ${String(name)} is not defined`);
      const type = { S: dynamodb.AttributeType.STRING, N: dynamodb.AttributeType.NUMBER, B: dynamodb.AttributeType.BINARY }[def.AttributeType ?? 'S'];
      return { name, type };
    };
    const hashOf = (ks: typeof TABLE_DEFINITION.KeySchema) => keyOf(ks?.find((k) => k.KeyType === 'HASH')?.AttributeName);
    const rangeOf = (ks: typeof TABLE_DEFINITION.KeySchema) => {
      const name = ks?.find((k) => k.KeyType === 'RANGE')?.AttributeName;
      return name ? keyOf(name) : undefined;
    };
    this.tableKey = new kms.Key(this, 'TableKey', {
      description: `${this.prefix}: encryption at rest of the table`,
      alias: `alias/${this.prefix.toLowerCase()}-table`,
      enableKeyRotation: true,
      removalPolicy,
      ...(prod ? {} : { pendingWindow: Duration.days(7) }),
    });
    this.table = new dynamodb.Table(this, 'Table', {
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.tableKey,
      partitionKey: hashOf(TABLE_DEFINITION.KeySchema),
      ...(rangeOf(TABLE_DEFINITION.KeySchema) ? { sortKey: rangeOf(TABLE_DEFINITION.KeySchema) } : {}),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: prod,
      removalPolicy,
    });
    this.tableIndexNames = [];
    for (const gsi of TABLE_DEFINITION.GlobalSecondaryIndexes ?? []) {
      if (gsi.Projection?.ProjectionType !== 'ALL') throw new Error(`GSI ${gsi.IndexName}: only ALL projections are mapped`);
      const sortKey = rangeOf(gsi.KeySchema);
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.IndexName!,
        partitionKey: hashOf(gsi.KeySchema),
        ...(sortKey ? { sortKey } : {}),
        projectionType: dynamodb.ProjectionType.ALL,
      });
      this.tableIndexNames.push(gsi.IndexName!);
    }

    // ---- KMS key for envelope encryption of network credentials (shared/adapters/aws/kms-cipher.ts).
    this.key = new kms.Key(this, 'CredentialsKey', {
      description: `${this.prefix}: envelope encryption of stored network credentials`,
      alias: `alias/${this.prefix.toLowerCase()}-credentials`,
      enableKeyRotation: true,
      removalPolicy,
      ...(prod ? {} : { pendingWindow: Duration.days(7) }),
    });

    // ---- KMS key of the log groups: CloudWatch Logs may use it only for this account's log groups.
    this.logsKey = new kms.Key(this, 'LogsKey', {
      description: `${this.prefix}: encryption of the service's log groups`,
      alias: `alias/${this.prefix.toLowerCase()}-logs`,
      enableKeyRotation: true,
      removalPolicy,
      ...(prod ? {} : { pendingWindow: Duration.days(7) }),
    });
    this.logsKey.addToResourcePolicy(new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal(`logs.${Aws.REGION}.amazonaws.com`)],
      actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
      resources: ['*'],
      conditions: { ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:*` } },
    }));

    // ---- Media: uploads arrive by presigned PUT from the browser upload page; uploads live 30 days.
    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(90) }],
      removalPolicy,
    });
    // (cdk-nag S1 accepts this bucket without its own access logs because it is the media bucket's log destination.)

    this.mediaBucket = new s3.Bucket(this, 'Media', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'media/',
      // Uploads (media/) live 30 days, exports (exports/: CSV behind a 15-minute link) one day; branding logos
      // (branding/) never expire: a branding keeps its logo until it is replaced.
      lifecycleRules: [
        { id: 'expire-media', prefix: 'media/', expiration: Duration.days(30) },
        { id: 'expire-exports', prefix: 'exports/', expiration: Duration.days(1) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // browsers PUT only from the service's own pages (the upload page); files are read through redirects, not CORS
      cors: [{
        allowedMethods: [s3.HttpMethods.PUT],
        allowedOrigins: [props.publicOrigin ?? `https://*.execute-api.${Aws.REGION}.amazonaws.com`],
        allowedHeaders: ['content-type', 'content-length'],
        exposedHeaders: ['etag'],
        maxAge: 3000,
      }],
      removalPolicy,
    });
    this.mediaBucketArnExport = `${this.stackName}-MediaBucketArn`;
    new CfnOutput(this, 'MediaBucketArn', { value: this.mediaBucket.bucketArn, exportName: this.mediaBucketArnExport });

    // ---- One queue + DLQ per worker (functions/workers.ts).
    this.workerQueues = workers.map((def) => {
      // AWS: "set the source queue's visibility timeout to at least six times the configuration timeout on your function"
      if (def.visibilityTimeoutSeconds < 6 * def.timeoutSeconds) {
        throw new Error(`Worker ${def.id}: visibility timeout ${def.visibilityTimeoutSeconds}s is below 6 × its timeout ${def.timeoutSeconds}s`);
      }
      const id = pascal(def.queueName);
      const dlq = new sqs.Queue(this, `${id}Dlq`, {
        queueName: `${this.prefix}-${def.queueName}-dlq`,
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        removalPolicy,
      });
      const queue = new sqs.Queue(this, `${id}Queue`, {
        queueName: `${this.prefix}-${def.queueName}`,
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        deadLetterQueue: { queue: dlq, maxReceiveCount: def.maxReceiveCount },
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        removalPolicy,
      });
      return { def, queue, dlq };
    });

    // ---- EventBridge Scheduler: the group holding every one-time schedule, and where failed invocations land.
    this.scheduleGroupName = this.prefix;
    const group = new scheduler.CfnScheduleGroup(this, 'ScheduleGroup', { name: this.scheduleGroupName });
    group.applyRemovalPolicy(removalPolicy);
    this.schedulerDlq = new sqs.Queue(this, 'SchedulerDlq', {
      queueName: `${this.prefix}-scheduler-dlq`,
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy,
    });
    Validations.of(this.schedulerDlq).acknowledge({
      id: 'AwsSolutions::AwsSolutions-SQS3',
      reason: "This queue is itself a dead-letter queue: EventBridge Scheduler's DeadLetterConfig for schedules whose "
        + 'dispatcher invocation failed after its retries. It is never consumed automatically (alarm + runbook).',
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'MediaBucketName', { value: this.mediaBucket.bucketName });
    new CfnOutput(this, 'ScheduleGroupName', { value: this.scheduleGroupName });
  }

  /** The queue whose URL reaches functions through `env` (undefined when no worker consumes it). */
  queueFor(env: WorkerDef['queueEnv']): sqs.Queue | undefined {
    return this.workerQueues.find((q) => q.def.queueEnv === env)?.queue;
  }

  /** Every DLQ, with a short name for alarms. */
  get deadLetterQueues(): { name: string; queue: sqs.Queue }[] {
    return [
      ...this.workerQueues.map((q) => ({ name: `${q.def.queueName}-dlq`, queue: q.dlq })),
      { name: 'scheduler-dlq', queue: this.schedulerDlq },
    ];
  }
}

export function pascal(id: string): string {
  return id.split(/[^A-Za-z0-9]+/).filter(Boolean).map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
}

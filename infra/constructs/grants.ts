import { Fn, Stack, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Grant } from '../../shared/http/route';
import type { AppFunction } from './app-function';
import { TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS, type TableStatement } from '../table-access';

/**
 * What the route/worker `grants` names refer to. Built by the stacks from the data stack's resources; the
 * scheduler role lives in the API stack next to the dispatcher it invokes.
 */
export interface GrantTargets {
  table: dynamodb.ITable;
  /** The table's customer-managed key: using the table needs it (DynamoDB calls KMS on the caller's behalf). */
  tableKey?: kms.IKey;
  /** The table's GSIs: granted by name, so no `index/*` wildcard. */
  tableIndexNames: readonly string[];
  publishQueue?: sqs.IQueue;
  webhookQueue?: sqs.IQueue;
  fireQueue?: sqs.IQueue;
  /** Name of the export holding the media bucket's ARN (named, so the IAM5 acknowledgement below is stable). */
  mediaBucketArnExport: string;
  key: kms.IKey;
  scheduleGroupName: string;
  schedulerRole: iam.IRole;
  /** The SES sender (MAIL_FROM); its address and its domain are the identities it may send as. */
  mailFrom: string;
  /**
   * Non-prod stages: the account is usually still in the SES sandbox, where SES also authorizes the send against each
   * recipient's (verified) identity, so `ses:SendEmail` is granted on the account's identities, not only the sender's.
   */
  sesSandboxRecipients?: boolean;
  /** SSM Parameter Store path holding the OAuth client registrations (OAUTH_SSM_PREFIX). */
  oauthSsmPrefix: string;
  /** SSM Parameter Store path holding Stripe's keys and prices (BILLING_SSM_PREFIX). */
  billingSsmPrefix: string;
  // --- AI drafts
  /** The Bedrock foundation model the AI draft functions may invoke (BEDROCK_MODEL_ID). */
  bedrockModelId: string;
}


/** The table statement of workers and the dispatcher: read and write any item. */
export const FULL_TABLE_ACCESS: readonly TableStatement[] = [{ actions: [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS] }];

/**
 * Gives `target` exactly the listed permissions (least privilege: nothing is granted by default); `table` grants
 * `tableStatements` (a route's, from infra/table-access.ts; default: read and write any item).
 */
export function applyGrants(target: AppFunction, grants: readonly Grant[], t: GrantTargets, tableStatements: readonly TableStatement[] = FULL_TABLE_ACCESS): void {
  for (const grant of new Set(grants)) {
    switch (grant) {
      case 'table': grantTable(target, t, tableStatements); break;
      case 'publishQueue': queue(t.publishQueue, 'publishQueue', 'PUBLISH_QUEUE_URL').grantSendMessages(target.fn); break;
      case 'webhookQueue': queue(t.webhookQueue, 'webhookQueue', 'WEBHOOK_QUEUE_URL').grantSendMessages(target.fn); break;
      case 'fireQueue': queue(t.fireQueue, 'fireQueue', 'FIRE_QUEUE_URL').grantSendMessages(target.fn); break;
      case 'bucket': grantBucket(target, t, ['s3:GetObject', 's3:PutObject', 's3:DeleteObject']); break;
      case 'bucketRead': grantBucket(target, t, ['s3:GetObject']); break;
      case 'kms': t.key.grant(target.fn, 'kms:Encrypt', 'kms:Decrypt', 'kms:GenerateDataKey'); break;
      // the envelope cipher encrypts with a new data key (GenerateDataKey) and decrypts by unwrapping it (Decrypt)
      case 'kmsEncrypt': t.key.grant(target.fn, 'kms:GenerateDataKey'); break;
      case 'kmsDecrypt': t.key.grant(target.fn, 'kms:Decrypt'); break;
      case 'ses': grantSes(target, t); break;
      case 'scheduler': grantScheduler(target, t); break;
      case 'oauthConfig': grantOAuthConfig(target, t); break;
      case 'billingConfig': grantBillingConfig(target, t); break;
      case 'bedrock': grantBedrock(target, t); break;
      default: {
        const unknown: never = grant;
        throw new Error(`Unknown grant ${String(unknown)}`);
      }
    }
  }
}

function queue(q: sqs.IQueue | undefined, grant: string, env: string): sqs.IQueue {
  if (!q) throw new Error(`Grant ${grant}: no worker in functions/workers.ts consumes ${env}, so there is no queue to send to`);
  return q;
}

/**
 * The table statements on the table and its indexes; a statement bounded to partition-key prefixes gets the
 * `dynamodb:LeadingKeys` condition (on an index it applies to the index's partition key) — every key of the
 * request must match one prefix, and a request without a key (Scan) is never granted.
 */
function grantTable(target: AppFunction, t: GrantTargets, statements: readonly TableStatement[]): void {
  const arn = t.table.tableArn;
  for (const s of statements) {
    target.fn.addToRolePolicy(new iam.PolicyStatement({
      actions: [...s.actions],
      resources: [arn, ...t.tableIndexNames.map((name) => `${arn}/index/${name}`)],
      ...(s.prefixes || s.attributes ? {
        conditions: {
          ...(s.prefixes ? { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': s.prefixes.map((p) => `${p}*`) } } : {}),
          ...(s.attributes ? { 'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...s.attributes] } } : {}),
        },
      } : {}),
    }));
  }
  // the table key, only through DynamoDB (kms:ViaService): the role cannot use it directly
  if (t.tableKey) {
    target.fn.addToRolePolicy(new iam.PolicyStatement({
      actions: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:ReEncryptFrom', 'kms:ReEncryptTo'],
      resources: [t.tableKey.keyArn],
      conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${Stack.of(target).region}.amazonaws.com` } },
    }));
  }
}

function grantBucket(target: AppFunction, t: GrantTargets, actions: string[]): void {
  const bucketArn = Fn.importValue(t.mediaBucketArnExport);
  target.fn.addToRolePolicy(new iam.PolicyStatement({ actions, resources: [`${bucketArn}/*`] }));
  Validations.of(target).acknowledge({
    id: `AwsSolutions::AwsSolutions-IAM5[Resource::${t.mediaBucketArnExport}/*]`,
    reason: 'Object-level actions (s3:GetObject/PutObject/DeleteObject) on the media bucket only: object keys are '
      + 'generated per upload, so they cannot be listed in advance. No bucket-level or s3:* action is granted.',
  });
}

function grantSes(target: AppFunction, t: GrantTargets): void {
  const address = senderAddress(t.mailFrom);
  const domain = address.split('@')[1];
  const stack = Stack.of(target);
  const identities = [address, ...(domain ? [domain] : [])].map((name) =>
    stack.formatArn({ service: 'ses', resource: 'identity', resourceName: name }));
  target.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['ses:SendEmail'], resources: identities }));
  if (t.sesSandboxRecipients) {
    const anyIdentity = 'arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/*';
    target.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['ses:SendEmail'], resources: [Fn.sub(anyIdentity)] }));
    Validations.of(target).acknowledge({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::${anyIdentity.replace(/\$\{/g, '<').replace(/\}/g, '>')}]`,
      reason: 'Non-prod stages only: in the SES sandbox every recipient must be a verified identity of this account and SES '
        + 'authorizes the send against it too, so the mailing functions may send to the account\'s own identities. Prod grants the sender\'s identities only.',
    });
  }
}

/** `Name <a@b.c>` or `a@b.c` → `a@b.c`. */
export function senderAddress(mailFrom: string): string {
  const m = /<([^>]+)>/.exec(mailFrom);
  return (m?.[1] ?? mailFrom).trim();
}

function grantScheduler(target: AppFunction, t: GrantTargets): void {
  // Fn::Sub with pseudo parameters: the same text in every environment, so the acknowledgement id is stable.
  const schedules = `arn:\${AWS::Partition}:scheduler:\${AWS::Region}:\${AWS::AccountId}:schedule/${t.scheduleGroupName}/*`;
  target.fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
    resources: [Fn.sub(schedules)],
  }));
  target.fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['iam:PassRole'],
    resources: [t.schedulerRole.roleArn],
    conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
  }));
  Validations.of(target).acknowledge({
    id: `AwsSolutions::AwsSolutions-IAM5[Resource::${schedules.replace(/\$\{/g, '<').replace(/\}/g, '>')}]`,
    reason: 'One-time schedules are created per post with generated names; the wildcard covers only schedules inside '
      + `this service's own schedule group (${t.scheduleGroupName}), never the default group or other groups.`,
  });
}

/** GetParametersByPath on the OAuth registrations' path only (SecureStrings under the AWS-managed aws/ssm key). */
function grantOAuthConfig(target: AppFunction, t: GrantTargets): void {
  const stack = Stack.of(target);
  target.fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['ssm:GetParametersByPath'],
    resources: [stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: t.oauthSsmPrefix.replace(/^\//, '') })],
  }));
}

/** GetParametersByPath on the billing path only: Stripe's secret key, webhook secret and prices (SecureStrings). */
function grantBillingConfig(target: AppFunction, t: GrantTargets): void {
  const stack = Stack.of(target);
  target.fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['ssm:GetParametersByPath'],
    resources: [stack.formatArn({ service: 'ssm', resource: 'parameter', resourceName: t.billingSsmPrefix.replace(/^\//, '') })],
  }));
}

/** bedrock:InvokeModel (which Converse needs) on the configured foundation model in the stack's region, nothing else. */
function grantBedrock(target: AppFunction, t: GrantTargets): void {
  const stack = Stack.of(target);
  target.fn.addToRolePolicy(new iam.PolicyStatement({
    actions: ['bedrock:InvokeModel'],
    resources: [stack.formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: t.bedrockModelId })],
  }));
}

/**
 * A declaration's grants without the queue grants whose queue this deployment does not have (no worker consumes
 * it), which `applyGrants` would refuse: a function sends only to queues that exist.
 */
export function withQueues(grants: readonly Grant[], t: Pick<GrantTargets, 'publishQueue' | 'webhookQueue' | 'fireQueue'>): Grant[] {
  return grants.filter((g) => (g !== 'publishQueue' || !!t.publishQueue) && (g !== 'webhookQueue' || !!t.webhookQueue) && (g !== 'fireQueue' || !!t.fireQueue));
}

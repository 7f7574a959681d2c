/**
 * What IAM sees of an AWS SDK command (the action, the resource ARN, the condition keys), with the local names of
 * the table, bucket and queues mapped to the synthesized ARNs (./policies.ts). Also the requests the AWS adapters
 * would make where the local runtime uses a stand-in (local key, outbox mailer, table scheduler, local drafter).
 */
import { BUCKET_ARN, REGION, ACCOUNT, SYNTH_MAIL_FROM, TABLE_ARN, type SynthesizedPolicies } from './policies';
import type { IamRequest } from './simulate';

type Attr = unknown;
const text = (v: Attr): string | undefined => {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { S?: unknown }).S === 'string') return (v as { S: string }).S;
  return undefined;
};
const pkOf = (item: unknown, attr = 'pk'): string | undefined => (item && typeof item === 'object' ? text((item as Record<string, Attr>)[attr]) : undefined);

/** The partition-key value a Query's key condition names (`pk = :v` or, on the index, `gsi1pk = :v`). */
function queryKey(input: Record<string, unknown>): string | undefined {
  const attr = input.IndexName ? 'gsi1pk' : 'pk';
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, Attr>;
  for (const m of String(input.KeyConditionExpression ?? '').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const name = m[1]!.startsWith('#') ? names[m[1]!] : m[1];
    if (name === attr) return text(values[m[2]!]);
  }
  return undefined;
}

const NOT_ATTRIBUTES = new Set(['set', 'add', 'remove', 'delete', 'and', 'or', 'not', 'between', 'in', 'attribute_exists', 'attribute_not_exists',
  'attribute_type', 'begins_with', 'contains', 'size', 'if_not_exists', 'list_append']);

/** The top-level attribute names of expressions (`#name` resolved, bare names as written, values and paths left out). */
function expressionAttributes(input: Record<string, unknown>, fields: string[]): string[] {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const out = new Set<string>();
  for (const field of fields) {
    for (const m of String(input[field] ?? '').matchAll(/(?<![:\w.#])(#?[A-Za-z_][A-Za-z0-9_]*)/g)) {
      const token = m[1]!;
      if (token.startsWith('#')) { if (names[token]) out.add(names[token]!); } else if (!NOT_ATTRIBUTES.has(token.toLowerCase())) out.add(token);
    }
  }
  return [...out];
}

/** The DynamoDB action of an SDK command (document-client names too: PutCommand → PutItem). */
const DYNAMO_ACTIONS: Record<string, string> = {
  Get: 'GetItem', Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', BatchGet: 'BatchGetItem', BatchWrite: 'BatchWriteItem',
  TransactGet: 'GetItem', TransactWrite: 'TransactWriteItems',
};

/** A DynamoDB command as IAM sees it, with its condition keys (`dynamodb:LeadingKeys`, `Attributes`, `ReturnValues`, `Select`). */
export function dynamoRequests(commandName: string, input: Record<string, unknown>): IamRequest[] {
  const base = commandName.replace(/Command$/, '');
  const op = DYNAMO_ACTIONS[base] ?? base;
  const action = `dynamodb:${op}`;
  const keys: Array<string | undefined> = [];
  let attributes: string[] | undefined;
  switch (op) {
    case 'GetItem': case 'DeleteItem': keys.push(pkOf(input.Key)); attributes = op === 'GetItem' && input.ProjectionExpression ? expressionAttributes(input, ['ProjectionExpression']) : undefined; break;
    case 'UpdateItem':
      keys.push(pkOf(input.Key));
      attributes = [...new Set([...Object.keys((input.Key ?? {}) as object), ...expressionAttributes(input, ['UpdateExpression', 'ConditionExpression'])])];
      break;
    case 'PutItem':
      keys.push(pkOf(input.Item));
      attributes = [...new Set([...Object.keys((input.Item ?? {}) as object), ...expressionAttributes(input, ['ConditionExpression'])])];
      break;
    case 'Query': keys.push(queryKey(input)); break;
    case 'BatchGetItem':
      for (const req of Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>)) keys.push(...(req.Keys ?? []).map((k) => pkOf(k)));
      break;
    case 'BatchWriteItem':
      for (const reqs of Object.values((input.RequestItems ?? {}) as Record<string, Array<{ PutRequest?: { Item?: unknown }; DeleteRequest?: { Key?: unknown } }>>)) {
        keys.push(...reqs.map((r) => pkOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)));
      }
      break;
    default: break;
  }
  const leadingKeys = keys.filter((k): k is string => typeof k === 'string');
  const resource = input.IndexName ? `${TABLE_ARN}/index/${String(input.IndexName)}` : TABLE_ARN;
  const context: Record<string, string | string[]> = {};
  if (leadingKeys.length) context['dynamodb:LeadingKeys'] = leadingKeys;
  if (attributes?.length) context['dynamodb:Attributes'] = attributes;
  if (typeof input.ReturnValues === 'string') context['dynamodb:ReturnValues'] = input.ReturnValues;
  if (typeof input.Select === 'string') context['dynamodb:Select'] = input.Select;
  return [{ action, resource, context, ...(leadingKeys.length ? {} : { noKey: true }) }];
}

const SQS_BATCH: Record<string, string> = { SendMessageBatch: 'SendMessage', DeleteMessageBatch: 'DeleteMessage', ChangeMessageVisibilityBatch: 'ChangeMessageVisibility' };

/** An SQS command: the queue named by the URL's last segment (the worker queue names are the same locally and in the templates). */
export function sqsRequests(p: SynthesizedPolicies, commandName: string, input: Record<string, unknown>): IamRequest[] {
  const op = commandName.replace(/Command$/, '');
  const name = String(input.QueueUrl ?? input.QueueName ?? '').split('/').pop() ?? '';
  return [{ action: `sqs:${SQS_BATCH[op] ?? op}`, resource: p.arns.queues[name] ?? `arn:aws:sqs:${REGION}:${ACCOUNT}:${name}` }];
}

const S3_ACTIONS: Record<string, string> = { HeadObject: 'GetObject', GetObject: 'GetObject', PutObject: 'PutObject', DeleteObject: 'DeleteObject', CopyObject: 'PutObject', CreateMultipartUpload: 'PutObject', UploadPart: 'PutObject', CompleteMultipartUpload: 'PutObject' };

/** An S3 object command on the media bucket (any local bucket name maps to it). */
export function s3Requests(commandName: string, input: Record<string, unknown>): IamRequest[] {
  const op = commandName.replace(/Command$/, '');
  const action = `s3:${S3_ACTIONS[op] ?? op}`;
  const resource = input.Key !== undefined ? `${BUCKET_ARN}/${String(input.Key)}` : BUCKET_ARN;
  const out: IamRequest[] = [{ action, resource }];
  if (op === 'CopyObject' && typeof input.CopySource === 'string') out.push({ action: 's3:GetObject', resource: `${BUCKET_ARN}/${input.CopySource.split('/').slice(1).join('/')}` });
  return out;
}

/** A KMS request on the service's credentials key with its encryption context. */
export function kmsRequest(p: SynthesizedPolicies, op: 'GenerateDataKey' | 'Decrypt' | 'Encrypt', context?: Record<string, string>): IamRequest {
  const c: Record<string, string | string[]> = {};
  if (context && Object.keys(context).length) {
    for (const [k, v] of Object.entries(context)) c[`kms:EncryptionContext:${k}`] = v;
    c['kms:EncryptionContextKeys'] = Object.keys(context);
  }
  return { action: `kms:${op}`, resource: p.arns.credentialsKey, context: c };
}

/** The requests of creating, updating or deleting a schedule in the service's group (creating passes the scheduler role). */
export function schedulerRequests(p: SynthesizedPolicies, op: 'CreateSchedule' | 'UpdateSchedule' | 'DeleteSchedule', name: string, group = p.arns.scheduleGroup): IamRequest[] {
  const out: IamRequest[] = [{ action: `scheduler:${op}`, resource: `arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/${group}/${name}` }];
  if (op !== 'DeleteSchedule') out.push({ action: 'iam:PassRole', resource: p.arns.schedulerRole, context: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
  return out;
}

/** `Name <a@b.c>` → `a@b.c`. */
const address = (from: string): string => (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();

/** SES SendEmail from the configured sender's identity (the synthesized sender stands for MAIL_FROM). */
export function sesRequests(): IamRequest[] {
  const from = address(SYNTH_MAIL_FROM);
  return [{ action: 'ses:SendEmail', resource: `arn:aws:ses:${REGION}:${ACCOUNT}:identity/${from}`, context: { 'ses:FromAddress': from } }];
}

/** Bedrock InvokeModel (what Converse needs) on the configured model. */
export function bedrockRequest(p: SynthesizedPolicies, model = p.arns.bedrockModel): IamRequest {
  return { action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:${REGION}::foundation-model/${model}` };
}

/** SSM GetParametersByPath / GetParameter(s) on the parameter path. */
export function ssmRequests(commandName: string, input: Record<string, unknown>): IamRequest[] {
  const op = commandName.replace(/Command$/, '');
  const names = op === 'GetParametersByPath' ? [String(input.Path ?? '')] : op === 'GetParameters' ? (input.Names as string[] ?? []) : [String(input.Name ?? '')];
  return names.map((n) => ({ action: `ssm:${op}`, resource: `arn:aws:ssm:${REGION}:${ACCOUNT}:parameter/${n.replace(/^\//, '')}` }));
}

/** The requests of an SDK command sent by a client of `clientName` (DynamoDBDocumentClient, SQSClient, …); undefined: not an AWS service call we map. */
export function requestsOf(p: SynthesizedPolicies, clientName: string, commandName: string, input: Record<string, unknown>): IamRequest[] | undefined {
  if (clientName.startsWith('DynamoDB')) return dynamoRequests(commandName, input);
  if (clientName === 'SQSClient') return sqsRequests(p, commandName, input);
  if (clientName === 'S3Client') return s3Requests(commandName, input);
  if (clientName === 'KMSClient') {
    const op = commandName.replace(/Command$/, '') as 'GenerateDataKey' | 'Decrypt' | 'Encrypt';
    return [kmsRequest(p, op, input.EncryptionContext as Record<string, string> | undefined)];
  }
  if (clientName === 'SchedulerClient') return schedulerRequests(p, commandName.replace(/Command$/, '') as 'CreateSchedule', String(input.Name), String(input.GroupName ?? p.arns.scheduleGroup));
  if (clientName === 'SESv2Client') return sesRequests();
  if (clientName === 'SSMClient') return ssmRequests(commandName, input);
  if (clientName === 'BedrockRuntimeClient') return [bedrockRequest(p, String(input.modelId ?? p.arns.bedrockModel))];
  return undefined;
}

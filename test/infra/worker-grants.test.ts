/**
 * Each queue worker and the dispatcher get exactly the IAM rights of their own declaration in functions/workers.ts — the
 * declaration their bundle's wiring is built from (shared/wiring/declaration.ts) — read back from the synthesised
 * templates (no bundling, no template validation).
 */
process.env.CDK_VALIDATION = 'false';

import { App, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { buildStacks, type ServiceStacks } from '../../bin/app';
import { dispatcher, fireWorker, publishWorker, webhookWorker, workers, type WorkerDef } from '../../functions/workers';
import type { Grant } from '../../shared/http/route';

type Statement = { Action: string | string[]; Resource: unknown; Condition?: { StringEquals?: Record<string, unknown> } };
type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

let stacks: ServiceStacks;
let workerTemplate: Template;
let apiTemplate: Template;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'Social Publishing <no-reply@mail.example.org>' } });
  stacks = buildStacks(app);
  workerTemplate = Template.fromStack(stacks.workers);
  apiTemplate = Template.fromStack(stacks.api);
});

const logicalId = (stack: Stack, c: IConstruct) => stack.getLogicalId(c.node.defaultChild as CfnElement);
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

/** The statements of the role of the function described `description` (the table key's through-DynamoDB use left out: it comes with `table`). */
function statementsOf(t: Template, description: string): Statement[] {
  const fns = Object.values(t.findResources('AWS::Lambda::Function', { Properties: { Description: description } }) as Resources);
  expect(fns).toHaveLength(1);
  const roleId = fns[0]!.Properties.Role['Fn::GetAtt'][0] as string;
  return Object.values(t.findResources('AWS::IAM::Policy') as Resources)
    .filter((p) => (p.Properties.Roles as Array<{ Ref: string }>).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
    .filter((s) => !s.Condition?.StringEquals?.['kms:ViaService']);
}

/** The grants a role's statements amount to, recognised by action and resource (the inverse of infra/constructs/grants.ts). */
function grantsIn(statements: Statement[]): Set<Grant> {
  const data = stacks.data;
  const queueId = (env: WorkerDef['queueEnv']) => logicalId(data, data.workerQueues.find((q) => q.def.queueEnv === env)!.queue);
  const credentialsKey = logicalId(data, data.key);
  const grants = new Set<Grant>();
  for (const s of statements) {
    const actions = actionsOf(s);
    const resource = JSON.stringify(s.Resource);
    if (actions.includes('dynamodb:UpdateItem')) grants.add('table');
    if (actions.includes('sqs:SendMessage') && resource.includes(queueId('PUBLISH_QUEUE_URL'))) grants.add('publishQueue');
    if (actions.includes('sqs:SendMessage') && resource.includes(queueId('WEBHOOK_QUEUE_URL'))) grants.add('webhookQueue');
    if (actions.includes('sqs:SendMessage') && resource.includes(queueId('FIRE_QUEUE_URL'))) grants.add('fireQueue');
    if (actions.includes('s3:PutObject')) grants.add('bucket');
    else if (actions.includes('s3:GetObject')) grants.add('bucketRead');
    if (resource.includes(credentialsKey)) {
      const encrypts = actions.includes('kms:GenerateDataKey');
      const decrypts = actions.includes('kms:Decrypt');
      grants.add(encrypts && decrypts ? 'kms' : encrypts ? 'kmsEncrypt' : 'kmsDecrypt');
    }
    if (actions.includes('ses:SendEmail')) grants.add('ses');
    if (actions.includes('scheduler:CreateSchedule')) grants.add('scheduler');
    if (actions.includes('ssm:GetParametersByPath')) grants.add(resource.includes('/oauth') ? 'oauthConfig' : 'billingConfig');
    if (actions.includes('bedrock:InvokeModel')) grants.add('bedrock');
  }
  return grants;
}

const workerDescription = (def: WorkerDef) => `Consumes ${def.queueName} (${def.queueEnv})`;
const DISPATCHER_DESCRIPTION = 'EventBridge Scheduler target: fires scheduled and deferred posts';

describe('per-worker IAM', () => {
  test.each(workers.map((w) => [w.id, w] as const))('%s has exactly the grants it declares', (_id, def) => {
    expect(grantsIn(statementsOf(workerTemplate, workerDescription(def)))).toEqual(new Set(def.grants));
  });

  test('the dispatcher has exactly the grants it declares', () => {
    expect(grantsIn(statementsOf(apiTemplate, DISPATCHER_DESCRIPTION))).toEqual(new Set(dispatcher.grants));
  });

  test('the webhook worker only decrypts signing secrets: no encryption, no media, no OAuth settings, no publish queue', () => {
    expect(webhookWorker.grants).not.toContain('kms');
    const actions = statementsOf(workerTemplate, workerDescription(webhookWorker)).flatMap(actionsOf);
    expect(actions).toContain('kms:Decrypt');
    expect(actions).toEqual(expect.not.arrayContaining(['kms:GenerateDataKey', 'kms:Encrypt', 's3:GetObject', 'ssm:GetParametersByPath']));
    expect(grantsIn(statementsOf(workerTemplate, workerDescription(webhookWorker)))).not.toContain('publishQueue');
  });

  test('the publish worker may renew tokens, defer, read media, queue its own resumes and webhook tries, and email the owner of a lost sign-in', () => {
    const statements = statementsOf(workerTemplate, workerDescription(publishWorker));
    expect(statements.flatMap(actionsOf)).toEqual(expect.arrayContaining([
      'kms:Encrypt', 'kms:Decrypt', 'kms:GenerateDataKey', 'scheduler:CreateSchedule', 'iam:PassRole', 's3:GetObject', 'ssm:GetParametersByPath',
      // a sign-in found lost while publishing emails the owner its connect link (connection.reauth_required)
      'ses:SendEmail',
    ]));
    expect([...grantsIn(statements)]).toEqual(expect.arrayContaining(['publishQueue', 'webhookQueue']));
    expect(statements.flatMap(actionsOf)).not.toContain('s3:PutObject');
  });

  test('the dispatcher queues fire messages to the fire queue; the fire worker consumes it and sends to none but the publish and webhook queues', () => {
    const fireQueue = logicalId(stacks.data, stacks.data.workerQueues.find((q) => q.def.id === fireWorker.id)!.queue);
    const dispatcherSends = statementsOf(apiTemplate, DISPATCHER_DESCRIPTION).filter((s) => actionsOf(s).includes('sqs:SendMessage'));
    expect(dispatcherSends.some((s) => JSON.stringify(s.Resource).includes(fireQueue))).toBe(true);
    const worker = statementsOf(workerTemplate, workerDescription(fireWorker));
    expect(worker.filter((s) => actionsOf(s).includes('sqs:ReceiveMessage')).map((s) => JSON.stringify(s.Resource))).toEqual([expect.stringContaining(fireQueue)]);
    expect([...grantsIn(worker)]).not.toContain('fireQueue');
  });

  test('the dispatcher decrypts credentials for its checks but encrypts nothing', () => {
    const actions = statementsOf(apiTemplate, DISPATCHER_DESCRIPTION).flatMap(actionsOf);
    expect(actions).toEqual(expect.arrayContaining(['kms:Decrypt', 'sqs:SendMessage', 'scheduler:CreateSchedule', 'ses:SendEmail']));
    expect(actions).toEqual(expect.not.arrayContaining(['kms:GenerateDataKey', 'kms:Encrypt', 's3:GetObject']));
  });
});

/**
 * CDK assertions on the four stacks, synthesised without bundling (context aws:cdk:bundling-stacks = []) and without
 * aws-cdk-lib's template validation, so the whole file runs in about a second.
 */
process.env.CDK_VALIDATION = 'false';

import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { buildStacks, type ServiceStacks } from '../../bin/app';
import { apiRoutes, deployedRoutes } from '../../infra/stacks/api-stack';
import { routesOfGroup, routeGroups } from '../../infra/stacks/route-group-stack';
import { routeList } from '../../functions/routes';
import { workers } from '../../functions/workers';
import type { Grant } from '../../shared/http/route';
import { templateWithNested } from '../support/cdk';

type Resources = Record<string, { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string }>;

function build(context: Record<string, unknown> = {}): ServiceStacks {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'Social Publishing <no-reply@mail.example.org>', ...context } });
  return buildStacks(app);
}

let stacks: ServiceStacks;
let data: Template;
let api: Template;
let worker: Template;
let obs: Template;

beforeAll(() => {
  stacks = build();
  data = Template.fromStack(stacks.data);
  api = templateWithNested(stacks.api);
  worker = Template.fromStack(stacks.workers);
  obs = Template.fromStack(stacks.observability);
});

const resourcesOf = (t: Template, type: string): Resources =>
  t.findResources(type) as Resources;

/** Logical id of the function whose Description is `description` (routes: "GET /api/me"). */
function functionId(t: Template, description: string): string {
  const ids = Object.keys(t.findResources('AWS::Lambda::Function', { Properties: { Description: description } }));
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

/** Every IAM action the function's role is allowed, from the policies attached to that role. */
function actionsOf(t: Template, fnId: string): string[] {
  const fn = resourcesOf(t, 'AWS::Lambda::Function')[fnId]!;
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  const policies = Object.values(resourcesOf(t, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties!.Roles as { Ref: string }[]).some((r) => r.Ref === roleId));
  const managed = resourcesOf(t, 'AWS::IAM::Role')[roleId]!.Properties!.ManagedPolicyArns;
  expect(managed).toBeUndefined(); // no AWSLambdaBasicExecutionRole: logs are granted on the function's own group
  return policies.flatMap((p) => (p.Properties!.PolicyDocument.Statement as { Action: string | string[]; Condition?: any }[])
    // the table key, usable only through DynamoDB, comes with the `table` grant (asserted on its own below)
    .filter((s) => !s.Condition?.StringEquals?.['kms:ViaService'])
    .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])));
}

/** The statements of the function's role that use the table key through DynamoDB. */
function tableKeyStatements(t: Template, fnId: string): any[] {
  const fn = resourcesOf(t, 'AWS::Lambda::Function')[fnId]!;
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  return Object.values(resourcesOf(t, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties!.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties!.PolicyDocument.Statement as any[])
    .filter((s) => s.Condition?.StringEquals?.['kms:ViaService']);
}

const GRANT_ACTION_PREFIX: Record<Grant, string> = {
  table: 'dynamodb:', publishQueue: 'sqs:', webhookQueue: 'sqs:', fireQueue: 'sqs:', bucket: 's3:', bucketRead: 's3:', kms: 'kms:', kmsEncrypt: 'kms:', kmsDecrypt: 'kms:', ses: 'ses:', scheduler: 'scheduler:', oauthConfig: 'ssm:', billingConfig: 'ssm:', bedrock: 'bedrock:',
};

describe('stacks', () => {
  test('are named SocialPublishing-<stage>-<Part>, stage dev by default', () => {
    expect([stacks.data, stacks.api, stacks.workers, stacks.observability].map((s) => s.stackName)).toEqual([
      'SocialPublishing-dev-Data', 'SocialPublishing-dev-Api', 'SocialPublishing-dev-Workers', 'SocialPublishing-dev-Observability',
    ]);
    expect(build({ stage: 'staging' }).api.stackName).toBe('SocialPublishing-staging-Api');
  });

  test('every stage needs an SES sender (a placeholder sender can never be verified)', () => {
    for (const stage of ['prod', 'dev']) expect(() => buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], stage } }))).toThrow(/mailFrom/);
  });
});

describe('data stack', () => {
  test('table matches table-definition.ts: pk/sk, gsi1 (ALL), TTL expires_at, on-demand, PITR', () => {
    data.resourceCountIs('AWS::DynamoDB::Table', 1);
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      AttributeDefinitions: Match.arrayWith([{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }]),
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: [{
        IndexName: 'gsi1',
        KeySchema: [{ AttributeName: 'gsi1pk', KeyType: 'HASH' }, { AttributeName: 'gsi1sk', KeyType: 'RANGE' }],
        Projection: { ProjectionType: 'ALL' },
      }],
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  test('prod retains the table with deletion protection; dev does not', () => {
    const prod = Template.fromStack(build({ stage: 'prod' }).data);
    prod.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', Properties: { DeletionProtectionEnabled: true } });
    prod.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain' });
    data.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete', Properties: { DeletionProtectionEnabled: false } });
  });

  test('credentials key rotates', () => {
    data.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  test('media bucket: private, TLS only, S3-managed encryption, 30-day expiry, CORS for PUT from the service only, access logs', () => {
    const media = Object.entries(resourcesOf(data, 'AWS::S3::Bucket')).find(([, b]) => b.Properties!.CorsConfiguration)!;
    expect(media).toBeDefined();
    const [mediaId, bucket] = media;
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { DestinationBucketName: expect.anything() },
    });
    expect(bucket.Properties!.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([expect.objectContaining({ ExpirationInDays: 30, Status: 'Enabled' })]));
    expect(bucket.Properties!.CorsConfiguration.CorsRules).toEqual([expect.objectContaining({
      AllowedMethods: ['PUT'],
      AllowedOrigins: [{ 'Fn::Join': ['', ['https://*.execute-api.', { Ref: 'AWS::Region' }, '.amazonaws.com']] }],
      AllowedHeaders: expect.arrayContaining(['content-type', 'content-length']),
    })]);
    // with a public base URL, exactly its origin
    const own = Template.fromStack(build({ publicBaseUrl: 'https://api.example.org/v1' }).data);
    const ownMedia = Object.values(own.findResources('AWS::S3::Bucket') as Resources).find((b) => b.Properties!.CorsConfiguration)!;
    expect(ownMedia.Properties!.CorsConfiguration.CorsRules[0].AllowedOrigins).toEqual(['https://api.example.org']);
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: mediaId },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({
          Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        })]),
      },
    });
  });

  test('one queue + DLQ per worker: visibility, redrive maxReceiveCount, 14-day DLQ, SSE, TLS only', () => {
    const queues = resourcesOf(data, 'AWS::SQS::Queue');
    expect(Object.keys(queues)).toHaveLength(workers.length * 2 + 1); // + the scheduler DLQ
    for (const def of workers) {
      const [, queue] = Object.entries(queues).find(([, q]) => q.Properties!.QueueName === `SocialPublishing-dev-${def.queueName}`)!;
      expect(queue.Properties).toMatchObject({
        VisibilityTimeout: def.visibilityTimeoutSeconds,
        SqsManagedSseEnabled: true,
        RedrivePolicy: { maxReceiveCount: def.maxReceiveCount },
      });
      const dlqId = queue.Properties!.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0] as string;
      expect(queues[dlqId]!.Properties).toMatchObject({
        QueueName: `SocialPublishing-dev-${def.queueName}-dlq`, MessageRetentionPeriod: 14 * 86_400, SqsManagedSseEnabled: true,
      });
    }
    data.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'SocialPublishing-dev-scheduler-dlq', MessageRetentionPeriod: 14 * 86_400 });
    const tlsPolicies = Object.values(resourcesOf(data, 'AWS::SQS::QueuePolicy')).filter((p) =>
      (p.Properties!.PolicyDocument.Statement as any[]).some((s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false'));
    expect(tlsPolicies).toHaveLength(Object.keys(queues).length);
  });

  test('schedule group for the one-time schedules', () => {
    data.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: 'SocialPublishing-dev' });
  });
});

describe('api stack', () => {
  const routes = apiRoutes();

  test('deploys every non-local route and no local-only one', () => {
    expect(routes.length + routeGroups().reduce((n, g) => n + routesOfGroup(g).length, 0)).toBe(routeList.filter((r) => !r.localOnly).length);
    expect(deployedRoutes().length).toBe(routeList.filter((r) => !r.localOnly).length);
    expect(routes.length).toBeGreaterThan(0);
    api.resourceCountIs('AWS::Lambda::Function', routes.length + 1); // + the dispatcher
    api.resourceCountIs('AWS::ApiGatewayV2::Route', routes.reduce((n, r) => n + 1 + (r.extraMethods?.length ?? 0), 0));
    for (const r of routes) {
      api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${r.method} ${r.path}` });
      functionId(api, `${r.method} ${r.path}`);
    }
    api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /api/me' });
    const keys = Object.values(resourcesOf(api, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties!.RouteKey as string);
    expect(keys.filter((k) => k.includes('/dev/'))).toEqual([]);
    const descriptions = Object.values(resourcesOf(api, 'AWS::Lambda::Function')).map((f) => f.Properties!.Description as string);
    expect(descriptions.filter((d) => d.includes('/dev/'))).toEqual([]);
    for (const local of routeList.filter((r) => r.localOnly)) {
      expect(keys).not.toContain(`${local.method} ${local.path}`);
    }
  });

  test('$default stage: access logs to a log group, throttle burst 200 / rate 100; ApiUrl output', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^AccessLogs'), 'Arn'] }, Format: Match.anyValue() },
    });
    api.hasOutput('ApiUrl', {});
  });

  test('least privilege: each route function has exactly the services its route grants', () => {
    for (const r of routes) {
      const actions = actionsOf(api, functionId(api, `${r.method} ${r.path}`));
      for (const [grant, prefix] of Object.entries(GRANT_ACTION_PREFIX) as [Grant, string][]) {
        const granted = r.grants.some((g) => GRANT_ACTION_PREFIX[g] === prefix);
        expect({ route: r.id, grant, has: actions.some((a) => a.startsWith(prefix)) })
          .toEqual({ route: r.id, grant, has: granted });
      }
      expect(actions.filter((a) => a === '*' || a.endsWith(':*'))).toEqual([]);
      expect(actions.some((a) => a.startsWith('iam:'))).toBe(r.grants.includes('scheduler'));
    }
  });

  test('get-platforms may only read the OAuth registrations (to say which networks are configured); post-signup may use the table and send email as MAIL_FROM', () => {
    const platforms = actionsOf(api, functionId(api, 'GET /api/platforms'));
    expect(platforms.filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'))).toEqual(['ssm:GetParametersByPath']);
    const signup = actionsOf(api, functionId(api, 'POST /api/signup'));
    expect(signup).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'ses:SendEmail']));
    const policy = JSON.stringify(api.findResources('AWS::IAM::Policy'));
    expect(policy).toContain(':identity/no-reply@mail.example.org');
    expect(policy).toContain(':identity/mail.example.org');
    expect(policy).not.toContain('/index/*'); // GSIs are granted by name
  });

  test('every function gets the config.ts environment', () => {
    const required = ['RUNTIME', 'TABLE_NAME', 'PUBLISH_QUEUE_URL', 'MEDIA_BUCKET', 'SCHEDULE_GROUP', 'SCHEDULER_ROLE_ARN',
      'SCHEDULER_TARGET_ARN', 'SCHEDULER_DLQ_ARN', 'KMS_KEY_ID', 'MAIL_FROM', 'PUBLIC_BASE_URL',
      'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'];
    for (const t of [api, worker]) {
      for (const fn of Object.values(resourcesOf(t, 'AWS::Lambda::Function'))) {
        const vars = fn.Properties!.Environment.Variables;
        expect(Object.keys(vars)).toEqual(expect.arrayContaining(required));
        expect(vars).toMatchObject({ RUNTIME: 'aws', MAIL_FROM: 'Social Publishing <no-reply@mail.example.org>' });
        // source maps are shipped but not loaded at start (docs/decisions.md, lean bundles)
        expect(vars).not.toHaveProperty('NODE_OPTIONS');
      }
    }
  });

  test('scheduler role: trusted by scheduler.amazonaws.com, invokes the dispatcher, sends to the scheduler DLQ', () => {
    api.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] },
    });
    api.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'SocialPublishing-dev-dispatch' });
    const roleId = Object.keys(api.findResources('AWS::IAM::Role', {
      Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] } },
    }))[0]!;
    const statements = Object.values(resourcesOf(api, 'AWS::IAM::Policy'))
      .filter((p) => (p.Properties!.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap((p) => p.Properties!.PolicyDocument.Statement as { Action: string; Resource: unknown }[]);
    expect(statements.map((s) => s.Action).sort()).toEqual(['lambda:InvokeFunction', 'sqs:SendMessage']);
    expect(JSON.stringify(statements)).toContain(':function:SocialPublishing-dev-dispatch');
  });
});

describe('workers stack', () => {
  test('one function per worker with an SQS event source reporting batch item failures', () => {
    worker.resourceCountIs('AWS::Lambda::Function', workers.length);
    worker.resourceCountIs('AWS::Lambda::EventSourceMapping', workers.length);
    for (const def of workers) {
      worker.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        BatchSize: def.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      worker.hasResourceProperties('AWS::Lambda::Function', { MemorySize: def.memoryMb, Timeout: def.timeoutSeconds });
    }
  });

  // the rest of each worker's rights is its own declaration's grants: test/infra/worker-grants.test.ts
  test('workers consume their queue and use the table, never write media, and send email only when they declare ses', () => {
    const emailing = Object.keys(resourcesOf(worker, 'AWS::Lambda::Function')).filter((id) => actionsOf(worker, id).includes('ses:SendEmail'));
    for (const id of Object.keys(resourcesOf(worker, 'AWS::Lambda::Function'))) {
      const actions = actionsOf(worker, id);
      expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'dynamodb:UpdateItem', 'kms:Decrypt']));
      expect(actions).not.toContain('s3:PutObject');
    }
    // the publish worker emails the owner of a sign-in it finds lost, the fire worker a held post's review link; the webhook worker sends no email
    expect(emailing).toHaveLength(workers.filter((w) => (w.grants as readonly Grant[]).includes('ses')).length);
    expect(workers.filter((w) => (w.grants as readonly Grant[]).includes('ses')).map((w) => w.id)).toEqual(['publish-worker', 'fire-worker']);
  });
});

describe('every function', () => {
  test('runs nodejs22.x on arm64 with active tracing and a one-month log group', () => {
    let count = 0;
    for (const t of [api, worker, ...stacks.groups.map((g) => Template.fromStack(g))]) {
      for (const fn of Object.values(resourcesOf(t, 'AWS::Lambda::Function'))) {
        expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
        count++;
      }
      const groups = Object.values(resourcesOf(t, 'AWS::Logs::LogGroup'));
      expect(groups.every((g) => g.Properties!.RetentionInDays === 30)).toBe(true);
    }
    expect(count).toBe(deployedRoutes().length + 1 + workers.length);
  });
});

describe('iam', () => {
  test('the only "*" resources are X-Ray (what the per-function IAM5 Resource::* acknowledgement covers)', () => {
    for (const t of [data, api, worker, obs]) {
      for (const p of Object.values(resourcesOf(t, 'AWS::IAM::Policy'))) {
        for (const s of p.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]) {
          const resources = Array.isArray(s.Resource) ? s.Resource : [s.Resource];
          if (!resources.includes('*')) continue;
          const actions = Array.isArray(s.Action) ? s.Action : [s.Action];
          expect(actions.filter((a) => !a.startsWith('xray:'))).toEqual([]);
        }
      }
    }
  });
});

describe('defence in depth (issue 17)', () => {
  // the routes whose functions are in the API stack (and its nested stacks); route groups have their own stacks
  const routes = apiRoutes();
  test('the table is encrypted with its own customer-managed key (rotated); route roles use it only through DynamoDB', () => {
    const keyId = Object.keys(data.findResources('AWS::KMS::Key', { Properties: { Description: Match.stringLikeRegexp('encryption at rest of the table') } }));
    expect(keyId).toHaveLength(1);
    data.hasResourceProperties('AWS::KMS::Key', { Description: Match.stringLikeRegexp('encryption at rest of the table'), EnableKeyRotation: true });
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [keyId[0], 'Arn'] } },
    });
    for (const r of routes) {
      const statements = tableKeyStatements(api, functionId(api, `${r.method} ${r.path}`));
      expect({ route: r.id, uses: statements.length > 0 }).toEqual({ route: r.id, uses: r.grants.includes('table') });
      for (const st of statements) {
        expect(st.Action).toEqual(expect.not.arrayContaining([expect.stringMatching(/\*/)]));
        expect(st.Condition.StringEquals['kms:ViaService']).toEqual({ 'Fn::Join': ['', ['dynamodb.', { Ref: 'AWS::Region' }, '.amazonaws.com']] });
      }
    }
  });

  test('every log group (functions, workers, API access logs) is encrypted with the logs key, which only CloudWatch Logs of this account may use', () => {
    for (const t of [api, worker]) {
      const groups = Object.values(resourcesOf(t, 'AWS::Logs::LogGroup'));
      expect(groups.length).toBeGreaterThan(0);
      for (const g of groups) expect(g.Properties!.KmsKeyId).toBeDefined();
    }
    data.hasResourceProperties('AWS::KMS::Key', {
      Description: Match.stringLikeRegexp('log groups'), EnableKeyRotation: true,
      KeyPolicy: { Statement: Match.arrayWith([Match.objectLike({
        Principal: { Service: { 'Fn::Join': ['', ['logs.', { Ref: 'AWS::Region' }, '.amazonaws.com']] } },
        Condition: { ArnLike: { 'kms:EncryptionContext:aws:logs:arn': Match.anyValue() } },
      })]) },
    });
  });

  test('the credentials key is split by need: routes that only store secrets cannot unwrap them, and the reverse', () => {
    const kmsOf = (r: { method: string; path: string }) => actionsOf(api, functionId(api, `${r.method} ${r.path}`)).filter((a) => a.startsWith('kms:')).sort();
    for (const r of routes) {
      const expected = r.grants.includes('kms') ? ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey']
        : [...(r.grants.includes('kmsDecrypt') ? ['kms:Decrypt'] : []), ...(r.grants.includes('kmsEncrypt') ? ['kms:GenerateDataKey'] : [])];
      expect({ route: r.id, kms: kmsOf(r) }).toEqual({ route: r.id, kms: expected });
    }
    const byId = (id: string) => routes.find((r) => r.id === id)!;
    expect(kmsOf(byId('post-connect'))).toEqual(['kms:GenerateDataKey']);
    expect(kmsOf(byId('post-webhooks'))).toEqual(['kms:GenerateDataKey']);
    expect(kmsOf(byId('post-schedule'))).toEqual(['kms:Decrypt']);
    expect(kmsOf(byId('get-me'))).toEqual([]);
  });

  test('throttles per route: open routes 20/s, slow network routes 50/s, the rest the stage default', () => {
    const stage = Object.values(resourcesOf(api, 'AWS::ApiGatewayV2::Stage'))[0]!;
    const settings = stage.Properties!.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    expect(Object.keys(settings).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(settings['POST /api/signup']).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
    expect(settings['GET /api/oauth/{platform}/callback']).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
    expect(settings['POST /api/post']).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
    expect(settings['GET /api/me']).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
  });
});

describe('observability stack', () => {
  test('alarms: every DLQ, API 5xx over 5 minutes, each worker and the dispatcher; all notify an encrypted topic', () => {
    obs.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    const alarms = Object.values(resourcesOf(obs, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties!);
    const dlqAlarms = alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(dlqAlarms).toHaveLength(workers.length + 1);
    const fiveXx = alarms.filter((a) => a.MetricName === '5xx');
    expect(fiveXx).toEqual([expect.objectContaining({ Namespace: 'AWS/ApiGateway', Period: 300, Statistic: 'Sum', Threshold: 0 })]);
    const errors = alarms.filter((a) => a.MetricName === 'Errors');
    expect(errors).toHaveLength(workers.length + 1);
    for (const a of alarms) {
      expect(a).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: expect.any(Number), AlarmActions: [expect.anything()] });
      if (['ApproximateNumberOfMessagesVisible', '5xx', 'Errors'].includes(a.MetricName as string)) expect(a.Threshold).toBe(0);
      expect(a.AlarmDescription).toMatch(/Runbook: docs\/operations\.md#alarm-/);
    }
  });
});

describe('OAuth client registrations', () => {
  test('functions read them from SSM under the stage prefix, and only the OAuth routes and the worker may', () => {
    const t = api;
    const fns = Object.values(resourcesOf(t, 'AWS::Lambda::Function'));
    expect(fns.every((f) => (f.Properties!.Environment as { Variables: Record<string, string> }).Variables.OAUTH_SSM_PREFIX === '/social-publishing/dev/oauth')).toBe(true);
    const ssmStatements = Object.values(resourcesOf(t, 'AWS::IAM::Policy'))
      .flatMap((p) => p.Properties!.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>)
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('ssm:')) && JSON.stringify(s.Resource).includes('/oauth'));
    // the routes with oauthConfig, plus the dispatcher (its renewal sweep renews OAuth tokens); the publish worker is in the workers stack
    expect(ssmStatements.length).toBe(routeList.filter((r) => !r.localOnly && !r.stack && r.grants.includes('oauthConfig')).length + 1);
    for (const s of ssmStatements) {
      expect(s.Action).toBe('ssm:GetParametersByPath');
      expect(JSON.stringify(s.Resource)).toContain(':parameter/social-publishing/dev/oauth');
    }
  });
});

describe('media reads', () => {
  test('the media_url redirect route may only read objects', () => {
    const t = api;
    const route = routeList.find((r) => r.id === 'get-media-file')!;
    expect(route.grants).toContain('bucketRead');
    const s3Actions = Object.entries(resourcesOf(t, 'AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith('getmediafile'))
      .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as Array<{ Action: string | string[] }>)
      .flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('s3:'));
    expect(s3Actions).toEqual(['s3:GetObject']);
  });
});

describe('Billing secrets (issue 13)', () => {
  test("Stripe's keys are read from SSM under the stage prefix, only by the billing routes; no function has them in its environment", () => {
    const templates = [api, ...stacks.groups.map((st) => Template.fromStack(st))];
    const fns = templates.flatMap((t) => Object.values(resourcesOf(t, 'AWS::Lambda::Function')));
    for (const f of fns) {
      const vars = (f.Properties!.Environment as { Variables: Record<string, string> }).Variables;
      expect(vars.BILLING_SSM_PREFIX).toBe('/social-publishing/dev/stripe');
      expect(Object.keys(vars).filter((k) => k.startsWith('STRIPE_'))).toEqual([]);
    }
    const billingStatements = templates.flatMap((t) => Object.values(resourcesOf(t, 'AWS::IAM::Policy')))
      .flatMap((p) => p.Properties!.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>)
      .filter((s) => JSON.stringify(s.Resource).includes(':parameter/social-publishing/dev/stripe'));
    const billingRoutes = routeList.filter((r) => !r.localOnly && r.grants.includes('billingConfig')).map((r) => r.id).sort();
    expect(billingRoutes).toEqual([
      'get-billing', 'get-dashboard-plan', 'post-billing-checkout', 'post-billing-portal', 'post-billing-stripe-webhook', 'post-dashboard-plan-checkout', 'post-dashboard-plan-portal',
    ]);
    expect(billingStatements).toHaveLength(billingRoutes.length);
    for (const s of billingStatements) expect(s.Action).toBe('ssm:GetParametersByPath');
  });
});

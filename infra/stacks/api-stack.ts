import { ArnFormat, CfnOutput, NestedStack, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { Construct } from 'constructs';
import { handlerFile, type RouteDef } from '../../shared/http/route';
import { DEFAULT_BEDROCK_MODEL_ID } from '../../shared/config';
import { AppFunction } from '../constructs/app-function';
import { applyGrants, withQueues, type GrantTargets } from '../constructs/grants';
import { routeList } from '../../functions/routes';
import { tableStatementsOf } from '../table-access';
import { dispatcher as dispatcherDef } from '../../functions/workers';
import { awsCronExpression, SWEEP_SCHEDULES } from '../sweep-schedules';
import { isProd, type DataStack } from './data-stack';

export interface ApiStackProps extends StackProps {
  stage: string;
  data: DataStack;
  /** SES sender (MAIL_FROM); must be a verified SES identity (address or its domain). */
  mailFrom: string;
  /** Public origin for emailed/connect links; defaults to the API's own execute-api URL. */
  publicBaseUrl?: string;
  // --- AI drafts
  /** The Bedrock model of AI drafts (BEDROCK_MODEL_ID); default the config default. */
  bedrockModelId?: string;
  // --- Concurrency in AWS
  /** Reserved concurrency by route id (0 or absent: none), e.g. the publish route's, so a burst elsewhere cannot starve it. */
  reservedConcurrency?: Record<string, number>;
  /** With the edge stack (-c waf=true): the secret origin header CloudFront sends (EDGE_ORIGIN_SECRET). */
  edgeOriginSecret?: string;
  /**
   * A custom domain for the HTTP API (-c apiDomainName, -c apiCertificateArn: an ACM certificate in the API's
   * region): the API answers there and its execute-api endpoint is disabled; with the edge stack, CloudFront's origin.
   */
  apiDomain?: { name: string; certificateArn: string };
  // --- MCP for browser clients
  /** Browser origins allowed on the MCP and OAuth endpoints besides publicBaseUrl's (MCP_ALLOWED_ORIGINS, comma-separated). */
  mcpAllowedOrigins?: string;
  /** LinkedIn products the app was granted: organisation pages (LINKEDIN_ORGANIZATIONS), member post analytics (LINKEDIN_POST_ANALYTICS). */
  linkedin?: { organizations: boolean; postAnalytics: boolean };
}

const API_AUTHORIZATION_REASON = 'Authorization is done inside each function by the shared middy stack (shared/http): bearer API keys, '
  + 'hashed and looked up in the table, with per-key rate limits, or the dashboard session cookie with CSRF, or an MCP OAuth '
  + 'token. Routes with auth "open" (catalog, signup, signup confirmation, hosted link pages) are public by design and '
  + 'rate-limited per IP.';

/** The routes of the route table that AWS serves (localOnly ones exist only in the local runtime). */
export const deployedRoutes = () => routeList.filter((r) => !r.localOnly);
/** The deployed routes whose functions are in this stack (the others are in their route group's stack). */
export const apiRoutes = () => deployedRoutes().filter((r) => !r.stack);

/**
 * One function per route, each granted exactly its route's `grants`, integrated with the HTTP API on the route's
 * methods; a route with `functionUrlOutput` also gets a function URL and that output.
 */
export function addRouteFunctions(scope: Stack, routes: RouteDef[], o: {
  httpApi: apigw.IHttpApi; environment: Record<string, string>; grantTargets: GrantTargets; logRemovalPolicy: RemovalPolicy; functions: Map<string, AppFunction>;
  /** The service's log key: every function's log group is encrypted with it. */
  logsKey?: kms.IKey;
}): void {
  for (const route of routes) {
    const fn = new AppFunction(scope, route.id, {
      handlerFile: handlerFile(route),
      description: `${route.method} ${route.path}`,
      memoryMb: route.memoryMb ?? 512,
      timeoutSeconds: route.timeoutSeconds ?? 29,
      environment: o.environment,
      logRemovalPolicy: o.logRemovalPolicy, ...(o.logsKey ? { logsKey: o.logsKey } : {}),
    });
    applyGrants(fn, route.grants, o.grantTargets, tableStatementsOf(route));
    const integration = new HttpLambdaIntegration(`${route.id}-integration`, fn.fn);
    const methods = [route.method, ...(route.extraMethods ?? [])].map((m) => apigw.HttpMethod[m]);
    if (o.httpApi instanceof apigw.HttpApi && Stack.of(o.httpApi) === scope) {
      o.httpApi.addRoutes({ path: route.path, methods, integration });
    } else {
      for (const method of methods) {
        const r = new apigw.HttpRoute(scope, `${route.id}-${method}-route`, { httpApi: o.httpApi, routeKey: apigw.HttpRouteKey.with(route.path, method), integration });
        Validations.of(r).acknowledge({ id: 'AwsSolutions::AwsSolutions-APIG4', reason: API_AUTHORIZATION_REASON });
      }
    }
    o.functions.set(route.id, fn);
    if (route.functionUrlOutput) {
      // The function authenticates every request itself (bearer key or OAuth token), as behind the HTTP API.
      const url = fn.fn.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.NONE, invokeMode: lambda.InvokeMode.BUFFERED });
      new CfnOutput(scope, route.functionUrlOutput, { value: url.url, description: `Function URL of ${route.method} ${route.path}` });
    }
  }
}

/** Reserved concurrency (also the ceiling) by route id, 0 for none; every id must be a route of these functions. */
export function reserveConcurrency(functions: Map<string, AppFunction>, reserved: Record<string, number> | undefined, where: string): void {
  for (const [routeId, n] of Object.entries(reserved ?? {})) {
    const fn = functions.get(routeId);
    if (!fn) throw new Error(`reservedConcurrency: no function of route ${routeId} in ${where}`);
    if (n > 0) (fn.fn.node.defaultChild as lambda.CfnFunction).reservedConcurrentExecutions = n;
  }
}

/**
 * Route functions are deployed in nested stacks of at most this many routes: each route is 7 resources (function,
 * role, policy, log group, permission, integration, route) and a CloudFormation stack holds at most 500.
 */
export const ROUTES_PER_NESTED_STACK = 40;

/**
 * The HTTP API: one function per deployed route of functions/routes.ts, each granted exactly its route's `grants`; the
 * `$default` stage with access logs and a default throttle. Also the dispatcher function that EventBridge Scheduler
 * invokes and the role the scheduler assumes for it (here, not in the workers stack, so that the workers stack can
 * depend on this one and receive the API URL).
 */
export class ApiStack extends Stack {
  readonly httpApi: apigw.HttpApi;
  readonly apiStage: apigw.HttpStage;
  /** The host name the API answers on for CloudFront: its custom domain if it has one (the execute-api one is then off). */
  readonly originDomain?: string;
  readonly routeFunctions = new Map<string, AppFunction>();
  readonly dispatcher: AppFunction;
  readonly schedulerRole: iam.Role;
  /** Target ARN of the schedules: computed from the dispatcher's fixed name (it needs its own ARN too). */
  readonly dispatcherArn: string;
  readonly grantTargets: GrantTargets;
  /** The service's log key (data stack): route-group stacks encrypt their log groups with it too. */
  readonly logsKey: kms.IKey;
  /** The config.ts environment every function of the service gets (see serviceEnvironment). */
  readonly functionEnvironment: Record<string, string>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { data } = props;
    this.logsKey = data.logsKey;
    const prod = isProd(props.stage);
    /** Where the ops team stores OAuth client registrations (docs/operations.md). */
    const oauthSsmPrefix = `/social-publishing/${props.stage}/oauth`;
    /** Where the ops team stores Stripe's keys and prices (docs/operations.md, Billing). */
    const billingSsmPrefix = `/social-publishing/${props.stage}/stripe`;
    const logRemovalPolicy = prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const bedrockModelId = props.bedrockModelId ?? DEFAULT_BEDROCK_MODEL_ID;

    const domain = props.apiDomain ? new apigw.DomainName(this, 'ApiDomain', {
      domainName: props.apiDomain.name,
      certificate: acm.Certificate.fromCertificateArn(this, 'ApiCertificate', props.apiDomain.certificateArn),
    }) : undefined;
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      apiName: `${data.prefix}-api`,
      description: 'Social publishing REST API',
      createDefaultStage: false,
      // with a custom domain, nothing reaches the API around it (nor around CloudFront's WAF when that is its origin)
      disableExecuteApiEndpoint: !!domain,
    });
    if (domain) {
      this.originDomain = props.apiDomain!.name;
      new CfnOutput(this, 'ApiDomainTarget', { value: domain.regionalDomainName, description: `DNS: a CNAME (or alias) record of ${props.apiDomain!.name} pointing here` });
    }
    Validations.of(this.httpApi).acknowledge({ id: 'AwsSolutions::AwsSolutions-APIG4', reason: API_AUTHORIZATION_REASON });


    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      encryptionKey: data.logsKey,
      removalPolicy: logRemovalPolicy,
    });
    this.apiStage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      ...(domain ? { domainMapping: { domainName: domain } } : {}),
      autoDeploy: true,
      throttle: { burstLimit: 200, rateLimit: 100 },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify({
          requestId: '$context.requestId',
          ip: '$context.identity.sourceIp',
          requestTime: '$context.requestTime',
          routeKey: '$context.routeKey',
          status: '$context.status',
          protocol: '$context.protocol',
          responseLength: '$context.responseLength',
          latency: '$context.responseLatency',
          integrationLatency: '$context.integrationLatency',
          integrationError: '$context.integrationErrorMessage',
          userAgent: '$context.identity.userAgent',
        })),
      },
    });

    // ---- Dispatcher + the role EventBridge Scheduler assumes to invoke it.
    const dispatcherName = `${data.prefix}-${dispatcherDef.id}`;
    this.dispatcherArn = this.formatArn({
      service: 'lambda', resource: 'function', resourceName: dispatcherName, arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.schedulerRole = new iam.Role(this, 'SchedulerRole', {
      description: `${data.prefix}: assumed by EventBridge Scheduler to invoke the dispatcher`,
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    });
    this.schedulerRole.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: ['lambda:InvokeFunction'],
      resources: [this.dispatcherArn],
    }));
    this.schedulerRole.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: ['sqs:SendMessage'],
      resources: [data.schedulerDlq.queueArn],
    }));

    const publicBaseUrl = props.publicBaseUrl ?? this.apiStage.url;
    this.functionEnvironment = serviceEnvironment({
      data, mailFrom: props.mailFrom, publicBaseUrl, schedulerRoleArn: this.schedulerRole.roleArn, dispatcherArn: this.dispatcherArn, oauthSsmPrefix, billingSsmPrefix,
      bedrockModelId, ...(props.edgeOriginSecret ? { edgeOriginSecret: props.edgeOriginSecret } : {}),
      ...(props.mcpAllowedOrigins ? { mcpAllowedOrigins: props.mcpAllowedOrigins } : {}),
      ...(props.linkedin ? { linkedin: props.linkedin } : {}),
    });
    this.grantTargets = {
      table: data.table,
      tableKey: data.tableKey,
      tableIndexNames: data.tableIndexNames,
      publishQueue: data.queueFor('PUBLISH_QUEUE_URL'),
      webhookQueue: data.queueFor('WEBHOOK_QUEUE_URL'),
      fireQueue: data.queueFor('FIRE_QUEUE_URL'),
      mediaBucketArnExport: data.mediaBucketArnExport,
      key: data.key,
      scheduleGroupName: data.scheduleGroupName,
      schedulerRole: this.schedulerRole,
      mailFrom: props.mailFrom,
      sesSandboxRecipients: !prod,
      oauthSsmPrefix,
      billingSsmPrefix,
      bedrockModelId,
    };

    this.dispatcher = new AppFunction(this, 'Dispatcher', {
      handlerFile: dispatcherDef.handler,
      functionName: dispatcherName,
      description: 'EventBridge Scheduler target: fires scheduled and deferred posts',
      memoryMb: dispatcherDef.memoryMb,
      timeoutSeconds: dispatcherDef.timeoutSeconds,
      environment: this.functionEnvironment,
      logRemovalPolicy, logsKey: data.logsKey,
    });
    applyGrants(this.dispatcher, withQueues(dispatcherDef.grants, this.grantTargets), this.grantTargets);
    // EventBridge Scheduler invokes the dispatcher asynchronously: a failing invocation gets Lambda's two retries and
    // would then be dropped (rate-limit deferrals and approval-expiry timers have no sweep). After the retries it goes
    // to the scheduler DLQ instead, whose alarm (dlq-scheduler) pages; the runbook says how to replay it.
    this.dispatcher.fn.configureAsyncInvoke({ onFailure: new SqsDestination(data.schedulerDlq), retryAttempts: 2 });

    // ---- The recurring sweeps (infra/sweep-schedules.ts), part of the deployment. In the default schedule group, so
    // the functions' scheduler grant (the service's group only) cannot change or delete them.
    for (const sweep of SWEEP_SCHEDULES) {
      const schedule = new scheduler.CfnSchedule(this, `Sweep-${sweep.name}`, {
        name: `${data.prefix}-${sweep.name}`,
        groupName: 'default',
        description: `${data.prefix}: runs the dispatcher's ${sweep.name} every 5 minutes`,
        scheduleExpression: awsCronExpression(sweep.cron),
        scheduleExpressionTimezone: sweep.timezone,
        flexibleTimeWindow: { mode: 'OFF' },
        state: 'ENABLED',
        target: {
          arn: this.dispatcherArn,
          roleArn: this.schedulerRole.roleArn,
          input: JSON.stringify(sweep.input),
          // the next run comes 5 minutes later: a short retry, then the scheduler DLQ (its alarm)
          retryPolicy: { maximumRetryAttempts: 2, maximumEventAgeInSeconds: 240 },
          deadLetterConfig: { arn: data.schedulerDlq.queueArn },
        },
      });
      schedule.node.addDependency(this.dispatcher);
    }

    // ---- One function per deployed route of this stack (routes with `stack` live in a RouteGroupStack), in nested
    // stacks of ROUTES_PER_NESTED_STACK routes (CloudFormation's 500-resource limit).
    const routes = apiRoutes();
    for (let i = 0; i < routes.length; i += ROUTES_PER_NESTED_STACK) {
      const chunk = routes.slice(i, i + ROUTES_PER_NESTED_STACK);
      const nested = new NestedStack(this, `Routes${i / ROUTES_PER_NESTED_STACK + 1}`, { description: `${data.prefix}: route functions ${i + 1}–${i + chunk.length}` });
      Validations.of(nested).acknowledge({ id: 'AwsSolutions::AwsSolutions-APIG4', reason: API_AUTHORIZATION_REASON });
      addRouteFunctions(nested, chunk, {
        httpApi: this.httpApi, environment: this.functionEnvironment, grantTargets: this.grantTargets, logRemovalPolicy, functions: this.routeFunctions, logsKey: data.logsKey,
      });
      // the stage's per-route settings name these routes: they must exist first
      this.apiStage.node.addDependency(nested);
    }

    reserveConcurrency(this.routeFunctions, props.reservedConcurrency, 'the API stack');

    // Throttles per route (besides the stage default): the in-function limits count per key, account or IP; these
    // cap what one route may cost in total (an open route under a flood, a slow route holding connections).
    // (Routes of route-group stacks, deployed after this stack, keep the stage default.)
    (this.apiStage.node.defaultChild as apigw.CfnStage).routeSettings = Object.fromEntries(
      routes.map((r) => [`${r.method} ${r.path}`, routeThrottle(r)]));

    new CfnOutput(this, 'ApiUrl', { value: domain ? `https://${props.apiDomain!.name}/` : this.apiStage.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'DispatcherArn', { value: this.dispatcherArn });
  }
}

/**
 * The API Gateway throttle of a route: open routes (no key; per-IP limits in the function) 20 requests a second
 * (burst 40); routes that call networks and may run up to 29 s, 50 (burst 100); others the stage's 100 (burst 200).
 */
export function routeThrottle(r: Pick<RouteDef, 'auth' | 'timeoutSeconds'>): { ThrottlingRateLimit: number; ThrottlingBurstLimit: number } {
  // CloudFormation's RouteSettings map is raw JSON (not converted by the L1 construct): PascalCase keys
  if (r.auth === 'open') return { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 };
  if ((r.timeoutSeconds ?? 0) >= 29) return { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 };
  return { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 };
}

/** The environment of shared/config.ts, as the service runs in AWS. Empty values are left out (config defaults). */
export function serviceEnvironment(o: {
  data: DataStack; mailFrom: string; publicBaseUrl: string; schedulerRoleArn: string; dispatcherArn: string; oauthSsmPrefix: string; billingSsmPrefix?: string;
  bedrockModelId?: string;
  edgeOriginSecret?: string; mcpAllowedOrigins?: string;
  linkedin?: { organizations: boolean; postAnalytics: boolean };
}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    RUNTIME: 'aws',
    TABLE_NAME: o.data.table.tableName,
    PUBLISH_QUEUE_URL: o.data.queueFor('PUBLISH_QUEUE_URL')?.queueUrl,
    WEBHOOK_QUEUE_URL: o.data.queueFor('WEBHOOK_QUEUE_URL')?.queueUrl,
    FIRE_QUEUE_URL: o.data.queueFor('FIRE_QUEUE_URL')?.queueUrl,
    MEDIA_BUCKET: o.data.mediaBucket.bucketName,
    SCHEDULE_GROUP: o.data.scheduleGroupName,
    SCHEDULER_ROLE_ARN: o.schedulerRoleArn,
    SCHEDULER_TARGET_ARN: o.dispatcherArn,
    SCHEDULER_DLQ_ARN: o.data.schedulerDlq.queueArn,
    KMS_KEY_ID: o.data.key.keyArn,
    MAIL_FROM: o.mailFrom,
    PUBLIC_BASE_URL: o.publicBaseUrl,
    OAUTH_SSM_PREFIX: o.oauthSsmPrefix,
    BILLING_SSM_PREFIX: o.billingSsmPrefix,
    LOG_LEVEL: 'info',
    // Observability: the `service` of every log line and EMF metric, and the metrics namespace.
    POWERTOOLS_SERVICE_NAME: o.data.prefix,
    POWERTOOLS_METRICS_NAMESPACE: 'SocialPublishing',
    BEDROCK_MODEL_ID: o.bedrockModelId,
    EDGE_ORIGIN_SECRET: o.edgeOriginSecret,
    MCP_ALLOWED_ORIGINS: o.mcpAllowedOrigins,
    LINKEDIN_ORGANIZATIONS: o.linkedin?.organizations ? '1' : undefined,
    LINKEDIN_POST_ANALYTICS: o.linkedin?.postAnalytics ? '1' : undefined,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
}

import './env';
import { App, Tags, Validations, type Environment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiStack } from '../infra/stacks/api-stack';
import { DataStack } from '../infra/stacks/data-stack';
import { ObservabilityStack } from '../infra/stacks/observability-stack';
import { WorkersStack } from '../infra/stacks/workers-stack';
import { EdgeStack } from '../infra/stacks/edge-stack';
import { RouteGroupStack, routeGroups, routesOfGroup } from '../infra/stacks/route-group-stack';
import { prebuildBundles } from '../infra/lambda-bundles';

/**
 * The CDK app (cdk.json: `npx tsx bin/app.ts`). Settings come from context (`-c key=value`):
 *   stage          stage name, default `dev` (env STAGE also works); `prod` retains data and protects the table
 *   mailFrom       SES sender (MAIL_FROM), a verified SES identity; required
 *   publicBaseUrl  public origin used in emailed links; default: the API's execute-api URL (no custom domain yet)
 *   alarmEmail     optional address subscribed to the alarm topic
 *   publishMaxConcurrency, webhookMaxConcurrency, fireMaxConcurrency, postReservedConcurrency, mcpReservedConcurrency   see ConcurrencySettings
 *   apiDomainName, apiCertificateArn   the API's custom domain (its execute-api endpoint is then disabled)
 *   nag            `false` skips the cdk-nag checks that otherwise run at every synth
 *   waf            `true` adds CloudFront + a WAF web ACL in front of the API (stack -Edge, us-east-1); wafRateLimit
 * Stacks: SocialPublishing-<stage>-Data, -Api, one per route group (-Dashboard, -Mcp), -Workers, -Observability (see docs/operations.md).
 */
export interface AppSettings {
  stage: string;
  mailFrom: string;
  publicBaseUrl?: string;
  alarmEmail?: string;
  env?: Environment;
  // --- AI drafts
  /** -c bedrockModelId=...: the Bedrock model of AI drafts (granted to the AI functions only). */
  bedrockModelId?: string;
  // --- Concurrency in AWS
  concurrency: ConcurrencySettings;
  // --- MCP for browser clients
  /** -c mcpAllowedOrigins=https://a,https://b: browser origins allowed on the MCP and OAuth endpoints (MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins?: string;
  // --- LinkedIn products the app was granted
  /**
   * -c linkedinOrganizations=true: organisation pages as targets (LINKEDIN_ORGANIZATIONS; needs LinkedIn's Community
   * Management API); -c linkedinPostAnalytics=true: member post analytics (LINKEDIN_POST_ANALYTICS; r_member_postAnalytics).
   */
  linkedin?: { organizations: boolean; postAnalytics: boolean };
  // --- WAF
  /** -c waf=true: CloudFront with a WAF web ACL in front of the API (stack -Edge in us-east-1); requests per IP per 5 minutes. */
  waf?: { rateLimit: number; originSecret: string };
  /** -c apiDomainName=api.example.com -c apiCertificateArn=arn:aws:acm:…: the API's custom domain; its execute-api endpoint is then disabled. */
  apiDomain?: { name: string; certificateArn: string };
}

/**
 * How much of the account's Lambda concurrency the queue consumers may take, and what the publish route keeps for
 * itself, so that a burst of scheduled posts cannot starve the API (docs/operations.md, Concurrency).
 */
export interface ConcurrencySettings {
  /** -c publishMaxConcurrency=N: at most N publish worker instances (the event source mapping's maximum concurrency, 2–1000). */
  publishWorker: number;
  /** -c webhookMaxConcurrency=N: at most N webhook delivery instances (2–1000). */
  webhookWorker: number;
  /** -c fireMaxConcurrency=N: at most N fire worker instances, claiming scheduled posts that came due (2–1000). */
  fireWorker: number;
  /** -c postReservedConcurrency=N: concurrency reserved for (and capping) POST /api/post; 0 (the default) reserves none. */
  postRoute: number;
  /**
   * -c mcpReservedConcurrency=N: concurrency reserved for (and capping) the MCP function, whose function URL is
   * outside the HTTP API's throttles and the WAF; 0 (the default) reserves none (deploy:check says so).
   */
  mcpFunction: number;
}

/**
 * No reserved concurrency by default: a new account's Lambda concurrency quota is often 10, and reserving 50 rolls the
 * API stack back (Lambda keeps 100 unreserved). `-c postReservedConcurrency=N` once the account's quota allows it.
 */
export const DEFAULT_CONCURRENCY: ConcurrencySettings = { publishWorker: 20, webhookWorker: 10, fireWorker: 10, postRoute: 0, mcpFunction: 0 };

function integerContext(app: App, key: string, fallback: number, min: number, max: number): number {
  const v: unknown = app.node.tryGetContext(key);
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`Invalid ${key} "${String(v)}": a whole number from ${min} to ${max}`);
  return n;
}

export function settingsFrom(app: App): AppSettings {
  const ctx = (key: string): string | undefined => {
    const v: unknown = app.node.tryGetContext(key);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  };
  const stage = ctx('stage') ?? process.env.STAGE ?? 'dev';
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) throw new Error(`Invalid stage "${stage}": lower-case letters, digits and dashes, at most 20`);
  const mailFrom = ctx('mailFrom');
  if (!mailFrom) throw new Error(`Stage ${stage} needs the SES sender: -c mailFrom=no-reply@your-domain (an SES identity you verified; docs/operations.md#email-ses)`);
  const publicBaseUrl = ctx('publicBaseUrl');
  if (publicBaseUrl && !/^https?:\/\/[^/\s]+/.test(publicBaseUrl)) throw new Error(`Invalid publicBaseUrl "${publicBaseUrl}"`);
  const alarmEmail = ctx('alarmEmail');
  const bedrockModelId = ctx('bedrockModelId');
  if (bedrockModelId && !/^[A-Za-z0-9][A-Za-z0-9.:_-]{0,199}$/.test(bedrockModelId)) throw new Error(`Invalid bedrockModelId "${bedrockModelId}"`);
  const mcpAllowedOrigins = ctx('mcpAllowedOrigins');
  for (const o of (mcpAllowedOrigins ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new Error(`Invalid origin "${o}" in mcpAllowedOrigins (scheme://host[:port], comma-separated)`);
  }
  const flag = (key: string): boolean => {
    const v = String(app.node.tryGetContext(key) ?? 'false');
    if (v !== 'true' && v !== 'false') throw new Error(`Invalid ${key} "${v}": true or false`);
    return v === 'true';
  };
  const linkedin = { organizations: flag('linkedinOrganizations'), postAnalytics: flag('linkedinPostAnalytics') };
  const concurrency: ConcurrencySettings = {
    publishWorker: integerContext(app, 'publishMaxConcurrency', DEFAULT_CONCURRENCY.publishWorker, 2, 1000),
    webhookWorker: integerContext(app, 'webhookMaxConcurrency', DEFAULT_CONCURRENCY.webhookWorker, 2, 1000),
    fireWorker: integerContext(app, 'fireMaxConcurrency', DEFAULT_CONCURRENCY.fireWorker, 2, 1000),
    postRoute: integerContext(app, 'postReservedConcurrency', DEFAULT_CONCURRENCY.postRoute, 0, 1000),
    mcpFunction: integerContext(app, 'mcpReservedConcurrency', DEFAULT_CONCURRENCY.mcpFunction, 0, 1000),
  };
  const apiDomainName = ctx('apiDomainName');
  const apiCertificateArn = ctx('apiCertificateArn');
  if (!!apiDomainName !== !!apiCertificateArn) throw new Error('-c apiDomainName and -c apiCertificateArn go together: the API\'s custom domain and its ACM certificate (in the API\'s region)');
  if (apiDomainName && !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(apiDomainName)) throw new Error(`Invalid apiDomainName "${apiDomainName}": a host name such as api.example.com`);
  if (apiCertificateArn && !/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/.test(apiCertificateArn)) throw new Error(`Invalid apiCertificateArn "${apiCertificateArn}": arn:aws:acm:<region>:<account>:certificate/<id>`);
  let waf: AppSettings['waf'];
  if (String(app.node.tryGetContext('waf') ?? 'false') === 'true') {
    // the origin header that makes the API trust the viewer address CloudFront forwards (shared/http/client-ip.ts)
    const originSecret = ctx('edgeOriginSecret');
    if (!originSecret || !/^[A-Za-z0-9_-]{32,128}$/.test(originSecret)) {
      throw new Error('-c waf=true needs -c edgeOriginSecret=<32 to 128 letters, digits, - or _> (e.g. `openssl rand -hex 32`): the API trusts the viewer address only from CloudFront, which sends this secret');
    }
    waf = { rateLimit: integerContext(app, 'wafRateLimit', 2000, 100, 2_000_000_000), originSecret };
  }
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const region = process.env.CDK_DEFAULT_REGION;
  return {
    stage,
    mailFrom,
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    ...(bedrockModelId ? { bedrockModelId } : {}),
    ...(mcpAllowedOrigins ? { mcpAllowedOrigins } : {}),
    ...(linkedin.organizations || linkedin.postAnalytics ? { linkedin } : {}),
    concurrency,
    ...(waf ? { waf } : {}),
    ...(apiDomainName && apiCertificateArn ? { apiDomain: { name: apiDomainName, certificateArn: apiCertificateArn } } : {}),
    ...(account || region ? { env: { ...(account ? { account } : {}), ...(region ? { region } : {}) } } : {}),
  };
}

export interface ServiceStacks {
  data: DataStack;
  api: ApiStack;
  /** Route groups of the route table (e.g. Mcp), each in its own stack on the same HTTP API. */
  groups: RouteGroupStack[];
  workers: WorkersStack;
  observability: ObservabilityStack;
  /** With -c waf=true: CloudFront + WAF in front of the API, in us-east-1. */
  edge?: EdgeStack;
}

/** Adds the service's four stacks to `app`: Data → Api → Workers → Observability (deployment order). */
export function buildStacks(app: App, settings: AppSettings = settingsFrom(app)): ServiceStacks {
  const { stage } = settings;
  const name = (part: string) => `SocialPublishing-${stage}-${part}`;
  const common = { stage, ...(settings.env ? { env: settings.env } : {}) };

  const publicOrigin = settings.publicBaseUrl ? new URL(settings.publicBaseUrl).origin : undefined;
  const data = new DataStack(app, name('Data'), { ...common, ...(publicOrigin ? { publicOrigin } : {}), description: 'Social publishing: table, key, media bucket, queues, scheduler group' });
  const api = new ApiStack(app, name('Api'), {
    ...common,
    data,
    mailFrom: settings.mailFrom,
    ...(settings.publicBaseUrl ? { publicBaseUrl: settings.publicBaseUrl } : {}),
    ...(settings.bedrockModelId ? { bedrockModelId: settings.bedrockModelId } : {}),
    ...(settings.mcpAllowedOrigins ? { mcpAllowedOrigins: settings.mcpAllowedOrigins } : {}),
    ...(settings.linkedin ? { linkedin: settings.linkedin } : {}),
    reservedConcurrency: { 'post-post': settings.concurrency.postRoute },
    ...(settings.waf ? { edgeOriginSecret: settings.waf.originSecret } : {}),
    ...(settings.apiDomain ? { apiDomain: settings.apiDomain } : {}),
    description: 'Social publishing: HTTP API, one function per route, scheduler dispatcher',
  });
  api.addStackDependency(data);
  const groups = routeGroups().map((group) => {
    const stack = new RouteGroupStack(app, name(group), { ...common, api, group, ...(routesOfGroup(group).some((r) => r.id === 'post-mcp') ? { reservedConcurrency: { 'post-mcp': settings.concurrency.mcpFunction } } : {}), description: `Social publishing: the ${group} routes on the HTTP API` });
    stack.addStackDependency(api);
    return stack;
  });
  const workers = new WorkersStack(app, name('Workers'), {
    ...common, data, api, description: 'Social publishing: queue workers',
    maxConcurrency: { 'publish-worker': settings.concurrency.publishWorker, 'webhook-worker': settings.concurrency.webhookWorker, 'fire-worker': settings.concurrency.fireWorker },
  });
  workers.addStackDependency(data);
  workers.addStackDependency(api);
  const observability = new ObservabilityStack(app, name('Observability'), {
    ...common,
    data,
    api,
    workers,
    ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
    description: 'Social publishing: alarms and the alarm topic',
  });
  observability.addStackDependency(workers);

  let edge: EdgeStack | undefined;
  if (settings.waf) {
    // a CLOUDFRONT web ACL exists only in us-east-1; the API's domain reaches it by a cross-region reference, which
    // needs the API stack's region to be known
    const region = settings.env?.region;
    if (!region) throw new Error('-c waf=true needs the deployment region: set CDK_DEFAULT_REGION (or AWS_REGION with the CDK CLI) so the us-east-1 edge stack can reference the API');
    edge = new EdgeStack(app, name('Edge'), {
      stage, prefix: data.prefix, api, rateLimit: settings.waf.rateLimit, originSecret: settings.waf.originSecret,
      env: { ...settings.env, region: 'us-east-1' },
      description: 'Social publishing: CloudFront with a WAF web ACL in front of the HTTP API (us-east-1)',
    });
    edge.addStackDependency(api);
  }

  Tags.of(app).add('project', 'social-publishing');
  Tags.of(app).add('stage', stage);
  return { data, api, groups, workers, observability, ...(edge ? { edge } : {}) };
}

/**
 * cdk-nag's AwsSolutions pack as a policy-validation plugin of the app, so `cdk synth` and `cdk deploy` report its
 * findings (validation-report.json in cdk.out) and fail on an unacknowledged error; acknowledgements with their
 * reasons sit next to the resources (docs/operations.md, Security checks). `-c nag=false` skips it.
 */
export function addSecurityChecks(app: App): boolean {
  if (String(app.node.tryGetContext('nag') ?? 'true') === 'false') return false;
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return true;
}

/** Whether this synth bundles: the CDK CLI passes the stacks it bundles (`[]`: none, e.g. `cdk ls`). */
function bundles(app: App): boolean {
  const stacks: unknown = app.node.tryGetContext('aws:cdk:bundling-stacks');
  return !Array.isArray(stacks) || stacks.length > 0;
}

if (require.main === module) {
  void (async () => {
    const app = new App();
    addSecurityChecks(app);
    // every function's bundle at once before the synth (infra/lambda-bundles.ts); the assets copy them
    if (bundles(app)) await prebuildBundles();
    buildStacks(app);
    app.synth();
  })().catch((err: unknown) => { process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`); process.exitCode = 1; });
}

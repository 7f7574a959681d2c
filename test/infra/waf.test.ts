/**
 * The optional WAF (`-c waf=true`): CloudFront in front of the HTTP API with a WAFv2 web ACL (scope
 * CLOUDFRONT, so in a us-east-1 stack) — AWS managed rules and a per-IP rate-based rule; nothing cached, every viewer
 * header but Host forwarded. Off by default.
 */
process.env.CDK_VALIDATION = 'false';

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildStacks } from '../../bin/app';

type Resources = Record<string, { Properties: Record<string, any> }>;
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const SECRET = 'a'.repeat(40);

const savedRegion = process.env.CDK_DEFAULT_REGION;
afterEach(() => { if (savedRegion === undefined) delete process.env.CDK_DEFAULT_REGION; else process.env.CDK_DEFAULT_REGION = savedRegion; });

function build(context: Record<string, unknown>, region: string | undefined, outdir?: string) {
  if (region) process.env.CDK_DEFAULT_REGION = region; else delete process.env.CDK_DEFAULT_REGION;
  const app = new App({ ...(outdir ? { outdir } : {}), context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org', ...context } });
  return { app, stacks: buildStacks(app) };
}

describe('WAF', () => {
  test('off by default: no edge stack, no web ACL, no distribution', () => {
    const { app, stacks } = build({}, 'eu-west-1');
    expect(stacks.edge).toBeUndefined();
    expect(app.node.children.map((c) => c.node.id)).not.toContain('SocialPublishing-dev-Edge');
    for (const s of [stacks.data, stacks.api, stacks.workers, stacks.observability, ...stacks.groups]) {
      const t = Template.fromStack(s);
      t.resourceCountIs('AWS::WAFv2::WebACL', 0);
      t.resourceCountIs('AWS::CloudFront::Distribution', 0);
    }
    // without -c apiDomainName the execute-api endpoint stays on; without -c mcpReservedConcurrency the MCP stack reserves nothing
    Template.fromStack(stacks.api).hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: false });
    const mcp = stacks.groups.find((g) => g.routeFunctions.has('post-mcp'))!;
    for (const f of Object.values(Template.fromStack(mcp).findResources('AWS::Lambda::Function') as Resources)) expect(f.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  describe('-c waf=true', () => {
    const { stacks } = build({ waf: 'true', wafRateLimit: '500', edgeOriginSecret: SECRET }, 'eu-west-1');
    const edge = Template.fromStack(stacks.edge!);

    test('the viewer address reaches the API only with the secret origin header: a viewer-request function sets it, the origin adds the secret, the functions know it', () => {
      const dist = Object.values(edge.findResources('AWS::CloudFront::Distribution') as Resources)[0]!.Properties.DistributionConfig;
      expect(dist.Origins[0].OriginCustomHeaders).toEqual([{ HeaderName: 'x-origin-verify', HeaderValue: SECRET }]);
      expect(dist.DefaultCacheBehavior.FunctionAssociations).toEqual([expect.objectContaining({ EventType: 'viewer-request' })]);
      const fn = Object.values(edge.findResources('AWS::CloudFront::Function') as Resources)[0]!.Properties;
      expect(fn.FunctionCode).toContain("request.headers['x-edge-viewer-ip'] = { value: event.viewer.ip }");
      // the service's functions (not CDK's own custom-resource handlers)
      const envs = Object.values(Template.fromStack(stacks.api).findResources('AWS::Lambda::Function') as Resources).map((f) => f.Properties.Environment?.Variables ?? {}).filter((v) => v.RUNTIME === 'aws');
      expect(envs.length).toBeGreaterThan(0);
      expect(envs.every((v) => v.EDGE_ORIGIN_SECRET === SECRET)).toBe(true);
    });

    test('a stack SocialPublishing-<stage>-Edge in us-east-1, deployed after the API', () => {
      expect(stacks.edge!.stackName).toBe('SocialPublishing-dev-Edge');
      expect(stacks.edge!.region).toBe('us-east-1');
      expect(stacks.edge!.dependencies).toContain(stacks.api);
    });

    test('web ACL: CLOUDFRONT scope, allow by default, AWS common rules (body size only counted), known bad inputs, per-IP rate limit', () => {
      const acls = Object.values(edge.findResources('AWS::WAFv2::WebACL') as Resources);
      expect(acls).toHaveLength(1);
      const acl = acls[0]!.Properties;
      expect(acl).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
      const rules = acl.Rules as Array<Record<string, any>>;
      expect(rules.map((r) => r.Name)).toEqual(['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet', 'RateLimitPerIp']);
      expect(rules[0]!.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }] });
      expect(rules[1]!.Statement.ManagedRuleGroupStatement).toEqual({ VendorName: 'AWS', Name: 'AWSManagedRulesKnownBadInputsRuleSet' });
      expect(rules[2]).toMatchObject({ Action: { Block: {} }, Statement: { RateBasedStatement: { Limit: 500, AggregateKeyType: 'IP' } } });
      for (const r of rules) expect(r.VisibilityConfig).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true });
    });

    test('distribution: the web ACL, the API as HTTPS origin, no caching, all viewer headers but Host, every method', () => {
      const dists = Object.values(edge.findResources('AWS::CloudFront::Distribution') as Resources);
      expect(dists).toHaveLength(1);
      const config = dists[0]!.Properties.DistributionConfig;
      const aclId = Object.keys(edge.findResources('AWS::WAFv2::WebACL'))[0]!;
      expect(config.WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
      expect(config.DefaultCacheBehavior).toMatchObject({
        CachePolicyId: CACHING_DISABLED, OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER, ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      });
      expect(config.CacheBehaviors).toBeUndefined(); // one behaviour: nothing under /api (or anywhere) is cached
      expect(config.Origins).toHaveLength(1);
      expect(config.Origins[0].CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
      // the API's execute-api host, read across regions from the API stack
      expect(JSON.stringify(config.Origins[0].DomainName)).toMatch(/HttpApi.*ApiEndpoint/);
      expect(Object.keys(edge.findOutputs('EdgeUrl'))).toHaveLength(1);
    });

    test('the AwsSolutions checks pass with the edge stack', () => {
      const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'nag-waf-'));
      try {
        const { app } = build({ waf: 'true', edgeOriginSecret: SECRET }, 'eu-west-1', outdir);
        Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
        app.synth();
        const report = JSON.parse(fs.readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: Array<{ violations: unknown[] }> };
        expect(report.pluginReports.flatMap((p) => p.violations)).toEqual([]);
      } finally {
        fs.rmSync(outdir, { recursive: true, force: true });
      }
    });
  });

  test('needs a known region (the cross-region reference), and a sane rate limit', () => {
    expect(() => build({ waf: 'true', edgeOriginSecret: SECRET }, undefined)).toThrow(/waf=true needs the deployment region/);
    expect(() => build({ waf: 'true', wafRateLimit: '5', edgeOriginSecret: SECRET }, 'eu-west-1')).toThrow(/wafRateLimit/);
    expect(() => build({ waf: 'true' }, 'eu-west-1')).toThrow(/edgeOriginSecret/);
    expect(() => build({ waf: 'true', edgeOriginSecret: 'short' }, 'eu-west-1')).toThrow(/edgeOriginSecret/);
  });

  describe('-c apiDomainName with -c apiCertificateArn: nothing reaches the API around its domain (and the WAF)', () => {
    const CERT = 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-aaaa-bbbb-cccc-0123456789ab';
    const { stacks } = build({ waf: 'true', edgeOriginSecret: SECRET, apiDomainName: 'api-origin.example.com', apiCertificateArn: CERT, mcpReservedConcurrency: '25' }, 'eu-west-1');
    const api = Template.fromStack(stacks.api);

    test('the HTTP API has the custom domain with its certificate, mapped to the stage, and its execute-api endpoint disabled', () => {
      api.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
      api.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: 'api-origin.example.com', DomainNameConfigurations: [Match.objectLike({ CertificateArn: CERT })] });
      api.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 1);
      expect(Object.keys(api.findOutputs('ApiDomainTarget'))).toHaveLength(1);
    });

    test('CloudFront\'s origin is the custom domain', () => {
      const config = Object.values(Template.fromStack(stacks.edge!).findResources('AWS::CloudFront::Distribution') as Resources)[0]!.Properties.DistributionConfig;
      expect(config.Origins[0].DomainName).toBe('api-origin.example.com');
    });

    test('the MCP function, whose function URL is outside the throttles and the WAF, is capped by -c mcpReservedConcurrency', () => {
      const mcp = stacks.groups.find((g) => g.routeFunctions.has('post-mcp'))!;
      const fns = Object.values(Template.fromStack(mcp).findResources('AWS::Lambda::Function') as Resources);
      const capped = fns.filter((f) => f.Properties.ReservedConcurrentExecutions !== undefined);
      expect(capped.map((f) => [f.Properties.Description, f.Properties.ReservedConcurrentExecutions])).toEqual([['POST /api/mcp', 25]]);
    });

    test('the two flags go together and are checked', () => {
      expect(() => build({ apiDomainName: 'api.example.com' }, 'eu-west-1')).toThrow(/go together/);
      expect(() => build({ apiDomainName: 'not a host', apiCertificateArn: CERT }, 'eu-west-1')).toThrow(/Invalid apiDomainName/);
      expect(() => build({ apiDomainName: 'api.example.com', apiCertificateArn: 'arn:aws:iam::1:role/x' }, 'eu-west-1')).toThrow(/Invalid apiCertificateArn/);
    });
  });
});

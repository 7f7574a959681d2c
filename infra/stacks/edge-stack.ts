import { CfnOutput, Fn, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { ApiStack } from './api-stack';

export interface EdgeStackProps extends StackProps {
  stage: string;
  prefix: string;
  api: ApiStack;
  /** Requests per IP per 5 minutes before the rate-based rule blocks (WAF evaluates it over a sliding 5 minutes). */
  rateLimit: number;
  /** Sent to the API on every origin request (header x-origin-verify): only then does it trust x-edge-viewer-ip. */
  originSecret: string;
}

/**
 * The viewer-request function: the viewer's address as CloudFront saw it, in a header the API trusts only with the
 * origin secret (shared/http/client-ip.ts); whatever the viewer sent in that header is replaced.
 */
export const VIEWER_IP_FUNCTION = `function handler(event) {
  var request = event.request;
  request.headers['x-edge-viewer-ip'] = { value: event.viewer.ip };
  return request;
}`;

/** The managed rule groups of the web ACL, in priority order; rules of a group listed in `count` only count. */
export const WAF_MANAGED_RULES = [
  // SizeRestrictions_BODY blocks bodies over 8 KB: CSV bulk uploads and long posts are legitimate, so it only counts
  { name: 'AWSManagedRulesCommonRuleSet', count: ['SizeRestrictions_BODY'] },
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', count: [] as string[] },
] as const;

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true,
});

/**
 * Optional (`-c waf=true`, issue 17): a CloudFront distribution in front of the HTTP API with a WAFv2 web ACL (AWS
 * managed rules: common rule set, known bad inputs; a rate-based rule per IP). An HTTP API cannot be associated with
 * WAF directly, and a web ACL for CloudFront must live in us-east-1: this stack is deployed there and takes the API's
 * domain through a cross-region reference. Nothing is cached; every viewer header but Host goes to the API.
 */
export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: `${props.prefix}-edge`,
      description: `${props.prefix}: AWS managed rules and a per-IP rate limit in front of the API`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.prefix}-edge`),
      rules: [
        ...WAF_MANAGED_RULES.map((group, i) => ({
          name: group.name,
          priority: i,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS', name: group.name,
              ...(group.count.length ? { ruleActionOverrides: group.count.map((name) => ({ name, actionToUse: { count: {} } })) } : {}),
            },
          },
          visibilityConfig: visibility(`${props.prefix}-${group.name}`),
        })),
        {
          name: 'RateLimitPerIp',
          priority: WAF_MANAGED_RULES.length,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: props.rateLimit, aggregateKeyType: 'IP' } },
          visibilityConfig: visibility(`${props.prefix}-rate-limit`),
        },
      ],
    });

    // https://<id>.execute-api.<region>.amazonaws.com/ → the host name
    // (or the API's custom domain, whose execute-api endpoint is then disabled)
    const apiDomain = props.api.originDomain ?? Fn.select(2, Fn.split('/', props.api.httpApi.apiEndpoint));
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `${props.prefix}: WAF in front of the HTTP API`,
      webAclId: this.webAcl.attrArn,
      defaultBehavior: {
        origin: new origins.HttpOrigin(apiDomain, { protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY, customHeaders: { 'x-origin-verify': props.originSecret } }),
        functionAssociations: [{
          eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
          function: new cloudfront.Function(this, 'ViewerIp', {
            code: cloudfront.FunctionCode.fromInline(VIEWER_IP_FUNCTION), runtime: cloudfront.FunctionRuntime.JS_2_0,
            comment: `${props.prefix}: the viewer address for the API's per-IP limits`,
          }),
        }],
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      },
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    });
    const v = Validations.of(this.distribution);
    v.acknowledge({ id: 'AwsSolutions::AwsSolutions-CFR1', reason: 'The API serves every country; abuse is handled by the WAF rules and the per-IP rate limit, not by geography.' });
    v.acknowledge({ id: 'AwsSolutions::AwsSolutions-CFR3', reason: 'No CloudFront access log yet: every request that reaches the API is in the API stage\'s access log (with the CloudFront edge address, not the viewer\'s), and the WAF keeps sampled requests with the viewer address for 3 hours (docs/operations.md, WAF). Standard logging to CloudWatch Logs is a later addition.' });
    v.acknowledge({ id: 'AwsSolutions::AwsSolutions-CFR4', reason: 'With the default *.cloudfront.net certificate CloudFront fixes the viewer security policy (it cannot be raised to TLS 1.2); that needs a custom domain with an ACM certificate, which the stack does not provision (docs/operations.md, WAF). The origin leg is HTTPS only.' });

    new CfnOutput(this, 'EdgeUrl', { value: `https://${this.distribution.distributionDomainName}`, description: 'The API behind CloudFront and WAF: use it as publicBaseUrl' });
    new CfnOutput(this, 'WebAclArn', { value: this.webAcl.attrArn });
  }
}

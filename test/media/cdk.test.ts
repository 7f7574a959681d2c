/**
 * CDK assertions for media: the bucket (30-day lifecycle, no public access, CORS for the upload page's browser PUT,
 * TLS only) and what the media functions may do. Synthesised without bundling or template validation (fast).
 */
process.env.CDK_VALIDATION = 'false';

import { App } from 'aws-cdk-lib';
import { templateWithNested } from '../support/cdk';
import { Template } from 'aws-cdk-lib/assertions';
import { buildStacks } from '../../bin/app';
import { routes } from '../../functions/routes';

type Resource = { Type: string; Properties: Record<string, any> };

let data: Template;
let api: Template;
let workers: Template;
beforeAll(() => {
  const stacks = buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org' } }));
  data = Template.fromStack(stacks.data);
  api = templateWithNested(stacks.api);
  workers = Template.fromStack(stacks.workers);
});

/** The media bucket: the bucket with a CORS configuration (the access-log bucket has none). */
function mediaBucket(): [string, Resource] {
  const buckets = Object.entries(data.findResources('AWS::S3::Bucket') as Record<string, Resource>).filter(([, b]) => b.Properties.CorsConfiguration);
  expect(buckets).toHaveLength(1);
  return buckets[0]!;
}

/** Every action the role of the function described `description` may take, with its resources. */
function statementsOf(t: Template, description: string): Array<{ Effect: string; Action: string | string[]; Resource: unknown }> {
  const fns = Object.values(t.findResources('AWS::Lambda::Function', { Properties: { Description: description } }) as Record<string, Resource>);
  expect(fns).toHaveLength(1);
  const roleId = fns[0]!.Properties.Role['Fn::GetAtt'][0] as string;
  return Object.values(t.findResources('AWS::IAM::Policy') as Record<string, Resource>)
    .filter((p) => (p.Properties.Roles as Array<{ Ref: string }>).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}
const s3Actions = (t: Template, description: string) =>
  statementsOf(t, description).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).filter((a) => a.startsWith('s3:')).sort();

describe('media bucket', () => {
  it('expires uploads (media/) after 30 days and exports after a day; branding logos (branding/) never; stale multipart uploads are aborted', () => {
    const [, bucket] = mediaBucket();
    const rules = bucket.Properties.LifecycleConfiguration.Rules as Array<Record<string, any>>;
    expect(rules).toEqual([
      { Id: 'expire-media', Prefix: 'media/', Status: 'Enabled', ExpirationInDays: 30 },
      { Id: 'expire-exports', Prefix: 'exports/', Status: 'Enabled', ExpirationInDays: 1 },
      { Id: 'abort-incomplete-uploads', Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
    ]);
    // no rule that expires objects applies to every key (it would take the logos with it)
    expect(rules.filter((r) => r.ExpirationInDays !== undefined && !r.Prefix)).toEqual([]);
    expect(rules.some((r) => r.ExpirationInDays !== undefined && 'branding/x'.startsWith(r.Prefix))).toBe(false);
  });

  it('blocks all public access: media_url is served by a 302 to a presigned GET, so no public policy is needed', () => {
    const [id, bucket] = mediaBucket();
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    const policies = Object.values(data.findResources('AWS::S3::BucketPolicy') as Record<string, Resource>).filter((p) => p.Properties.Bucket.Ref === id);
    expect(policies).toHaveLength(1);
    const statements = policies[0]!.Properties.PolicyDocument.Statement as Array<{ Effect: string; Principal?: unknown; Condition?: any; Action: unknown }>;
    // nothing is allowed to everyone
    expect(statements.filter((s) => s.Effect === 'Allow' && JSON.stringify(s.Principal ?? '').includes('"*"'))).toEqual([]);
    // TLS only: every request without TLS is denied
    expect(statements).toEqual(expect.arrayContaining([
      expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    ]));
  });

  it("CORS lets the upload page PUT from the browser with the signed content-type, from the service's origin only", () => {
    const [, bucket] = mediaBucket();
    const rules = bucket.Properties.CorsConfiguration.CorsRules as Array<Record<string, string[]>>;
    expect(rules).toHaveLength(1);
    expect(rules[0]!.AllowedMethods).toEqual(['PUT']);
    expect(rules[0]!.AllowedHeaders).toEqual(expect.arrayContaining(['content-type']));
    expect(JSON.stringify(rules[0]!.AllowedOrigins)).not.toBe('["*"]');
    expect(JSON.stringify(rules[0]!.AllowedOrigins)).toContain('execute-api');
    expect(rules[0]!.ExposedHeaders).toEqual(expect.arrayContaining(['etag']));
  });
});

describe('media functions', () => {
  const d = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

  it('every media route is deployed, the open ones included', () => {
    for (const r of [routes.postMediaUploadUrl, routes.getMediaFinalize, routes.postMediaUploadLink, routes.getMediaUploadLink,
      routes.getMediaUploadPage, routes.postMediaUploadLinkUrl, routes.postMediaUploadLinkComplete, routes.getMediaFile]) {
      api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: d(r) });
    }
  });

  it('the Branding form copies an upload to branding/ (read, write, delete the replaced logo); the logo link only reads', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: d(routes.getBrandingLogo) });
    expect(s3Actions(api, d(routes.postDashboardBranding))).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
    expect(s3Actions(api, d(routes.getBrandingLogo))).toEqual(['s3:GetObject']);
    expect(s3Actions(api, d(routes.getDashboardBranding))).toEqual([]);
  });

  it('functions that presign, check or redirect get object-level S3 actions on the media bucket only', () => {
    for (const r of [routes.postMediaUploadUrl, routes.getMediaFinalize, routes.postMediaUploadLinkUrl, routes.postMediaUploadLinkComplete, routes.getMediaFile]) {
      // the media_url redirect only presigns reads
      expect(s3Actions(api, d(r))).toEqual(r === routes.getMediaFile ? ['s3:GetObject'] : ['s3:DeleteObject', 's3:GetObject', 's3:PutObject']);
      const s3 = statementsOf(api, d(r)).filter((s) => JSON.stringify(s.Action).includes('s3:'));
      expect(JSON.stringify(s3.map((s) => s.Resource))).toContain('MediaBucketArn');
      expect(JSON.stringify(s3.map((s) => s.Resource))).toMatch(/\/\*"/); // objects, never the bucket itself
    }
  });

  it('the upload page and the link routes that never touch objects get no S3 permission', () => {
    for (const r of [routes.getMediaUploadPage, routes.postMediaUploadLink, routes.getMediaUploadLink]) {
      expect(s3Actions(api, d(r))).toEqual([]);
    }
  });

  it('the publish worker may read media objects (own uploads are read from the bucket)', () => {
    const fns = Object.values(workers.findResources('AWS::Lambda::Function') as Record<string, Resource>);
    expect(fns.length).toBeGreaterThan(0);
    const descriptions = fns.map((f) => f.Properties.Description as string);
    const publish = descriptions.find((x) => /publish/i.test(x ?? ''));
    expect(publish).toBeDefined();
    expect(s3Actions(workers, publish!)).toEqual(['s3:GetObject']);
  });
});

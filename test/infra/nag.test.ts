/**
 * cdk-nag (v3) AwsSolutions checks on every stack. v3 runs as a policy-validation plugin of the App
 * (`Validations.of(app).addPlugins(...)`; the v2 `Aspects.of(app).add(...)` form crashes with aws-cdk-lib 2.276) and
 * writes its findings to validation-report.json in the cloud assembly. Suppressions are `Validations.of(construct)
 * .acknowledge({ id, reason })` calls next to the resources (infra/); this test lists them and checks each reason.
 */
process.env.CDK_VALIDATION = 'false';

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { buildStacks } from '../../bin/app';

interface Violation { ruleName: string; severity: string; violatingConstructs?: { constructPath: string }[] }
interface Report { pluginReports: { pluginName: string; violations: Violation[] }[] }

const outdirs: string[] = [];
afterAll(() => { for (const d of outdirs) fs.rmSync(d, { recursive: true, force: true }); });

/** Synthesises `app` with the AwsSolutions pack; answers the report and the thrown error (errors fail synth). */
function synthWithNag(app: App, outdir: string): { report: Report; error?: string } {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let error: string | undefined;
  try {
    app.synth();
  } catch (err) {
    error = String(err);
  }
  const file = path.join(outdir, 'validation-report.json');
  const report: Report = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { pluginReports: [] };
  return { report, ...(error ? { error } : {}) };
}

function newApp(context: Record<string, unknown> = {}): { app: App; outdir: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'nag-'));
  outdirs.push(outdir);
  return { app: new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org', ...context } }), outdir };
}

const describeViolations = (report: Report) => report.pluginReports.flatMap((p) => p.violations.flatMap((v) =>
  (v.violatingConstructs ?? [{ constructPath: '?' }]).map((c) => `${v.severity} ${v.ruleName} at ${c.constructPath}`)));

function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((c) => c.node.metadata
    .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((m) => Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({ path: c.node.path, id, reason }))));
}

test('the harness sees findings (a bare bucket fails AwsSolutions-S1/S10)', () => {
  const { app, outdir } = newApp();
  new s3.Bucket(new Stack(app, 'NagSelfCheck'), 'Bare');
  const { report, error } = synthWithNag(app, outdir);
  expect(error).toMatch(/ValidationFailed|Validation failed/);
  expect(describeViolations(report)).toEqual(expect.arrayContaining([
    expect.stringMatching(/error AwsSolutions-S1 at NagSelfCheck\/Bare/),
    expect.stringMatching(/error AwsSolutions-S10 at NagSelfCheck\/Bare/),
  ]));
});

test.each(['dev', 'prod'])('stage %s: no unsuppressed AwsSolutions errors or warnings in any stack', (stage) => {
  const { app, outdir } = newApp({ stage, mailFrom: 'no-reply@mail.example.org' });
  const stacks = buildStacks(app);
  const { report, error } = synthWithNag(app, outdir);
  expect(describeViolations(report)).toEqual([]);
  expect(error).toBeUndefined();
  expect(Object.keys(stacks)).toHaveLength(5);
  expect(stacks.groups.map((g) => g.stackName)).toEqual([`SocialPublishing-${stage}-Dashboard`, `SocialPublishing-${stage}-Mcp`]);
});

test('every suppression is a specific rule with a real reason', () => {
  const { app } = newApp({ mailFrom: 'no-reply@mail.example.org' });
  buildStacks(app);
  const acks = acknowledgements(app);
  expect(acks.length).toBeGreaterThan(0);
  for (const a of acks) {
    expect(a.id).toMatch(/^AwsSolutions::AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
    expect(a.reason.length).toBeGreaterThan(60);
  }
  // The reviewed set: adding a new kind of suppression must be a deliberate change here too.
  const kinds = [...new Set(acks.map((a) => a.id.replace(/^AwsSolutions::/, '').replace(/SocialPublishing-dev/g, '<prefix>')))].sort();
  expect(kinds).toEqual([
    'AwsSolutions-APIG4',
    'AwsSolutions-IAM5[Resource::*]',
    'AwsSolutions-IAM5[Resource::<prefix>-Data-MediaBucketArn/*]',
    'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/<prefix>/*]',
    // non-prod stages: SES sandbox recipients (docs/operations.md#email-ses)
    'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
    'AwsSolutions-L1',
    'AwsSolutions-SQS3',
  ]);
});

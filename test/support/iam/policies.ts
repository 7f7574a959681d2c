/**
 * Each function's IAM policy as CDK synthesizes it, for the IAM simulation of the test suite (./simulate.ts).
 *
 * The stacks are built the way `cdk synth` builds them but without bundling and without aws-cdk-lib's template
 * validation (about 2 s instead of minutes: toolchain.md, CDK); each function role's policy is resolved by CDK and
 * its CloudFormation intrinsics are then replaced by fixed ARNs in one made-up account and region (the table, the
 * queues by queue name, the keys, the bucket, the scheduler role), so the requests of the local runtime, which use
 * local names, can be mapped to the same ARNs. The resource policies that decide together with the identity
 * policy (the KMS key policies, the bucket policy) are resolved the same way. jest's global setup writes the result
 * once per run (./global-setup.ts); every test file reads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { CfnElement, CfnResource, Stack as StackType } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';

export const ACCOUNT = '111111111111';
export const REGION = 'us-east-1';
/** The one table, whatever it is called locally (each test table has its own name). */
export const TABLE_ARN = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/app`;
/** The media bucket, whatever it is called locally. */
export const BUCKET_ARN = 'arn:aws:s3:::media';
/** The sender the stacks are synthesized with; a local request's sender is mapped to it (MAIL_FROM is configuration). */
export const SYNTH_MAIL_FROM = 'Social Publishing <no-reply@mail.example.org>';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type PolicyDocument = { Version?: string; Statement: Array<Record<string, Json>> };

export interface SynthesizedPolicies {
  /** The identity policy of each function's role, by route id, worker id or `dispatcher`'s id. */
  functions: Record<string, PolicyDocument>;
  /** Key policy by key ARN; bucket policy by bucket ARN. */
  resourcePolicies: Record<string, PolicyDocument>;
  /** ARNs a local request is mapped to. */
  arns: { credentialsKey: string; schedulerRole: string; scheduleGroup: string; queues: Record<string, string>; bedrockModel: string };
}

/** Builds the stacks (no bundling) and answers every function's policy with canonical ARNs. */
export function synthesizePolicies(): SynthesizedPolicies {
  process.env.CDK_VALIDATION = 'false';
  // aws-cdk-lib is loaded only here: every test file loads this module, and only a run without the cache synthesizes
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { App, CfnOutput, CfnResource, Stack } = require('aws-cdk-lib') as typeof import('aws-cdk-lib');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildStacks } = require('../../../bin/app') as typeof import('../../../bin/app');
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: SYNTH_MAIL_FROM } });
  const s = buildStacks(app);

  const logicalId = (c: IConstruct): string => Stack.of(c).getLogicalId(c as CfnElement);
  const named = new Map<string, string>();
  named.set(logicalId(s.data.table.node.defaultChild!), TABLE_ARN);
  named.set(logicalId(s.data.mediaBucket.node.defaultChild!), BUCKET_ARN);
  const queues: Record<string, string> = {};
  for (const wq of s.data.workerQueues) {
    const arn = `arn:aws:sqs:${REGION}:${ACCOUNT}:${wq.def.queueName}`;
    named.set(logicalId(wq.queue.node.defaultChild!), arn);
    queues[wq.def.queueName] = arn;
  }

  const outputs = new Map<string, { stack: StackType; value: unknown }>();
  const cfn: Array<{ stack: StackType; resource: CfnResource }> = [];
  const visit = (c: IConstruct): void => {
    if (c instanceof CfnOutput && c.exportName) outputs.set(c.exportName, { stack: Stack.of(c), value: c.value });
    if (c instanceof CfnResource) cfn.push({ stack: Stack.of(c), resource: c });
    for (const child of c.node.children) visit(child);
  };
  visit(app);
  const types = new Map(cfn.map(({ resource }) => [logicalId(resource), resource.cfnResourceType]));

  /** The canonical ARN (or name, for `Ref`) of a resource of the app by its logical id. */
  const arnOf = (id: string, attribute = 'Arn'): string => {
    const known = named.get(id);
    if (known) return attribute === 'Arn' ? known : known.split(/[:/]/).pop()!;
    const type = types.get(id) ?? 'Unknown';
    const service = type.split('::')[1]?.toLowerCase() ?? 'unknown';
    if (attribute !== 'Arn') return id;
    if (type === 'AWS::IAM::Role') return `arn:aws:iam::${ACCOUNT}:role/${id}`;
    if (type === 'AWS::KMS::Key') return `arn:aws:kms:${REGION}:${ACCOUNT}:key/${id}`;
    if (type === 'AWS::Logs::LogGroup') return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${id}:*`;
    if (type === 'AWS::SQS::Queue') return `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`;
    return `arn:aws:${service}:${REGION}:${ACCOUNT}:${id}`;
  };

  const PSEUDO: Record<string, string> = { 'AWS::Region': REGION, 'AWS::AccountId': ACCOUNT, 'AWS::Partition': 'aws', 'AWS::URLSuffix': 'amazonaws.com' };
  const evaluate = (v: unknown): Json => {
    if (Array.isArray(v)) return v.map(evaluate);
    if (!v || typeof v !== 'object') return v as Json;
    const o = v as Record<string, unknown>;
    const [fn] = Object.keys(o);
    if (Object.keys(o).length === 1 && fn) {
      const arg = o[fn];
      switch (fn) {
        case 'Ref': return PSEUDO[arg as string] ?? arnOf(arg as string, 'Ref');
        case 'Fn::GetAtt': return arnOf((arg as string[])[0]!, (arg as string[])[1]);
        case 'Fn::Join': { const [sep, parts] = arg as [string, unknown[]]; return parts.map((p) => String(evaluate(p))).join(sep); }
        case 'Fn::Sub': return String(arg).replace(/\$\{([^}]+)\}/g, (_, name: string) => PSEUDO[name] ?? arnOf(name.split('.')[0]!, name.split('.')[1] ?? 'Ref'));
        case 'Fn::ImportValue': {
          const out = outputs.get(String(evaluate(arg)));
          if (!out) throw new Error(`IAM simulation: no export named ${JSON.stringify(arg)}`);
          return evaluate(out.stack.resolve(out.value));
        }
        default: if (fn.startsWith('Fn::')) throw new Error(`IAM simulation: intrinsic ${fn} is not resolved (test/support/iam/policies.ts)`);
      }
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, evaluate(x)]));
  };
  const resolved = (scope: IConstruct, value: unknown): PolicyDocument => evaluate(Stack.of(scope).resolve(value)) as unknown as PolicyDocument;

  const functions: Record<string, PolicyDocument> = {};
  const fns: Array<[string, { role: iam.Role }]> = [
    ...s.api.routeFunctions.entries(),
    ...s.groups.flatMap((g) => [...g.routeFunctions.entries()]),
    ...[...s.workers.workerFunctions.entries()].map(([id, w]) => [id, w.fn] as [string, { role: iam.Role }]),
  ];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { dispatcher } = require('../../../functions/workers') as typeof import('../../../functions/workers');
  fns.push([dispatcher.id, s.api.dispatcher]);
  for (const [id, fn] of fns) {
    const policy = fn.role.node.tryFindChild('DefaultPolicy') as iam.Policy | undefined;
    functions[id] = policy ? resolved(policy, policy.document) : { Version: '2012-10-17', Statement: [] };
  }

  const resourcePolicies: Record<string, PolicyDocument> = {};
  for (const { stack, resource } of cfn) {
    if (resource.cfnResourceType !== 'AWS::KMS::Key' && resource.cfnResourceType !== 'AWS::S3::BucketPolicy') continue;
    const template = stack.resolve((resource as unknown as { _toCloudFormation(): unknown })._toCloudFormation()) as { Resources: Record<string, { Properties?: Record<string, unknown> }> };
    const props = Object.values(template.Resources)[0]?.Properties ?? {};
    if (resource.cfnResourceType === 'AWS::KMS::Key' && props.KeyPolicy) resourcePolicies[arnOf(logicalId(resource))] = evaluate(props.KeyPolicy) as unknown as PolicyDocument;
    if (resource.cfnResourceType === 'AWS::S3::BucketPolicy') resourcePolicies[String(evaluate({ 'Fn::GetAtt': [(props.Bucket as { Ref: string }).Ref, 'Arn'] }))] = evaluate(props.PolicyDocument) as unknown as PolicyDocument;
  }

  return {
    functions,
    resourcePolicies,
    arns: {
      credentialsKey: arnOf(logicalId(s.data.key.node.defaultChild!)),
      schedulerRole: arnOf(logicalId(s.api.schedulerRole.node.defaultChild!)),
      scheduleGroup: s.data.scheduleGroupName,
      queues,
      bedrockModel: s.api.functionEnvironment.BEDROCK_MODEL_ID!,
    },
  };
}

const ROOT = path.resolve(__dirname, '..', '..', '..');
/** Everything the policies are built from: the infra code, the route and worker declarations, the app entry. */
const SOURCES = ['infra', 'bin/app.ts', 'shared/http', 'shared/config.ts', 'package-lock.json'];

function sourceHash(): string {
  const hash = crypto.createHash('sha256');
  const add = (p: string): void => {
    const full = path.join(ROOT, p);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) if (name !== 'node_modules') add(path.join(p, name));
    } else { hash.update(p); hash.update(fs.readFileSync(full)); }
  };
  SOURCES.forEach(add);
  return hash.digest('hex').slice(0, 16);
}

export const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'iam-simulation');

/** The policies of the current sources: from the cache when the sources did not change, else synthesized and cached. */
export function cachedPolicies(): { file: string; policies: SynthesizedPolicies } {
  const file = path.join(CACHE_DIR, `policies-${sourceHash()}.json`);
  if (fs.existsSync(file)) return { file, policies: JSON.parse(fs.readFileSync(file, 'utf8')) as SynthesizedPolicies };
  const policies = synthesizePolicies();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  for (const old of fs.readdirSync(CACHE_DIR)) fs.rmSync(path.join(CACHE_DIR, old), { force: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(policies));
  fs.renameSync(tmp, file);
  return { file, policies };
}

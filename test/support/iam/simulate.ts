/**
 * The IAM decision of one AWS request a function makes, by @cloud-copilot/iam-simulate, against that function's own
 * policy as CDK synthesizes it (./policies.ts) and, for KMS keys and the media bucket, their resource policy.
 *
 * Assumptions where this simulation and AWS may differ (each tested in test/infra/iam-simulation.test.ts):
 * - `dynamodb:LeadingKeys` is the partition-key value(s) the request names: an item call's key, a query's key
 *   condition (on the index, the index's partition key `gsi1pk`: AWS documents LeadingKeys as "the partition key
 *   values of the table", and applies it to an index's own partition key for index queries), every key of a batch.
 *   A request naming no key (Scan) gets no LeadingKeys, so `ForAllValues` would match vacuously: AWS answers such a
 *   request with AccessDenied whenever the statement has the condition, and so does this check (`noKeyDenied`).
 * - `dynamodb:Attributes` is every top-level attribute name the request names: a put's item, an update's key and
 *   the names of its update and condition expressions, a read's projection (AWS: "a list of attribute names in a
 *   request"). A conditional update is decided on the request alone, before its condition is evaluated, as in AWS.
 * - `dynamodb:ReturnValues` / `dynamodb:Select` are given when the request sets them (AWS evaluates them absent
 *   as "NONE"/"ALL_ATTRIBUTES"; no policy of ours names them).
 * - The KMS key policies delegate to IAM (root principal): the identity policy decides; the encryption context of
 *   the request is given as `kms:EncryptionContext:<key>` and `kms:EncryptionContextKeys`.
 * - Requests are made over TLS (`aws:SecureTransport` true), from the function's role in the same account.
 */
import { ACCOUNT, type PolicyDocument, type SynthesizedPolicies } from './policies';

/** One request as IAM sees it. */
export interface IamRequest {
  action: string;
  resource: string;
  context?: Record<string, string | string[]>;
  /** A DynamoDB request without a partition key (Scan): refused by any statement bounded by LeadingKeys. */
  noKey?: boolean;
}

export type Decision = 'Allowed' | 'ImplicitlyDenied' | 'ExplicitlyDenied';

const decisions = new Map<string, Promise<Decision>>();

/** The decision on `request` made by `fn`'s role (cached: the suite repeats the same requests many times). */
export function decide(policies: SynthesizedPolicies, fn: string, request: IamRequest, policyOverride?: PolicyDocument): Promise<Decision> {
  const policy = policyOverride ?? policies.functions[fn];
  if (!policy) return Promise.reject(new Error(`IAM simulation: no synthesized policy for function "${fn}" (test/support/iam/policies.ts)`));
  const key = JSON.stringify([policyOverride ?? fn, request]);
  let d = decisions.get(key);
  if (!d) {
    d = simulate(policies, fn, request, policy);
    decisions.set(key, d);
  }
  return d;
}

async function simulate(policies: SynthesizedPolicies, fn: string, request: IamRequest, policy: PolicyDocument): Promise<Decision> {
  if (request.noKey && policy.Statement.some((s) => s.Effect === 'Allow' && JSON.stringify(s.Condition ?? {}).includes('dynamodb:LeadingKeys') && actionMatches(s.Action, request.action))
    && !policy.Statement.some((s) => s.Effect === 'Allow' && !s.Condition && actionMatches(s.Action, request.action))) return 'ImplicitlyDenied';
  const resourcePolicy = resourcePolicyFor(policies, request.resource);
  // loaded on the first request only: most test files make none
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runSimulation } = require('@cloud-copilot/iam-simulate') as typeof import('@cloud-copilot/iam-simulate');
  const result = await runSimulation({
    request: {
      principal: `arn:aws:iam::${ACCOUNT}:role/${fn}`,
      action: request.action,
      resource: { resource: request.resource, accountId: ACCOUNT },
      contextVariables: { 'aws:SecureTransport': 'true', ...request.context },
    },
    identityPolicies: [{ name: fn, policy }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    ...(resourcePolicy ? { resourcePolicy } : {}),
  }, {});
  if (result.resultType === 'error') throw new Error(`IAM simulation of ${request.action} on ${request.resource}: ${JSON.stringify(result.errors)}`);
  return result.overallResult as Decision;
}

function actionMatches(actions: unknown, action: string): boolean {
  const list = Array.isArray(actions) ? actions : [actions];
  return list.some((a) => typeof a === 'string' && new RegExp(`^${a.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(action));
}

function resourcePolicyFor(policies: SynthesizedPolicies, resource: string): PolicyDocument | undefined {
  if (resource.startsWith('arn:aws:kms:')) return policies.resourcePolicies[resource];
  if (resource.startsWith('arn:aws:s3:::')) return policies.resourcePolicies[resource.split('/')[0]!];
  return undefined;
}

/**
 * The IAM simulation of the test suite (jest setupFilesAfterEnv): every AWS request made while the local runtime
 * runs a function (infra/local/function-scope.ts) is decided by @cloud-copilot/iam-simulate against that
 * function's own policy as CDK synthesizes it. A denied request is refused as AWS would (AccessDeniedException)
 * and fails the test that made it, even when the code under test catches the error.
 *
 * What is checked: every SDK command (DynamoDB with its condition keys, SQS, S3, and KMS, Scheduler, SES, SSM,
 * Bedrock when sent), and the requests the AWS adapters would make where the local runtime uses a stand-in: the
 * local key (KMS GenerateDataKey/Decrypt with the encryption context), the outbox (SES SendEmail), the table
 * scheduler (Scheduler Create/DeleteSchedule and iam:PassRole; its own TIMER# items are not the function's table
 * requests) and the local drafter (Bedrock InvokeModel). Presigned S3 URLs are signed, not sent, so not checked.
 */
import fs from 'node:fs';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '@smithy/core/client';
import { functionScope } from '../../../infra/local/function-scope';
import { cachedPolicies, type SynthesizedPolicies } from './policies';
import { bedrockRequest, kmsRequest, requestsOf, schedulerRequests, sesRequests } from './requests';
import { decide, type Decision, type IamRequest } from './simulate';
import { LocalKeyCipher } from '../../../shared/adapters/local/local-cipher';
import { OutboxMailer } from '../../../shared/adapters/local/outbox-mailer';
import { TableScheduler } from '../../../shared/adapters/dynamodb/table-scheduler';
import { LocalDrafter } from '../../../shared/adapters/local/local-drafter';

export interface Denial { fn: string; request: IamRequest; decision: Decision }

const state = ((globalThis as { __iamSimulation?: { policies: SynthesizedPolicies; denials: Denial[]; checked: number } }).__iamSimulation ??= {
  policies: process.env.IAM_POLICIES_FILE && fs.existsSync(process.env.IAM_POLICIES_FILE)
    ? JSON.parse(fs.readFileSync(process.env.IAM_POLICIES_FILE, 'utf8')) as SynthesizedPolicies
    : cachedPolicies().policies,
  denials: [],
  checked: 0,
});

export const iamPolicies = (): SynthesizedPolicies => state.policies;
/** The denials recorded since the last call (a test that provokes one on purpose takes it, so it does not fail). */
export function takeDenials(): Denial[] { return state.denials.splice(0); }
/** How many requests were decided in this test file. */
export const checkedRequests = (): number => state.checked;

/** Routes of the local runtime only (e.g. /dev/outbox): no function in AWS, so no policy to decide with. */
let localOnly: Set<string> | undefined;
const isLocalOnly = (fn: string): boolean => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  localOnly ??= new Set((require('../../../functions/routes') as typeof import('../../../functions/routes')).routeList.filter((r) => r.localOnly).map((r) => r.id));
  return localOnly.has(fn);
};

/** Inside a stand-in (e.g. the table scheduler's own items): the requests are the stand-in's, not the function's. */
const standIn = new AsyncLocalStorage<boolean>();

/** Decides each request for the function running now; refuses (AccessDeniedException) on the first denial. */
export async function authorize(requests: IamRequest[]): Promise<void> {
  const scope = functionScope.getStore();
  if (!scope || standIn.getStore() || isLocalOnly(scope.fn)) return;
  for (const request of requests) {
    state.checked++;
    const decision = await decide(state.policies, scope.fn, request);
    if (decision === 'Allowed') continue;
    state.denials.push({ fn: scope.fn, request, decision });
    throw Object.assign(new Error(`IAM simulation: the function ${scope.fn} is not authorized to perform ${request.action} on ${request.resource} `
      + `(${decision}; context ${JSON.stringify(request.context ?? {})})`), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } });
  }
}

type Send = (this: { constructor: { name: string } }, command: { constructor: { name: string }; input?: Record<string, unknown> }, ...rest: unknown[]) => Promise<unknown>;
const proto = Client.prototype as unknown as { send: Send; __iamPatched?: boolean };
if (!proto.__iamPatched) {
  proto.__iamPatched = true;
  const send = proto.send;
  proto.send = function checkedSend(command, ...rest) {
    if (!functionScope.getStore() || standIn.getStore()) return send.call(this, command, ...rest);
    const requests = requestsOf(state.policies, this.constructor.name, command.constructor.name, command.input ?? {});
    if (!requests) return send.call(this, command, ...rest);
    return authorize(requests).then(() => send.call(this, command, ...rest));
  };

  /** Checks `requests(args)` first, then runs the stand-in method with its own requests unchecked. */
  const guard = <T extends object>(cls: { prototype: T }, method: keyof T & string, requests: (...args: any[]) => IamRequest[]): void => {
    const original = (cls.prototype as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!;
    (cls.prototype as Record<string, unknown>)[method] = async function guarded(this: unknown, ...args: unknown[]) {
      await authorize(requests(...args));
      return standIn.run(true, () => original.apply(this, args));
    };
  };
  const p = () => state.policies;
  guard(LocalKeyCipher, 'encrypt', (_plain: string, context?: Record<string, string>) => [kmsRequest(p(), 'GenerateDataKey', context)]);
  guard(LocalKeyCipher, 'decrypt', (_token: string, context?: Record<string, string>) => [kmsRequest(p(), 'Decrypt', context)]);
  guard(OutboxMailer, 'send', () => sesRequests());
  guard(TableScheduler, 'scheduleOnce', (inv: { name: string }) => schedulerRequests(p(), 'CreateSchedule', inv.name));
  guard(TableScheduler, 'scheduleCron', (inv: { name: string }) => schedulerRequests(p(), 'CreateSchedule', inv.name));
  guard(TableScheduler, 'cancel', (name: string) => schedulerRequests(p(), 'DeleteSchedule', name));
  guard(LocalDrafter, 'draft', () => [bedrockRequest(p())]);
}

afterEach(() => {
  const denied = takeDenials();
  if (denied.length) {
    throw new Error(`IAM simulation: ${denied.length} AWS request(s) a function made would be denied by its synthesized policy:\n`
      + denied.map((d) => `  ${d.fn}: ${d.request.action} on ${d.request.resource} ${JSON.stringify(d.request.context ?? {})} → ${d.decision}`).join('\n'));
  }
});

// IAM_SIMULATION_REPORT=1: how many requests each test file had decided (to see the simulation at work)
afterAll(() => {
  if (process.env.IAM_SIMULATION_REPORT) process.stderr.write(`IAM simulation: ${state.checked} request(s) decided in ${expect.getState().testPath ?? 'this file'}\n`);
});

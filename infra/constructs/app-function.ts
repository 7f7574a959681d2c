import fs from 'node:fs';
import path from 'node:path';
import { Annotations, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { LAMBDA_BUNDLE } from '../bundling';
import { functionCode } from '../lambda-bundles';
import { sdkLayer } from './sdk-layer';
import type { WiringDeclaration } from '../../shared/wiring/declaration';

/** The repository root: handler paths in routes.ts and workers.ts are relative to it. */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

export interface AppFunctionProps {
  /** Project-relative handler file, e.g. `functions/http/get-me.ts` (exports `handler`). */
  handlerFile: string;
  /** @default 512 */
  memoryMb?: number;
  /** @default 29 (the HTTP API integration limit is 30 s) */
  timeoutSeconds?: number;
  /** The service configuration (shared/config.ts); merged over the runtime defaults below. */
  environment?: Record<string, string>;
  /** A fixed physical name; only for functions whose ARN must be known before they exist (the dispatcher). */
  functionName?: string;
  description?: string;
  /** Log group removal: RETAIN keeps a deleted function's logs (prod). @default DESTROY */
  logRemovalPolicy?: RemovalPolicy;
  /** Customer-managed KMS key encrypting the function's log group. */
  logsKey?: kms.IKey;
  /** What the bundle wires (shared/wiring/declaration.ts). @default the declaration of the route or worker whose handler this is */
  wiring?: WiringDeclaration;
}

/**
 * A NodejsFunction with the project's defaults: Node.js 22 on arm64, an esbuild bundle with infra/bundling.ts's
 * settings (minified CJS — middy 6 is ESM-only but esbuild converts it —, a source map beside it, only the adapters
 * the function's declaration wires), active tracing, and its own log group kept one month.
 *
 * The function gets its own role without the AWSLambdaBasicExecutionRole managed policy: it may write only to its
 * own log group, and every other permission is added by infra/constructs/grants.ts from the route/worker's grants.
 */
export class AppFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: logs.RetentionDays.ONE_MONTH,
      ...(props.logsKey ? { encryptionKey: props.logsKey } : {}),
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.DESTROY,
    });

    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.handlerFile}`,
    });
    // Replaces AWSLambdaBasicExecutionRole: write to this function's log group only (no logs:CreateLogGroup).
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [this.logGroup.logGroupArn],
    }));

    const entry = path.join(PROJECT_ROOT, props.handlerFile);
    // NodejsFunction insists on the entry file even when bundling is skipped (tests with aws:cdk:bundling-stacks=[]).
    // A handler still being written must not block the infra tests; any synth that bundles still fails on it.
    const placeholder = !fs.existsSync(entry) && !Stack.of(this).bundlingRequired;
    if (placeholder) {
      Annotations.of(this).addWarningV2('social-publishing:handler-missing', `${props.handlerFile} does not exist yet (bundling skipped)`);
    }

    this.fn = new NodejsFunction(this, 'Fn', {
      entry,
      // the bundle of infra/bundling.ts's settings, built in-process (infra/lambda-bundles.ts), not NodejsFunction's own
      code: placeholder ? lambda.Code.fromInline('exports.handler = async () => { throw new Error("not bundled"); };') : functionCode(props.handlerFile, props.wiring),
      handler: 'handler',
      // the bundle leaves the SDK out; this layer brings the locked one (infra/constructs/sdk-layer.ts)
      ...(LAMBDA_BUNDLE.awsSdk === 'runtime' ? { layers: [sdkLayer(this)] } : {}),
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb ?? 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? 29),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      ...(props.functionName ? { functionName: props.functionName } : {}),
      ...(props.description ? { description: props.description } : {}),
      environment: {
        ...(LAMBDA_BUNDLE.nodeOptions ? { NODE_OPTIONS: LAMBDA_BUNDLE.nodeOptions } : {}),
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...props.environment,
      },
    });

    const v = Validations.of(this);
    v.acknowledge({
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason: 'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions. '
        + 'No other statement of this role uses a bare "*" resource (grants.ts).',
    });
    v.acknowledge({
      id: 'AwsSolutions::AwsSolutions-L1',
      reason: 'nodejs22.x is the chosen runtime (toolchain.md): the project is built and tested on Node 20/22 with middy 6; '
        + 'nodejs24.x has not been qualified yet.',
    });
  }
}

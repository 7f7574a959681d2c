import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { AppFunction } from '../constructs/app-function';
import { applyGrants, withQueues } from '../constructs/grants';
import type { WorkerDef } from '../../functions/workers';
import type { ApiStack } from './api-stack';
import { isProd, type DataStack, type WorkerQueue } from './data-stack';

export interface WorkersStackProps extends StackProps {
  stage: string;
  data: DataStack;
  /** Supplies the service environment (API URL, scheduler role, dispatcher ARN) and the grant targets. */
  api: ApiStack;
  /** The event source mapping's maximum concurrency by worker id (issue 18); absent: Lambda's default (no cap). */
  maxConcurrency?: Record<string, number>;
}

/**
 * One function per entry of functions/workers.ts, fed by its queue with partial batch failures. Besides consuming its
 * own queue, each worker may do exactly what its own declaration's `grants` say — the list its bundle's wiring is
 * built from too (shared/wiring/declaration.ts), so IAM, wiring and bundle agree.
 */
export class WorkersStack extends Stack {
  readonly workerFunctions = new Map<string, { def: WorkerDef; fn: AppFunction; queue: WorkerQueue }>();

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const { data, api } = props;
    const logRemovalPolicy = isProd(props.stage) ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    for (const wq of data.workerQueues) {
      const { def } = wq;
      const fn = new AppFunction(this, def.id, {
        handlerFile: def.handler,
        description: `Consumes ${wq.def.queueName} (${def.queueEnv})`,
        memoryMb: def.memoryMb,
        timeoutSeconds: def.timeoutSeconds,
        environment: api.functionEnvironment,
        logRemovalPolicy, logsKey: data.logsKey,
      });
      // SqsEventSource grants the consume actions (receive/delete/change visibility) on this queue only.
      // maxConcurrency caps the instances the queue may take, so a burst of due posts leaves concurrency to the API
      const maxConcurrency = props.maxConcurrency?.[def.id];
      fn.fn.addEventSource(new SqsEventSource(wq.queue, { batchSize: def.batchSize, reportBatchItemFailures: true, ...(maxConcurrency ? { maxConcurrency } : {}) }));
      applyGrants(fn, withQueues(def.grants, api.grantTargets), api.grantTargets);
      this.workerFunctions.set(def.id, { def, fn, queue: wq });
    }
  }
}

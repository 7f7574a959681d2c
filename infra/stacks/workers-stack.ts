import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import type { Grant } from '../../shared/http/route';
import { AppFunction } from '../constructs/app-function';
import { applyGrants } from '../constructs/grants';
import type { WorkerDef } from '../workers';
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
 * What a queue worker may do besides consuming its own queue: read/write the table, encrypt/decrypt network
 * credentials, create/delete schedules (deferring a rate-limited post), read uploaded media (to upload it to the
 * networks) and send webhook deliveries (when a worker consumes WEBHOOK_QUEUE_URL).
 */
export const WORKER_GRANTS: readonly Grant[] = ['table', 'kms', 'scheduler', 'bucketRead', 'webhookQueue', 'oauthConfig'];

/** One function per entry of infra/workers.ts, fed by its queue with partial batch failures. */
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
      const grants = WORKER_GRANTS.filter((g) => g !== 'webhookQueue' || api.grantTargets.webhookQueue);
      applyGrants(fn, grants, api.grantTargets);
      this.workerFunctions.set(def.id, { def, fn, queue: wq });
    }
  }
}

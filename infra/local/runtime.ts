import fs from 'node:fs';
import path from 'node:path';
import { routeList } from '../../functions/routes';
import { dispatcher, workers } from '../../functions/workers';
import { SWEEP_SCHEDULES } from '../sweep-schedules';
import { config, parseConfig, resetConfig } from '../../shared/config';
import { buildDeps } from '../../shared/container';
import type { Deps } from '../../shared/app/deps';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../../shared/adapters/aws/sqs-queue';
import type { Clock } from '../../shared/ports/clock';
import { TableScheduler } from '../../shared/adapters/dynamodb/table-scheduler';
import { documentClient } from '../../shared/adapters/dynamodb/client';
import type { EngineTransports } from '../../shared/adapters/local/in-process-transport';
import { ensureTable, startDynamoThread, startS3, startSqs } from './services';
import { startHttpServer, type ExtraRoute } from './http-server';
import { handlersOver, lambdaContext } from './invoke';
import { asFunction } from './function-scope';
import { startPoller } from './sqs-poller';
import { startTimerPoller } from './timer-poller';
import { startMediaSweep } from './media-sweep';
import { Sandbox } from './sandbox';
import { sandboxEnvironment, sandboxRoutes, simulatedNetworks } from './sandbox/wiring';
import { startupSweeps } from './startup-sweeps';

export interface LocalOptions {
  /** HTTP port (0 = random). */
  port?: number;
  /** Where state lives (DynamoDB, S3 objects, outbox, local key). */
  dataDir: string;
  /** Extra environment for the handlers (e.g. network base URLs for tests). */
  env?: Record<string, string>;
  /** Extra raw routes served before the route table (e.g. local media downloads). */
  extraRoutes?: ExtraRoute[];
  log?: (line: string) => void;
  /** Time for the handlers and the timers (tests pass a clock they move); default: the real clock. */
  clock?: Clock;
  /**
   * Dependencies the handlers get instead of the ones the configuration chooses (tests: a fake network, a clock moved
   * for the handlers alone), from the ones it would choose.
   */
  deps?: (chosen: Deps) => Partial<Deps>;
  /** Timers fire only on `runTimers()`, never on their own (tests drive the scheduler); default: a tick every 250 ms. */
  manualTimers?: boolean;
}

export interface LocalRuntime {
  url: string;
  port: number;
  dataDir: string;
  /** sandbox: every network simulated in this process (the default); live: the real networks. */
  networks: 'sandbox' | 'live';
  /** The simulators (sandbox mode only): their records are what GET /dev/sandbox shows. */
  sandbox?: Sandbox;
  /** Networks left to the user's own <NAME>_API_BASE / client settings in sandbox mode (explicit wins). */
  explicitNetworks: string[];
  /** The dependencies every handler of this runtime is made over (one container). */
  deps: Deps;
  /** The in-process transports every DynamoDB and SQS client of the runtime sends through (tests time the requests). */
  transports: Required<EngineTransports>;
  /** Fires every timer due now (on the runtime's clock) and resolves when the dispatcher has handled each. */
  runTimers(): Promise<void>;
  /** Resolves once every queue is empty and no worker is handling a message (the work in flight is done). */
  drained(): Promise<void>;
  stop(): Promise<void>;
}

export const TABLE_NAME = 'social-publishing-local';
export const MEDIA_BUCKET = 'media';

/**
 * Runs the whole service in this process: the embedded DynamoDB/S3/SQS stand-ins, the HTTP server feeding API
 * Gateway v2 events to the route handlers, an SQS poller per worker, and the table-backed scheduler.
 * 1. Start the stand-ins (state under dataDir, so a restart keeps it) and create the table, bucket and queues.
 * 2. Point the handlers at them through the same environment variables the CDK stack sets in AWS.
 * 3. Serve HTTP, then start the pollers.
 */
export async function startLocalRuntime(opts: LocalOptions): Promise<LocalRuntime> {
  const log = opts.log ?? (() => undefined);
  // no worker of this process exists before this instant: an older claim belongs to a previous process, dead for sure
  const startedAt = (opts.clock ?? Date).now();
  // a bad environment stops here, before anything starts, with one line naming the variable
  const given = parseConfig({ ...process.env, ...opts.env });
  const sandbox = given.NETWORKS === 'sandbox' ? new Sandbox() : undefined;
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const dynamo = await startDynamoThread(path.join(dataDir, 'dynamodb'), 0, (err) => log(`local runtime: the DynamoDB thread failed: ${(err as Error)?.stack ?? String(err)}`));
  await ensureTable(dynamo.endpoint, TABLE_NAME);
  const s3 = await startS3(path.join(dataDir, 's3'), [MEDIA_BUCKET]);
  const sqs = await startSqs();
  const queues = Object.fromEntries(await Promise.all(workers.map(async (w) => [w.id, await sqs.createQueue(w.queueName, { visibilityTimeoutSeconds: w.visibilityTimeoutSeconds, maxReceiveCount: w.maxReceiveCount })] as const)));

  Object.assign(process.env, {
    RUNTIME: 'local', TABLE_NAME, MEDIA_BUCKET, DATA_DIR: dataDir, AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    DYNAMODB_ENDPOINT: dynamo.endpoint, S3_ENDPOINT: s3.endpoint, SQS_ENDPOINT: sqs.endpoint,
    LOCAL_STARTED_AT_MS: String(startedAt),
    ...Object.fromEntries(workers.map((w) => [w.queueEnv, queues[w.id].url])),
    ...opts.env,
  });

  // Where the stand-ins listen, for operator tools (bin/social-admin.ts --local); rewritten on every start.
  fs.writeFileSync(path.join(dataDir, 'runtime.json'), JSON.stringify({
    region: 'us-east-1', table: TABLE_NAME, bucket: MEDIA_BUCKET, dynamodb: dynamo.endpoint, s3: s3.endpoint, sqs: sqs.endpoint,
    queues: Object.fromEntries(workers.map((w) => [w.queueName, queues[w.id]])),
  }, null, 2));
  const extraRoutes = [...(opts.extraRoutes ?? []), ...(sandbox ? sandboxRoutes(sandbox) : [])];
  // every handler is made over the one container built below, once the configuration is complete
  let depsBuilt!: (deps: Deps) => void;
  const loadHandler = handlersOver(new Promise<Deps>((resolve) => { depsBuilt = resolve; }));
  const http = await startHttpServer(routeList, loadHandler, opts.port ?? 3000, extraRoutes, sandbox ? (req, socket, head) => sandbox.upgrade(req, socket, head) : undefined);
  const url = `http://localhost:${http.port}`;
  process.env.PUBLIC_BASE_URL = opts.env?.PUBLIC_BASE_URL ?? url;
  // sandbox mode: each network not configured by the user points at its simulator; the runtime's own variables
  // are taken back at stop, so the next runtime in this process starts from the user's environment again
  let sandboxEnv: Record<string, string> = {};
  let explicitNetworks: string[] = [];
  if (sandbox) {
    sandbox.mount(url);
    ({ env: sandboxEnv, explicit: explicitNetworks } = sandboxEnvironment(sandbox, process.env));
    Object.assign(process.env, sandboxEnv, { SANDBOX_ORIGIN: url, SANDBOX_NETWORKS: simulatedNetworks(sandbox, explicitNetworks).join(',') });
  }
  resetConfig();
  // the handlers' and the pollers' SDK clients reach the engines in-process (no socket, no HTTP); the endpoints stay
  // for everything else (operator tools, a client built with an endpoint only)
  const transports = { dynamodb: dynamo.requestHandler, sqs: sqs.requestHandler };
  const chosen = buildDeps(config(), { clock: opts.clock, transports });
  const deps = opts.deps ? buildDeps(config(), { clock: opts.clock, transports, ...opts.deps(chosen) }) : chosen;
  depsBuilt(deps);

  const client = sqsClient({ region: 'us-east-1', endpoint: sqs.endpoint, requestHandler: sqs.requestHandler });
  const onError = (err: unknown) => log(`local runtime: ${(err as Error)?.stack ?? String(err)}`);
  const pollers = workers.map((w) => startPoller(client, {
    name: w.id, queueUrl: queues[w.id].url, queueArn: `arn:aws:sqs:us-east-1:000000000000:${w.queueName}`,
    batchSize: w.batchSize, timeoutMs: w.timeoutSeconds * 1000, load: () => loadHandler(w.handler), onError,
  }));
  const tableScheduler = new TableScheduler({ doc: documentClient({ region: 'us-east-1', endpoint: dynamo.endpoint, requestHandler: dynamo.requestHandler }), tableName: TABLE_NAME }, opts.clock);
  // the deployment's recurring sweeps (EventBridge Scheduler schedules of the CDK API stack in AWS)
  for (const sweep of SWEEP_SCHEDULES) await tableScheduler.scheduleCron({ ...sweep });
  const timers = startTimerPoller(
    tableScheduler,
    async (input) => { const handler = await loadHandler(dispatcher.handler); await asFunction(dispatcher.id, () => handler(input, lambdaContext(dispatcher.id, dispatcher.timeoutSeconds * 1000))); },
    { onError, clock: opts.clock, manual: opts.manualTimers },
  );
  const queueCounts = async () => Promise.all(workers.map(async (w) => {
    const res = await client.send(new GetQueueAttributesCommand({
      QueueUrl: queues[w.id].url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
    }));
    return Object.values(res.Attributes ?? {}).reduce((sum, n) => sum + Number(n), 0);
  }));
  // Stored media is deleted after 30 days: the bucket lifecycle rule and TTL in AWS, this sweep locally.
  const mediaSweep = startMediaSweep(deps, { onError });
  // the queues are in memory: whatever the previous process had queued or was doing is re-driven from the table now
  await startupSweeps(deps, log);

  return {
    url, port: http.port, dataDir, networks: given.NETWORKS, sandbox, explicitNetworks, deps, transports,
    runTimers: () => timers.tick(),
    async drained() {
      for (;;) {
        // listen first, so a receive that ends while the queues are read is not missed
        const received = Promise.race(pollers.map((p) => p.nextReceive()));
        if ((await queueCounts()).every((n) => n === 0)) return;
        await received;
      }
    },
    async stop() {
      await http.stop();
      await sandbox?.stop();
      for (const k of [...Object.keys(sandboxEnv), ...(sandbox ? ['SANDBOX_ORIGIN', 'SANDBOX_NETWORKS'] : [])]) delete process.env[k];
      await mediaSweep.stop();
      await Promise.all([...pollers.map((p) => p.stop()), timers.stop()]);
      client.destroy();
      await sqs.stop();
      await s3.stop();
      await dynamo.stop();
      delete process.env.LOCAL_STARTED_AT_MS;
      resetConfig();
    },
  };
}


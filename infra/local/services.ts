import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { TABLE_DEFINITION } from '../../shared/adapters/dynamodb/table-definition';
import { makeFauxqsFair, noteGroups } from './fair-queue';
import { captureSqsRouter } from './fauxqs-router';
import { EngineThreadHandler, SqsRouterHandler } from './in-process-requests';

/**
 * The embedded AWS stand-ins of local mode (toolchain.md): dynalite (DynamoDB, on disk under dataDir), s3rver (S3,
 * on disk) and fauxqs (SQS, in memory). Each start function answers its endpoint and a stop function.
 */
export interface Service {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startDynamo(dataDir: string | undefined, port = 0): Promise<Service> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const server = dynalite({ ...(dataDir ? { path: dataDir } : {}), ...DYNALITE_OPTIONS });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, '127.0.0.1', () => resolve()); });
  const { port: bound } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${bound}`,
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    }),
  };
}

const DYNALITE_OPTIONS = { createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 };

/**
 * The dynalite server of a worker thread (plain JavaScript, so it runs unchanged under tsx, jest and node): it
 * listens on loopback (operator tools, tests' own clients) and posts `{port}` (or `{error}`); requests of the
 * runtime's own clients arrive as messages (infra/local/in-process-requests.ts: EngineRequest) and are run through
 * dynalite's HTTP handler on a request/response pair built from the message, the answer posted back; on "stop" it
 * closes the server and the database.
 * dynalite parses every Condition, KeyCondition and Filter expression with its PEG parser on each request (13 % of
 * the thread's time under the publish bench). The parse is a function of the expression, whether it is a key
 * condition, and the attribute names and values it resolves, and its result is only read afterwards, so it is kept
 * per such key (up to 5,000, then started over). Of the values, the key holds those the expression names (every
 * `:name` in it: the grammar's value reference is ":" and letters, digits or "_"), not the request's others (an
 * update's new values change on nearly every call and would make every key new). Which names and values it used is
 * kept too and marked used on the request again, so "unused in expressions" is reported as before. A syntax error throws and is not kept.
 * On disk, dynalite's LevelDB (classic-level, through the `level` package) reads each item with `get`, which runs in
 * libuv's thread pool: two more thread wake-ups per read, on top of the two of the request. Here a read of an open
 * database without options (dynalite's only kind) is answered by classic-level's own `getSync` instead, still as a
 * promise (dynalite calls back on a later turn either way); writes, iterators, a database still opening and a
 * classic-level without `getSync` keep the asynchronous path.
 */
const DYNALITE_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { EventEmitter } = require('node:events');
const conditionParser = require(workerData.conditionParser);
const parseCondition = conditionParser.parse;
const conditions = new Map();
const valueRefs = new Map();
const valuesIn = (str) => {
  let refs = valueRefs.get(str);
  if (!refs) {
    refs = [...new Set(str.match(/:[A-Za-z0-9_]+/g) || [])];
    if (valueRefs.size >= 5000) valueRefs.clear();
    valueRefs.set(str, refs);
  }
  return refs;
};
conditionParser.parse = function keptParse(str, options) {
  const context = options.context;
  const vals = context.attrVals || {};
  const referenced = {};
  for (const k of valuesIn(str)) if (Object.prototype.hasOwnProperty.call(vals, k)) referenced[k] = vals[k];
  const key = JSON.stringify([str, !!context.isKeyCondition, context.attrNames || null, referenced]);
  let kept = conditions.get(key);
  if (!kept) {
    const all = (o) => Object.fromEntries(Object.keys(o || {}).map((k) => [k, true]));
    const probe = Object.assign({}, context, { unusedAttrNames: all(context.attrNames), unusedAttrVals: all(context.attrVals) });
    const result = parseCondition.call(this, str, Object.assign({}, options, { context: probe }));
    kept = {
      result,
      names: Object.keys(context.attrNames || {}).filter((k) => !(k in probe.unusedAttrNames)),
      vals: Object.keys(context.attrVals || {}).filter((k) => !(k in probe.unusedAttrVals)),
    };
    if (conditions.size >= 5000) conditions.clear();
    conditions.set(key, kept);
  }
  for (const k of kept.names) if (context.unusedAttrNames) delete context.unusedAttrNames[k];
  for (const k of kept.vals) if (context.unusedAttrVals) delete context.unusedAttrVals[k];
  return kept.result;
};
const { ClassicLevel } = workerData.classicLevel ? require(workerData.classicLevel) : {};
const levelGet = ClassicLevel && ClassicLevel.prototype.get;
if (levelGet) ClassicLevel.prototype.get = function getNow(key, options) {
  if (options !== undefined || this.status !== 'open' || !this.supports.getSync) return levelGet.call(this, key, options);
  try { return Promise.resolve(this.getSync(key)); } catch (err) { return Promise.reject(err); }
};
const dynalite = require(workerData.module);
const server = dynalite(workerData.options);
server.once('error', (err) => parentPort.postMessage({ error: String((err && err.stack) || err) }));
const handle = server.listeners('request')[0];
server.listen(workerData.port, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
function inProcess(m) {
  const req = new EventEmitter();
  req.method = m.method; req.url = m.url; req.headers = m.headers;
  const headers = {};
  const res = {
    statusCode: 200,
    setHeader(name, value) { headers[name.toLowerCase()] = String(value); },
    getHeader(name) { return headers[name.toLowerCase()]; },
    end(body) { parentPort.postMessage({ kind: 'response', id: m.id, status: res.statusCode, headers, body: body == null ? '' : String(body) }); },
  };
  handle(req, res);
  if (m.body) req.emit('data', Buffer.from(m.body, 'utf8'));
  req.emit('end');
}
parentPort.on('message', (m) => {
  if (m && m.kind === 'request') return inProcess(m);
  if (m !== 'stop') return;
  server.close(() => parentPort.close());
  if (server.closeAllConnections) server.closeAllConnections();
});
`;

/**
 * dynalite in its own worker thread: the same engine behind the same HTTP endpoint, but its request parsing, its
 * expression evaluation and LevelDB run on the second core instead of the event loop that also serves the API and
 * the workers (the local runtime is otherwise one CPU-bound Node event loop). `requestHandler` gives an SDK client
 * the engine without HTTP: requests go to the thread as messages (the runtime's own clients use it).
 */
/** The classic-level module dynalite's `level` loads (resolved from where each package is installed); none found → undefined. */
const classicLevelOfDynalite = (): string | undefined => {
  try {
    const level = require.resolve('level', { paths: [path.dirname(require.resolve('dynalite'))] });
    return require.resolve('classic-level', { paths: [path.dirname(level)] });
  } catch {
    return undefined;
  }
};

export async function startDynamoThread(dataDir: string | undefined, port = 0, onError: (err: unknown) => void = () => undefined): Promise<Service & { requestHandler: EngineThreadHandler }> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const worker = new Worker(DYNALITE_THREAD, {
    eval: true,
    workerData: { module: require.resolve('dynalite'), conditionParser: require.resolve('dynalite/db/conditionParser'), classicLevel: classicLevelOfDynalite(), options: { ...(dataDir ? { path: dataDir } : {}), ...DYNALITE_OPTIONS }, port },
  });
  const bound = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the dynalite thread exited (${code}) before listening`)));
    worker.once('message', (m: { port?: number; error?: string }) => (m.port ? resolve(m.port) : reject(new Error(m.error))));
  }).catch(async (err) => { await worker.terminate(); throw err; });
  // only the start's own listeners (removeAllListeners() would also take the worker's internal ones: no more messages)
  for (const event of ['error', 'exit', 'message']) worker.removeAllListeners(event);
  // a thread that dies is reported (its pending requests fail); stop() still resolves
  worker.on('error', onError);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const requestHandler = new EngineThreadHandler(worker);
  return {
    endpoint: `http://127.0.0.1:${bound}`,
    requestHandler,
    stop: async () => {
      requestHandler.close(new Error('the DynamoDB engine thread is stopping'));
      worker.postMessage('stop');
      await exited;
    },
  };
}

/** Creates the single table if it does not exist yet (the data survives restarts when dynalite has a path). */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
    await client.send(new CreateTableCommand({ TableName: tableName, ...structuredClone(TABLE_DEFINITION) }));
    // dynalite answers ResourceNotFound to item calls until the new table is ACTIVE (a moment later)
    await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 1 }, { TableName: tableName });
  } finally {
    client.destroy();
  }
}

/**
 * The media bucket's CORS rule, as the CDK data stack sets it: the hosted upload page PUTs straight to storage from
 * the browser (another origin), and GET serves downloads.
 */
export const LOCAL_BUCKET_CORS = '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod>' +
  '<AllowedMethod>GET</AllowedMethod><AllowedHeader>content-type</AllowedHeader><AllowedHeader>content-length</AllowedHeader>' +
  '<ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>';

export async function startS3(dataDir: string, buckets: string[], port = 0): Promise<Service> {
  const directory = path.join(dataDir);
  fs.mkdirSync(directory, { recursive: true });
  const s3 = new S3rver({ port, address: '127.0.0.1', silent: true, directory, vhostBuckets: false, configureBuckets: buckets.map((name) => ({ name, configs: [LOCAL_BUCKET_CORS] })) });
  const addr = await s3.run();
  return { endpoint: `http://127.0.0.1:${addr.port}`, stop: () => s3.close() };
}

export interface SqsService extends Service {
  /** Gives an SDK client fauxqs without HTTP (its SQS router, called directly). */
  requestHandler: SqsRouterHandler;
  /** Creates a queue with a DLQ and redrive policy; answers both URLs. */
  createQueue(name: string, opts: { visibilityTimeoutSeconds: number; maxReceiveCount: number }): Promise<{ url: string; dlqUrl: string }>;
}

/**
 * fauxqs on 127.0.0.1 only: its startFauxqs() listens on every interface (0.0.0.0) with no auth, so the app it
 * builds is listened on loopback here, and queues are made through the SQS API like any client would.
 */
export async function startSqs(port = 0): Promise<SqsService> {
  // fauxqs is ESM-only: load it with a dynamic import (kept as import() by tsx; compiled by jest's transform).
  const { buildApp } = await import('fauxqs');
  // SQS fair queues: a standard queue serves message groups (accounts) in turn (infra/local/fair-queue.ts)
  await makeFauxqsFair();
  const { app, router } = await captureSqsRouter(() => buildApp({ logger: false }));
  app.addHook('preHandler', async (request: { body: unknown }) => { noteGroups(request.body); });
  await app.listen({ port, host: '127.0.0.1' });
  const { port: bound } = app.server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${bound}`;
  const client = new SQSClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  return {
    endpoint,
    requestHandler: new SqsRouterHandler(router, noteGroups),
    stop: async () => { client.destroy(); await app.close(); },
    async createQueue(name, opts) {
      const dlq = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
      const dlqArn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl!, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
      const q = await client.send(new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: String(opts.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: opts.maxReceiveCount }),
        },
      }));
      return { url: q.QueueUrl!, dlqUrl: dlq.QueueUrl! };
    },
  };
}

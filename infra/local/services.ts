import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { TABLE_DEFINITION } from '../../shared/adapters/dynamodb/table-definition';

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
  const server = dynalite({ ...(dataDir ? { path: dataDir } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
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
  /** Creates a queue with a DLQ and redrive policy; answers both URLs. */
  createQueue(name: string, opts: { visibilityTimeoutSeconds: number; maxReceiveCount: number }): { url: string; dlqUrl: string };
}

export async function startSqs(port = 0): Promise<SqsService> {
  // fauxqs is ESM-only: load it with a dynamic import (kept as import() by tsx; compiled by jest's transform).
  const { startFauxqs } = await import('fauxqs');
  const server = await startFauxqs({ port, logger: false });
  return {
    endpoint: server.address,
    stop: () => server.stop(),
    createQueue(name, opts) {
      const dlq = server.createQueue(`${name}-dlq`);
      const q = server.createQueue(name, {
        attributes: {
          VisibilityTimeout: String(opts.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: opts.maxReceiveCount }),
        },
      });
      return { url: q.queueUrl, dlqUrl: dlq.queueUrl };
    },
  };
}

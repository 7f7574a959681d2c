import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { startSqs } from '../infra/local/services';
import { startPoller } from '../infra/local/sqs-poller';
import { SqsQueue } from '../shared/adapters/aws/sqs-queue';
import { fmt, percentile, printRows } from './support/stats';

/**
 * Fairness between accounts on the publish queue (SQS fair queues; locally infra/local/fair-queue.ts).
 * The local event-source mapping (infra/local/sqs-poller.ts: batches of 10, 4 concurrent batches) over the embedded
 * SQS, with a worker that spends WORK_MS per record. Account B sends single messages, one after the other; we
 * measure each one's time from send to handled:
 * - idle: nothing else on the queue;
 * - account A's BURST messages, all queued BEFORE the poller starts (a backlog B's posts meet), sent with the
 *   account as message group (as the API sends);
 * - the same backlog without message groups (the queue before: first in, first out).
 * Goal: B's p99 under A's burst within 2× of idle.
 */
const BURST = 10_000;
const SINGLES = 40;
const WORK_MS = 5;

async function scenario(mode: 'idle' | 'grouped' | 'ungrouped'): Promise<{ latencies: number[]; drainedA: number; leftA: number }> {
  const sqs = await startSqs();
  const client = new SQSClient({ region: 'us-east-1', endpoint: sqs.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = new SqsQueue(client);
  const { url } = await sqs.createQueue(`fair-${mode}`, { visibilityTimeoutSeconds: 300, maxReceiveCount: 5 });
  const handledB = new Map<string, () => void>();
  let handledA = 0;
  const handler = async (event: unknown): Promise<SQSBatchResponse> => {
    await Promise.all((event as SQSEvent).Records.map(async (r) => {
      await sleep(WORK_MS);
      const body = JSON.parse(r.body) as { account: string; id: string };
      if (body.account === 'B') handledB.get(body.id)?.();
      else handledA++;
    }));
    return { batchItemFailures: [] };
  };
  // A's whole burst is on the queue before anything consumes it
  if (mode !== 'idle') {
    const group = mode === 'grouped' ? { group: 'acc_A' } : {};
    const burst = Array.from({ length: BURST }, (_, i) => ({ id: `a${i}`, ...group, body: { account: 'A', id: `a${i}` } }));
    for (let i = 0; i < burst.length; i += 500) await queue.sendAll(url, burst.slice(i, i + 500));
  }
  const poller = startPoller(client, { name: `bench-${mode}`, queueUrl: url, queueArn: 'arn:aws:sqs:us-east-1:000000000000:bench', batchSize: 10, timeoutMs: 30_000, load: async () => handler, concurrency: 4 });
  try {
    const latencies: number[] = [];
    for (let i = 0; i < SINGLES; i++) {
      const id = `b${i}`;
      const done = new Promise<void>((resolve) => handledB.set(id, resolve));
      const t = performance.now();
      await queue.sendAll(url, [{ id, group: 'acc_B', body: { account: 'B', id } }]);
      await done;
      latencies.push(performance.now() - t);
    }
    return { latencies, drainedA: handledA, leftA: BURST - handledA };
  } finally {
    await poller.stop();
    client.destroy();
    await sqs.stop();
  }
}

export async function run(): Promise<void> {
  console.log(`\n## Fairness: a single post of account B while account A's ${BURST.toLocaleString('en-US')} messages drain`);
  console.log(`local poller (batches of 10, 4 concurrent), ${WORK_MS} ms of work per record, ${SINGLES} sequential messages of B; A's burst queued before the poller starts`);
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  const idle = await scenario('idle');
  const grouped = await scenario('grouped');
  const ungrouped = await scenario('ungrouped');
  const row = (name: string, r: { latencies: number[]; drainedA: number; leftA: number }): [string, string] =>
    [name, `p50 ${fmt(percentile(r.latencies, 50))} ms · p99 ${fmt(percentile(r.latencies, 99))} ms · max ${fmt(Math.max(...r.latencies))} ms · A handled meanwhile ${r.drainedA} (${r.leftA} still queued after B's last)`];
  printRows([
    row('idle', idle),
    row('A burst, groups per account (fair)', grouped),
    row('A burst, no groups (first in, first out)', ungrouped),
    ['p99 ratio fair / idle', `${fmt(percentile(grouped.latencies, 99) / percentile(idle.latencies, 99), 2)}× (goal ≤ 2×)`],
    ['p99 ratio FIFO / idle', `${fmt(percentile(ungrouped.latencies, 99) / percentile(idle.latencies, 99), 2)}×`],
  ]);
}

import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { sqsBatchHandler, sqsMessageHandler } from '../../functions/queue/sqs-batch';
import { CORRELATION_ATTRIBUTE, log } from '../../shared/log';
import { captureOutput } from '../support/log-capture';

const record = (id: string, body: string, correlation?: string): SQSRecord => ({
  messageId: id, receiptHandle: `rh-${id}`, body, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:1:q', awsRegion: 'us-east-1',
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'local', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: correlation ? { [CORRELATION_ATTRIBUTE]: { dataType: 'String', stringValue: correlation } } : {},
});

describe('the SQS partial-batch handler of the queue workers', () => {
  let capture: ReturnType<typeof captureOutput>;
  const level = process.env.LOG_LEVEL;
  beforeEach(() => { process.env.LOG_LEVEL = 'info'; capture = captureOutput(); });
  afterEach(() => { capture.restore(); process.env.LOG_LEVEL = level; });

  it('reports only the records whose handler threw, in any position, and runs every record', async () => {
    const seen: string[] = [];
    const handler = sqsBatchHandler(async (r) => {
      seen.push(r.messageId);
      if (r.body === 'fail') throw new Error('boom');
    });
    const event: SQSEvent = { Records: [record('m-1', 'fail'), record('m-2', 'ok'), record('m-3', 'fail'), record('m-4', 'ok')] };
    expect(await handler(event)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-3' }] });
    expect(seen.sort()).toEqual(['m-1', 'm-2', 'm-3', 'm-4']);
  });

  it('answers an empty failure list when every record succeeds, and all records when all fail', async () => {
    expect(await sqsBatchHandler(async () => undefined)({ Records: [record('a', '1'), record('b', '2')] })).toEqual({ batchItemFailures: [] });
    expect(await sqsBatchHandler(async () => { throw new Error('down'); })({ Records: [record('a', '1'), record('b', '2')] }))
      .toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }, { itemIdentifier: 'b' }] });
  });

  it('logs each record under its sender\'s correlation id (else its message id) and its message id', async () => {
    const handler = sqsBatchHandler(async (r) => { await Promise.resolve(); log.info('handled', { body: r.body }); });
    await handler({ Records: [record('m-1', 'one', 'req-aaa'), record('m-2', 'two')] }, { functionName: 'worker' } as never);
    const lines = capture.json().filter((l) => l.message === 'handled');
    expect(lines.find((l) => l.body === 'one')).toMatchObject({ correlation_id: 'req-aaa', message_id: 'm-1' });
    expect(lines.find((l) => l.body === 'two')).toMatchObject({ correlation_id: 'm-2', message_id: 'm-2' });
  });

  it('drops a malformed record with one error line (never retried) and hands the parsed others on', async () => {
    const got: number[] = [];
    const handler = sqsMessageHandler('demo', z.object({ n: z.number() }), async (message) => { got.push(message.n); });
    const out = await handler({ Records: [record('m-1', '{"n":1}'), record('m-2', 'not json'), record('m-3', '{"n":"three"}'), record('m-4', '{"n":4}')] });
    expect(out).toEqual({ batchItemFailures: [] });
    expect(got.sort()).toEqual([1, 4]);
    const dropped = capture.json().filter((l) => l.message === 'demo message dropped: malformed');
    expect(dropped.map((l) => l.message_id).sort()).toEqual(['m-2', 'm-3']);
  });
});

import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { startTestTable, type TestTable } from '../support/deps';
import type { TableRef } from '../../shared/adapters/dynamodb/client';
import { entity, orUndefined, putAllOrThrow, UnwrittenItemsError } from '../../shared/adapters/dynamodb/entity';
import { and, cond } from '../../shared/adapters/dynamodb/conditions';
import { FORMAT_VERSION } from '../../shared/domain/format-version';

/** Two kinds of item written together: a task, and its marker on a due list (as a schedule and its due marker). */
interface Task { id: string; due: string; status: string }
interface Marker { task_id: string; due: string }

const task = entity({
  key: (id: string) => ({ pk: `TASK#${id}`, sk: 'TASK' }),
  keyOf: (t: Task) => ({ pk: `TASK#${t.id}`, sk: 'TASK' }),
});
const marker = entity({
  key: (id: string, due: string) => ({ pk: 'DUE', sk: `${due}#${id}` }),
  keyOf: (m: Marker) => ({ pk: 'DUE', sk: `${m.due}#${m.task_id}` }),
  extraOf: (m: Marker) => ({ expires_at: Math.floor(Date.parse(m.due) / 1000) }),
  hidden: ['expires_at'],
});

let table: TestTable;
let stop: () => Promise<void>;
beforeAll(async () => { ({ table, stop } = await startTestTable()); });
afterAll(() => stop());

type Sent = Array<Record<string, unknown>>;
/** A table whose batch writes are counted, and that leaves unprocessed what `leave` picks from each request. */
function flaky(leave: (puts: Sent, request: number) => Sent): TableRef & { requests: Sent[] } {
  const requests: Sent[] = [];
  const doc = {
    send: async (command: BatchWriteCommand) => {
      const puts = command.input.RequestItems![table.tableName] as Sent;
      requests.push(puts);
      const left = leave(puts, requests.length);
      const kept = puts.filter((p) => !left.includes(p));
      if (kept.length) await table.doc.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: kept as never } }));
      return { UnprocessedItems: left.length ? { [table.tableName]: left } : {} };
    },
  };
  return { doc: doc as unknown as TableRef['doc'], tableName: table.tableName, requests };
}

describe('entity helper: batches of several entities, reads of the item before a change', () => {
  it('putAllOrThrow writes the items of several entities in order, 25 a request, each as its own put writes it', async () => {
    const tasks: Task[] = Array.from({ length: 20 }, (_, i) => ({ id: `a${i}`, due: `2026-04-01T10:${String(i).padStart(2, '0')}:00Z`, status: 'waiting' }));
    const markers: Marker[] = tasks.map((t) => ({ task_id: t.id, due: t.due }));
    const t = flaky(() => []);
    await putAllOrThrow([marker.on(t).batchOf(markers), task.on(t).batchOf(tasks)]);
    expect(t.requests.map((r) => r.length)).toEqual([25, 15]);
    // the markers go first: every marker is sent no later than its task
    const order = t.requests.flat().map((r) => String((r as { PutRequest: { Item: { pk: string } } }).PutRequest.Item.pk));
    expect(order.slice(0, 20).every((pk) => pk === 'DUE')).toBe(true);
    const raw = await table.doc.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'DUE', sk: `${tasks[3].due}#a3` }, ConsistentRead: true }));
    expect(raw.Item).toEqual({ pk: 'DUE', sk: `${tasks[3].due}#a3`, task_id: 'a3', due: tasks[3].due, expires_at: Math.floor(Date.parse(tasks[3].due) / 1000), v: FORMAT_VERSION });
    expect(await task.on(table).get('a19')).toEqual(tasks[19]);
    expect(await marker.on(table).query({ pk: 'DUE', beginsWith: '2026-04-01T10:0' })).toEqual(markers.slice(0, 10));
  });

  it('what the table leaves unprocessed is sent again until it is written', async () => {
    const tasks: Task[] = [{ id: 'b1', due: '2026-04-02T10:00:00Z', status: 'waiting' }, { id: 'b2', due: '2026-04-02T11:00:00Z', status: 'waiting' }];
    const t = flaky((puts, n) => (n <= 2 ? puts.slice(0, 1) : []));
    await putAllOrThrow([task.on(t).batchOf(tasks)]);
    expect(t.requests.map((r) => r.length)).toEqual([2, 1, 1]);
    expect(await task.on(table).get('b1')).toEqual(tasks[0]);
    expect(await task.on(table).get('b2')).toEqual(tasks[1]);
  });

  it('throws UnwrittenItemsError, saying how many, when the table still leaves items after every round', async () => {
    const tasks: Task[] = Array.from({ length: 3 }, (_, i) => ({ id: `c${i}`, due: '2026-04-03T10:00:00Z', status: 'waiting' }));
    const t = flaky((puts) => puts.slice(0, 2));
    const err = await putAllOrThrow([task.on(t).batchOf(tasks)], 4).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnwrittenItemsError);
    expect(err).toMatchObject({ left: 2, message: '2 items were left unwritten by the table' });
    expect(t.requests.map((r) => r.length)).toEqual([3, 2, 2, 2]);
    // nothing to write sends nothing
    const idle = flaky(() => []);
    await putAllOrThrow([task.on(idle).batchOf([])]);
    await putAllOrThrow([]);
    // one table a run: items of two tables are refused before anything is sent
    const other: TableRef = { ...idle, tableName: 'another-table' };
    await expect(putAllOrThrow([task.on(idle).batchOf(tasks), task.on(other).batchOf(tasks)])).rejects.toThrow('putAllOrThrow writes to one table');
    expect(idle.requests).toEqual([]);
  });

  it('updateAndReadBefore answers the item as it was before the change; one of racing claims gets it, the others undefined', async () => {
    const tasks = task.on(table);
    await tasks.put({ id: 'd1', due: '2026-04-04T10:00:00Z', status: 'waiting' });
    const claim = () => orUndefined(tasks.updateAndReadBefore(['d1'], { set: { status: 'running' } }, {
      if: and(cond.present, '#status = :waiting'), names: { '#status': 'status' }, values: { ':waiting': 'waiting' },
    }));
    const results = await Promise.all(Array.from({ length: 6 }, claim));
    expect(results.filter((r) => r !== undefined)).toEqual([{ id: 'd1', due: '2026-04-04T10:00:00Z', status: 'waiting' }]);
    expect(await tasks.get('d1')).toEqual({ id: 'd1', due: '2026-04-04T10:00:00Z', status: 'running' });
  });
});

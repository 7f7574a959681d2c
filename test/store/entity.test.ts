import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startTestTable, type TestTable } from '../support/deps';
import { conditional, entity, entryChange, orUndefined, type Bound } from '../../shared/adapters/dynamodb/entity';
import { and, cond, entry } from '../../shared/adapters/dynamodb/conditions';
import { FORMAT_VERSION } from '../../shared/domain/format-version';

interface Note { owner: string; id: string; text: string; status: string; count?: number; tags?: Set<string>; expires_at?: number }

const note = entity({
  key: (owner: string, id: string) => ({ pk: `OWNER#${owner}`, sk: `NOTE#${id}` }),
  keyOf: (n: Note) => ({ pk: `OWNER#${n.owner}`, sk: `NOTE#${n.id}` }),
  indexOf: (n: Note) => ({ gsi1pk: `STATUS#${n.status}`, gsi1sk: `${n.owner}#${n.id}` }),
  extraOf: (n: Note) => ({ shadow: n.text.length }),
  hidden: ['shadow'],
});

/** A claim whose name lives only in its key. */
const claim = entity({
  key: (name: string) => ({ pk: `CLAIM#${name}`, sk: 'CLAIM' }),
  keyOf: (c: { name: string; holder: string }) => ({ pk: `CLAIM#${c.name}`, sk: 'CLAIM' }),
  keyOnly: ['name'],
});

let table: TestTable;
let stop: () => Promise<void>;
let notes: Bound<typeof note>;
beforeAll(async () => {
  ({ table, stop } = await startTestTable());
  notes = note.on(table);
});
afterAll(() => stop());

const raw = async (owner: string, id: string) =>
  (await table.doc.send(new GetCommand({ TableName: table.tableName, Key: { pk: `OWNER#${owner}`, sk: `NOTE#${id}` }, ConsistentRead: true }))).Item;

describe('entity helper (embedded DynamoDB)', () => {
  it('writes the keys, the index keys, the extra attributes and the format version; reads back the value alone', async () => {
    const n: Note = { owner: 'a', id: '1', text: 'hello', status: 'open' };
    await notes.put(n);
    expect(await raw('a', '1')).toEqual({ pk: 'OWNER#a', sk: 'NOTE#1', gsi1pk: 'STATUS#open', gsi1sk: 'a#1', ...n, shadow: 5, v: FORMAT_VERSION });
    expect(await notes.get('a', '1')).toEqual(n);
    expect(await notes.get('a', 'missing')).toBeUndefined();
    expect(notes.fromItem(notes.toItem(n))).toEqual(n);
  });

  it('a conditional put is refused when its condition fails, and conditional() answers false instead of throwing', async () => {
    const n: Note = { owner: 'b', id: '1', text: 'first', status: 'open' };
    expect(await conditional(notes.put(n, { if: cond.absent }))).toBe(true);
    expect(await conditional(notes.put({ ...n, text: 'second' }, { if: cond.absent }))).toBe(false);
    await expect(notes.put({ ...n, text: 'third' }, { if: cond.absent })).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect((await notes.get('b', '1'))?.text).toBe('first');
  });

  it('of 10 concurrent conditional puts of the same key exactly one is made', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      conditional(notes.put({ owner: 'race', id: '1', text: `t${i}`, status: 'open' }, { if: cond.absent }))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('update builds SET, ADD and REMOVE from maps (reserved words named), with a condition and its values', async () => {
    await notes.put({ owner: 'c', id: '1', text: 'x', status: 'open', count: 1, expires_at: 99 });
    await notes.update(['c', '1'], { set: { status: 'done', text: 'y' }, add: { count: 2, tags: new Set(['t']) }, remove: ['expires_at'] },
      { if: and(cond.present, '#status = :open'), values: { ':open': 'open' } });
    expect(await notes.get('c', '1')).toEqual({ owner: 'c', id: '1', text: 'y', status: 'done', count: 3, tags: new Set(['t']) });
    expect(await orUndefined(notes.updateAndRead(['c', '1'], { set: { text: 'z' } }, { if: and(cond.present, '#status = :open'), names: { '#status': 'status' }, values: { ':open': 'open' } }))).toBeUndefined();
    expect(await orUndefined(notes.updateAndRead(['c', 'none'], { set: { text: 'z' } }, { if: cond.present }))).toBeUndefined();
  });

  it('updateAndRead answers the item after the change, also for a hand-written expression', async () => {
    await notes.put({ owner: 'd', id: '1', text: 'x', status: 'open' });
    const after = await notes.updateAndRead(['d', '1'], { expression: 'SET #status = :done, #text = if_not_exists(#text, :t)', names: { '#text': 'text', '#status': 'status' }, values: { ':t': 'never', ':done': 'done' } });
    expect(after).toEqual({ owner: 'd', id: '1', text: 'x', status: 'done' });
  });

  it('delete with a condition deletes only when it holds', async () => {
    await notes.put({ owner: 'e', id: '1', text: 'x', status: 'open' });
    expect(await conditional(notes.delete(['e', '1'], { if: '#status = :s', names: { '#status': 'status' }, values: { ':s': 'done' } }))).toBe(false);
    expect(await notes.get('e', '1')).toBeDefined();
    await notes.delete(['e', '1']);
    expect(await notes.get('e', '1')).toBeUndefined();
  });

  it('queries a partition by prefix, between, below and up to a bound, newest first, on the table or the index', async () => {
    for (const id of ['1', '2', '3', '4', '5']) await notes.put({ owner: 'f', id, text: id, status: id === '3' ? 'later' : 'soon' });
    const ids = (ns: Note[]) => ns.map((n) => n.id);
    expect(ids(await notes.query({ pk: 'OWNER#f', beginsWith: 'NOTE#' }))).toEqual(['1', '2', '3', '4', '5']);
    expect(ids(await notes.query({ pk: 'OWNER#f', between: ['NOTE#2', 'NOTE#4'] }))).toEqual(['2', '3', '4']);
    expect(ids(await notes.query({ pk: 'OWNER#f', before: 'NOTE#3' }, { descending: true }))).toEqual(['2', '1']);
    expect(ids(await notes.query({ pk: 'OWNER#f', upTo: 'NOTE#3' }))).toEqual(['1', '2', '3']);
    expect(ids(await notes.query({ gsi1pk: 'STATUS#later' }))).toEqual(['3']);
    expect(ids(await notes.query({ gsi1pk: 'STATUS#soon', beginsWith: 'f#' }, { descending: true }))).toEqual(['5', '4', '2', '1']);
  });

  it('a limited query reads pages until it has enough; a filter applies after each page; page() answers where to go on', async () => {
    for (const id of ['1', '2', '3', '4', '5', '6']) await notes.put({ owner: 'g', id, text: id, status: Number(id) % 2 ? 'odd' : 'even' });
    const ids = (ns: Note[]) => ns.map((n) => n.id);
    const even = { if: '#status = :s', names: { '#status': 'status' }, values: { ':s': 'even' } };
    expect(ids(await notes.query({ pk: 'OWNER#g' }, { limit: 2, pageSize: 1, filter: even }))).toEqual(['2', '4']);
    expect(ids(await notes.query({ pk: 'OWNER#g' }, { limit: 4, pageSize: 3 }))).toEqual(['1', '2', '3', '4']);
    const first = await notes.page({ pk: 'OWNER#g' }, { limit: 2, filter: even });
    expect(ids(first.items)).toEqual(['2']);
    expect(first.next).toEqual({ pk: 'OWNER#g', sk: 'NOTE#2' });
    const rest = await notes.page({ pk: 'OWNER#g' }, { limit: 10 }, first.next);
    expect(ids(rest.items)).toEqual(['3', '4', '5', '6']);
    expect(rest.next).toBeUndefined();
  });

  it('key-only fields make the key and are not written; putOrFind answers the holder of a refused claim', async () => {
    const claims = claim.on(table);
    expect(await claims.putOrFind({ name: 'x', holder: 'first' }, { if: cond.absent })).toEqual({ written: true });
    const raced = await Promise.all(['a', 'b', 'c'].map((holder) => claims.putOrFind({ name: 'y', holder }, { if: cond.absent })));
    expect(raced.filter((r) => r.written)).toHaveLength(1);
    const winner = (await claims.get('y'))!.holder;
    for (const r of raced) if (!r.written) expect(r.found).toEqual({ holder: winner });
    expect(await claims.putOrFind({ name: 'x', holder: 'second' }, { if: cond.absent })).toEqual({ written: false, found: { holder: 'first' } });
    const item = (await table.doc.send(new GetCommand({ TableName: table.tableName, Key: { pk: 'CLAIM#x', sk: 'CLAIM' }, ConsistentRead: true }))).Item;
    expect(item).toEqual({ pk: 'CLAIM#x', sk: 'CLAIM', holder: 'first', v: FORMAT_VERSION });
  });

  it('conditional() and orUndefined() throw every error that is not a failed condition', async () => {
    const boom = Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
    await expect(conditional(Promise.reject(boom))).rejects.toBe(boom);
    await expect(orUndefined(Promise.reject(boom))).rejects.toBe(boom);
    expect(await orUndefined(Promise.resolve(7))).toBe(7);
  });

  it('puts many values in batches of 25 (each item as a single put writes it), readable back in one query', async () => {
    const many: Note[] = Array.from({ length: 30 }, (_, i) => ({ owner: 'batch', id: String(i).padStart(2, '0'), text: `n${i}`, status: 'open' }));
    await notes.putAll(many);
    expect(await raw('batch', '29')).toEqual({ pk: 'OWNER#batch', sk: 'NOTE#29', gsi1pk: 'STATUS#open', gsi1sk: 'batch#29', ...many[29], shadow: 3, v: FORMAT_VERSION });
    expect(await notes.query({ pk: 'OWNER#batch' })).toEqual(many);
  });

  it('getAll reads many keys in batches of 100 and answers the items that exist, read back as values', async () => {
    const many: Note[] = Array.from({ length: 120 }, (_, i) => ({ owner: 'many', id: String(i), text: `n${i}`, status: 'open' }));
    await notes.putAll(many);
    const keys = [...many.map((n): [string, string] => [n.owner, n.id]), ['many', 'missing'] as [string, string]];
    const found = await notes.getAll(keys);
    expect(found.sort((a, b) => Number(a.id) - Number(b.id))).toEqual(many);
    expect(await notes.getAll([])).toEqual([]);
  });

  it('getAll asks again for the keys the table leaves unprocessed, and throws rather than answer less', async () => {
    const asked: unknown[][] = [];
    const flaky = (refuseTimes: number) => ({
      tableName: 't',
      doc: { send: async (cmd: { input: { RequestItems: Record<string, { Keys: Array<{ pk: string }> }> } }) => {
        const wanted = cmd.input.RequestItems.t.Keys;
        asked.push(wanted);
        if (asked.length > refuseTimes) return { Responses: { t: wanted.map((k) => ({ ...k, sk: 'CLAIM', holder: 'h', v: 1 })) } };
        return { Responses: { t: [{ ...wanted[0], sk: 'CLAIM', holder: 'h', v: 1 }] }, UnprocessedKeys: { t: { Keys: wanted.slice(1) } } };
      } },
    }) as unknown as TestTable;
    expect(await claim.on(flaky(1)).getAll([['a'], ['b'], ['c']])).toEqual([{ holder: 'h' }, { holder: 'h' }, { holder: 'h' }]);
    expect(asked.map((keys) => keys.length)).toEqual([3, 2]);
    asked.length = 0;
    await expect(claim.on(flaky(100)).getAll([['a'], ['b'], ['c']], 2)).rejects.toThrow('kept refusing');
    expect(asked.map((keys) => keys.length)).toEqual([3, 2]);
  });
});

/** An item with a map of entries (as a post's `networks.<platform>`). */
interface Job { id: string; steps: Record<string, { state: string; at?: number; note?: string; tries?: number }> }
const job = entity({ key: (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' }), keyOf: (j: Job) => ({ pk: `JOB#${j.id}`, sk: 'JOB' }) });

describe('entity helper: entries of a map attribute (embedded DynamoDB)', () => {
  let jobs: Bound<typeof job>;
  beforeAll(() => { jobs = job.on(table); });
  const claimable = { if: and(cond.present, entry.stateIn(2)), names: { '#state': 'state' }, values: { ':s0': 'queued', ':s1': 'retry' } };

  it('entryChange sets, removes and counts fields of one entry, leaving undefined values and the other entries alone', async () => {
    await jobs.put({ id: '1', steps: { a: { state: 'queued', note: 'x' }, b: { state: 'queued' } } });
    const after = await jobs.updateAndRead(['1'], entryChange('steps', 'a', { set: { state: 'sending', at: 5, tries: undefined }, remove: ['note'], count: { tries: 1 } }), claimable);
    expect(after).toEqual({ id: '1', steps: { a: { state: 'sending', at: 5, tries: 1 }, b: { state: 'queued' } } });
    expect((await jobs.updateAndRead(['1'], entryChange('steps', 'a', { count: { tries: 2 } }))).steps.a.tries).toBe(3);
  });

  it('of 10 concurrent claims of one entry exactly one wins; an absent entry or item is refused', async () => {
    await jobs.put({ id: '2', steps: { a: { state: 'queued' } } });
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      orUndefined(jobs.updateAndRead(['2'], entryChange('steps', 'a', { set: { state: 'sending', at: i } }), claimable))));
    expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
    expect(await conditional(jobs.update(['2'], entryChange('steps', 'zz', { set: { state: 'x' } }), { if: and(cond.present, entry.present) }))).toBe(false);
    expect(await conditional(jobs.update(['none'], entryChange('steps', 'a', { set: { state: 'x' } }), { if: and(cond.present, entry.present) }))).toBe(false);
    expect(await jobs.get('none')).toBeUndefined();
  });

  it('project reads only the entries and fields named', async () => {
    await jobs.put({ id: '3', steps: { a: { state: 'done', at: 1, note: 'long' }, b: { state: 'queued', note: 'long' }, c: { state: 'queued' } } });
    expect(await jobs.project(['3'], { expression: 'steps.#a.#state, steps.#b.#state, steps.#z.#state', names: { '#a': 'a', '#b': 'b', '#z': 'z', '#state': 'state' } }))
      .toEqual({ steps: { a: { state: 'done' }, b: { state: 'queued' } } });
    expect(await jobs.project(['none'], { expression: 'steps' })).toBeUndefined();
  });
});

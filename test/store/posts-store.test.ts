import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startTestTable, type TestTable } from '../support/deps';
import { DynamoPostStore } from '../../shared/adapters/dynamodb/posts';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { FORMAT_VERSION } from '../../shared/domain/format-version';
import type { NetworkRecord, PostRecord } from '../../shared/ports/publishing';
import type { PlatformName } from '../../shared/domain/platforms';

/**
 * The post store against the embedded DynamoDB: the items it writes (the post item with its networks map, the
 * reconciliation marker, the network-id pointer), the conditions of its claims, settles and take-overs, and the
 * posts an older release stored (one NET# item per network, no `v`), which still read.
 */
let table: TestTable;
let stop: () => Promise<void>;
let posts: DynamoPostStore;
let raw: DynamoDBDocumentClient;
let seq = 0;
beforeAll(async () => {
  ({ table, stop } = await startTestTable());
  posts = new DynamoPostStore(table);
  // the previous release's writer: no format stamp
  raw = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: table.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
});
afterAll(async () => { raw.destroy(); await stop(); });

const ACC = 'acc_01ZZZZZZZZZZZZZZZZZZZZZZZZ';

function newPost(platforms: PlatformName[], account = ACC): { post: PostRecord; networks: NetworkRecord[] } {
  const id = `pst_01TEST${String(++seq).padStart(20, '0')}`;
  const post: PostRecord = {
    id, account_id: account, brand_id: 'brd_1', brand_name: 'Acme', source: 'api', idempotency_key: null, platforms,
    payload: { text: 'store', media: [], per_platform: {} }, created_at: '2026-01-01T00:00:00.000Z',
  };
  return { post, networks: platforms.map((platform) => ({ post_id: id, account_id: account, platform, state: 'queued', deferrals: 0, reserved: true })) };
}

const item = async (key: { pk: string; sk: string }) =>
  (await table.doc.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }))).Item;

describe('post store (embedded DynamoDB)', () => {
  it('writes the post as one item (index keys, networks map, v), its due marker, and a pointer per published network', async () => {
    const { post, networks } = newPost(['telegram', 'discord']);
    await posts.create(post, networks, 5_000);
    expect(await item(keys.post(post.id))).toEqual({
      ...keys.post(post.id), ...keys.postByAccount(ACC, post.id), ...post, v: FORMAT_VERSION,
      networks: { telegram: { state: 'queued', deferrals: 0, reserved: true }, discord: { state: 'queued', deferrals: 0, reserved: true } },
    });
    expect(await item(keys.postDue(post.id, 5_000))).toEqual({ ...keys.postDue(post.id, 5_000), post_id: post.id, due_at: 5_000, v: FORMAT_VERSION });
    await expect(posts.create(post, networks)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    await posts.moveReconcile(post.id, 5_000, undefined);
    expect(await item(keys.postDue(post.id, 5_000))).toBeUndefined();

    await posts.claim(post.id, 'discord', ['queued'], 1_000);
    const after = await posts.settle(post.id, 'discord', 'done', { platform: 'discord', ok: true, status: 'published', id: 'd-1' }, { reserved: true }, undefined, 1_000);
    expect(after.networks.map((n) => [n.platform, n.state, n.claimed_at])).toEqual([['telegram', 'queued', undefined], ['discord', 'done', 1_000]]);
    expect(await item(keys.networkPointer(ACC, 'discord', 'd-1'))).toEqual({ ...keys.networkPointer(ACC, 'discord', 'd-1'), post_id: post.id, v: FORMAT_VERSION });
    expect(await posts.findByNetworkId(ACC, 'discord', 'd-1')).toBe(post.id);
    expect(await posts.findByNetworkId(ACC, 'discord', 'nope')).toBeUndefined();
    expect(await posts.poll(post.id, ['discord', 'telegram', 'x'])).toEqual([
      { platform: 'discord', state: 'done', result: { platform: 'discord', ok: true, status: 'published', id: 'd-1' } },
      { platform: 'telegram', state: 'queued' },
    ]);
    expect(await posts.poll('pst_missing', ['discord'])).toBeUndefined();
  });

  it('a claim matches the deferral, the resume step and its due time; a settle needs that very claim', async () => {
    const { post, networks } = newPost(['linkedin']);
    await posts.create(post, networks);
    await posts.claim(post.id, 'linkedin', ['queued'], 1_000);
    await posts.settle(post.id, 'linkedin', 'processing', { platform: 'linkedin', ok: true, status: 'processing' }, { resume_enc: 'enc', resume_at: 9_000, resumes: 1, deferrals: 0 });
    expect(await posts.claim(post.id, 'linkedin', ['processing'], 2_000, { resumes: 0, dueBy: 9_000 })).toBeUndefined();
    expect(await posts.claim(post.id, 'linkedin', ['processing'], 2_000, { resumes: 1, dueBy: 8_999 })).toBeUndefined();
    expect(await posts.claim(post.id, 'linkedin', ['processing'], 2_000, { resumes: 1, dueBy: 9_000, deferrals: 1 })).toBeUndefined();
    const claimed = await posts.claim(post.id, 'linkedin', ['processing'], 2_000, { resumes: 1, dueBy: 9_000, deferrals: 0 });
    expect(claimed!.networks[0]).toMatchObject({ state: 'sending', claimed_at: 2_000, resume_enc: 'enc', resume_at: 9_000 });
    // a settle of an earlier claim is refused; the claimer's settle removes the resume fields of a network leaving 'processing'
    await expect(posts.settle(post.id, 'linkedin', 'done', { platform: 'linkedin', ok: true, status: 'published' }, {}, undefined, 1_000))
      .rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    const done = await posts.settle(post.id, 'linkedin', 'done', { platform: 'linkedin', ok: true, status: 'published' }, { reserved: false }, undefined, 2_000);
    expect(done.networks[0]).toEqual({
      post_id: post.id, account_id: ACC, platform: 'linkedin', state: 'done', claimed_at: 2_000, deferrals: 0, resumes: 1, reserved: false,
      result: { platform: 'linkedin', ok: true, status: 'published' },
    });
    // no pointer without a network id
    expect(await posts.findByNetworkId(ACC, 'linkedin', 'undefined')).toBeUndefined();
  });

  it('of 10 concurrent take-overs of one stale claim exactly one wins, and counts itself', async () => {
    const { post, networks } = newPost(['mastodon']);
    await posts.create(post, networks);
    await posts.claim(post.id, 'mastodon', ['queued'], 1_000);
    const wins = (await Promise.all(Array.from({ length: 10 }, (_, i) => posts.takeOver(post.id, 'mastodon', 1_000, 5_000 + i)))).filter((w) => w !== undefined);
    expect(wins).toHaveLength(1);
    expect(wins[0]!.networks[0]).toMatchObject({ state: 'sending', reconciles: 1 });
    const again = await posts.takeOver(post.id, 'mastodon', wins[0]!.networks[0].claimed_at!, 9_000);
    expect(again!.networks[0]).toMatchObject({ state: 'sending', claimed_at: 9_000, reconciles: 2 });
    // the worker whose claim was taken over cannot settle it
    await expect(posts.settle(post.id, 'mastodon', 'done', { platform: 'mastodon', ok: true, status: 'published' }, {}, undefined, 1_000))
      .rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(await posts.takeOver('pst_missing', 'mastodon', 1_000, 2_000)).toBeUndefined();
  });

  it('the due index answers the markers due by a time, oldest first, across its shards; a marker moves or goes', async () => {
    const ids = Array.from({ length: 4 }, () => newPost(['telegram']));
    for (const [i, p] of ids.entries()) await posts.create(p.post, p.networks, 1e12 + 100 - i * 10);
    const due = await posts.reconcileDue(1e12 + 95, 10);
    expect(due).toEqual([3, 2, 1].map((i) => ({ post_id: ids[i].post.id, due_at: 1e12 + 100 - i * 10 })));
    expect(await posts.reconcileDue(1e12 + 95, 2)).toEqual(due.slice(0, 2));
    await posts.moveReconcile(ids[3].post.id, 1e12 + 70, 1e12 + 200);
    await posts.moveReconcile(ids[2].post.id, 1e12 + 80, undefined);
    expect((await posts.reconcileDue(1e12 + 300, 10)).map((m) => [m.post_id, m.due_at])).toEqual([
      [ids[1].post.id, 1e12 + 90], [ids[0].post.id, 1e12 + 100], [ids[3].post.id, 1e12 + 200],
    ]);
  });

  it('lists an account\'s posts newest first without their networks, a page before a post id', async () => {
    const account = 'acc_01LIST';
    const made = [newPost(['telegram'], account), newPost(['discord'], account), newPost(['slack'], account)];
    for (const p of made) await posts.create(p.post, p.networks);
    expect((await posts.list(account, 2)).map((p) => p.id)).toEqual([made[2].post.id, made[1].post.id]);
    expect(await posts.list(account, 5, made[1].post.id)).toEqual([made[0].post]);
  });

  it('reads the posts an older release stored: one item per network, indexed by the network\'s id, no v', async () => {
    const { post, networks } = newPost(['telegram', 'discord', 'bluesky']);
    const [telegram, discord] = networks;
    const published: NetworkRecord = { ...discord, state: 'done', result: { platform: 'discord', ok: true, status: 'published', id: 'old-1' } };
    await raw.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.post(post.id), ...keys.postByAccount(ACC, post.id), ...post } }));
    await raw.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.network(post.id, 'discord'), ...published, ...keys.networkById(ACC, 'discord', 'old-1') } }));
    await raw.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.network(post.id, 'telegram'), ...telegram } }));
    const stored = await posts.get(post.id);
    expect(stored).toEqual({ post, networks: [telegram, published] });
    const { post: current } = newPost(['slack']);
    await posts.create(current, [{ post_id: current.id, account_id: ACC, platform: 'slack', state: 'done', deferrals: 0, reserved: false }]);
    const of = await posts.networksOf([{ id: post.id, platforms: post.platforms }, { id: current.id, platforms: current.platforms }, { id: 'pst_none', platforms: ['x'] }]);
    expect([...of.entries()]).toEqual([
      [post.id, [telegram, published]],
      [current.id, [{ post_id: current.id, account_id: ACC, platform: 'slack', state: 'done', deferrals: 0, reserved: false }]],
      ['pst_none', []],
    ]);
    expect(await posts.findByNetworkId(ACC, 'discord', 'old-1')).toBe(post.id);
    expect(await posts.get('pst_missing')).toBeUndefined();
  });

  it('networksOf reads more than one batch (100 keys a request)', async () => {
    const many = Array.from({ length: 105 }, () => newPost(['telegram'], 'acc_01MANY'));
    await Promise.all(many.map((p) => posts.create(p.post, p.networks)));
    const of = await posts.networksOf(many.map((p) => ({ id: p.post.id, platforms: p.post.platforms })));
    expect([...of.values()].map((ns) => ns.map((n) => n.state))).toEqual(many.map(() => ['queued']));
    // one query of the table shows each of these posts is one item
    const res = await table.doc.send(new QueryCommand({ TableName: table.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.post(many[0].post.id).pk } }));
    expect(res.Items).toHaveLength(1);
  });
});

/**
 * The route table policies as the functions meet them: what a DynamoDB call is to IAM (action, leading keys,
 * attributes), how a statement decides, and the local runtime's check (infra/local/table-policy.ts) refusing on the
 * embedded DynamoDB what IAM would refuse in AWS, before the call reaches the table.
 */
import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { tableCallOf } from '../../shared/adapters/dynamodb/table-guard';
import { allowsCall, tableStatementsOf, PLAN_SETTLE_ATTRIBUTES } from '../../infra/table-access';
import { withTablePolicy } from '../../infra/local/table-policy';
import { routes } from '../../infra/routes';
import type { RouteDef } from '../../shared/http/route';
import type { TableRef } from '../../shared/adapters/dynamodb/client';
import { DynamoCounterStore } from '../../shared/adapters/dynamodb/counters';
import { DynamoBillingStore } from '../../shared/adapters/dynamodb/billing';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { startTestTable } from '../support/deps';

describe('tableCallOf: a call as IAM sees it', () => {
  test('item calls name their partition key; a query names its key condition\'s (the index\'s on an index)', () => {
    expect(tableCallOf('GetItemCommand', { Key: { pk: 'MEDIA#1', sk: 'MEDIA' } })).toEqual({ action: 'dynamodb:GetItem', leadingKeys: ['MEDIA#1'] });
    expect(tableCallOf('GetItemCommand', { Key: { pk: { S: 'MEDIA#1' }, sk: { S: 'MEDIA' } } }).leadingKeys).toEqual(['MEDIA#1']);
    expect(tableCallOf('QueryCommand', { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :s)', ExpressionAttributeValues: { ':pk': 'ACC#a', ':s': 'BRAND#' } }).leadingKeys).toEqual(['ACC#a']);
    expect(tableCallOf('QueryCommand', { IndexName: 'gsi1', KeyConditionExpression: '#g = :g', ExpressionAttributeNames: { '#g': 'gsi1pk' }, ExpressionAttributeValues: { ':g': 'ACC#a#KEYS' } }).leadingKeys).toEqual(['ACC#a#KEYS']);
    expect(tableCallOf('BatchGetItemCommand', { RequestItems: { t: { Keys: [{ pk: 'POST#1', sk: 'POST' }, { pk: 'POST#2', sk: 'POST' }] } } }).leadingKeys).toEqual(['POST#1', 'POST#2']);
    expect(tableCallOf('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: { pk: 'A#1' } } }, { DeleteRequest: { Key: { pk: 'B#2' } } }] } }).leadingKeys).toEqual(['A#1', 'B#2']);
    expect(tableCallOf('ScanCommand', {})).toEqual({ action: 'dynamodb:Scan', leadingKeys: [] });
  });

  test('puts and updates name their attributes: the item\'s, or those of the update and condition expressions', () => {
    expect(tableCallOf('PutItemCommand', { Item: { pk: 'ACC#a', sk: 'X', name: 'n' }, ConditionExpression: 'attribute_not_exists(pk)' }).attributes?.sort()).toEqual(['name', 'pk', 'sk']);
    const update = tableCallOf('UpdateItemCommand', {
      Key: { pk: 'ACC#a', sk: 'ACCOUNT' }, UpdateExpression: 'SET #plan = :plan, billing = :b ADD used :one REMOVE old_field',
      ConditionExpression: 'attribute_exists(pk) AND billing_version = :v', ExpressionAttributeNames: { '#plan': 'plan' },
    });
    expect(update.attributes?.sort()).toEqual(['billing', 'billing_version', 'old_field', 'pk', 'plan', 'sk', 'used']);
  });
});

describe('allowsCall: as IAM decides with dynamodb:LeadingKeys and dynamodb:Attributes', () => {
  const media = [{ actions: ['dynamodb:GetItem', 'dynamodb:Query'], prefixes: ['MEDIA#'] }];
  test('every key must match a prefix; a call without a key (Scan) is never allowed under a prefix', () => {
    expect(allowsCall(media, { action: 'dynamodb:GetItem', leadingKeys: ['MEDIA#1'] })).toBe(true);
    expect(allowsCall(media, { action: 'dynamodb:GetItem', leadingKeys: ['ACC#1'] })).toBe(false);
    expect(allowsCall(media, { action: 'dynamodb:PutItem', leadingKeys: ['MEDIA#1'] })).toBe(false);
    expect(allowsCall([{ actions: ['dynamodb:BatchGetItem'], prefixes: ['MEDIA#'] }], { action: 'dynamodb:BatchGetItem', leadingKeys: ['MEDIA#1', 'KEY#2'] })).toBe(false);
    expect(allowsCall([{ actions: ['dynamodb:Scan'], prefixes: ['MEDIA#'] }], { action: 'dynamodb:Scan', leadingKeys: [] })).toBe(false);
  });
  test('an attribute list allows only calls naming no other attribute', () => {
    const settle = [{ actions: ['dynamodb:UpdateItem'], prefixes: ['ACC#'], attributes: PLAN_SETTLE_ATTRIBUTES }];
    expect(allowsCall(settle, { action: 'dynamodb:UpdateItem', leadingKeys: ['ACC#a'], attributes: ['pk', 'sk', 'plan', 'billing'] })).toBe(true);
    expect(allowsCall(settle, { action: 'dynamodb:UpdateItem', leadingKeys: ['ACC#a'], attributes: ['pk', 'sk', 'name'] })).toBe(false);
  });
});

describe('tableStatementsOf: declarations', () => {
  test('GET routes read; key GETs add their rate-limit counters and the plan settle; POST routes read and write', () => {
    const getMe = tableStatementsOf(routes.getMe);
    expect(getMe.map((s) => [s.actions, s.prefixes ?? null])).toEqual([
      [['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'], null],
      [['dynamodb:UpdateItem'], ['CTR#rl#']],
      [['dynamodb:UpdateItem', 'dynamodb:PutItem'], ['ACC#']],
    ]);
    expect(tableStatementsOf(routes.postBrands).flatMap((s) => s.actions)).toContain('dynamodb:DeleteItem');
    expect(tableStatementsOf(routes.getMediaFile)).toEqual([{ actions: expect.any(Array), prefixes: ['MEDIA#'] }]);
    expect(tableStatementsOf(routes.getSignupConfirm)).toEqual([]);
  });
});

describe('the local runtime refuses what IAM would (embedded DynamoDB)', () => {
  let table: TableRef;
  let stop: () => Promise<void>;
  beforeAll(async () => ({ table, stop } = await startTestTable()));
  afterAll(() => stop());
  const as = <T>(route: RouteDef, run: () => Promise<T>) => withTablePolicy(route, run);

  test('a GET route cannot write an item: AccessDeniedException, and nothing is written', async () => {
    const put = () => table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.brand('acc1', 'b1'), name: 'sneaky' } }));
    await expect(as(routes.getBrands, put)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect((await table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.brand('acc1', 'b1') }))).Item).toBeUndefined();
    await as(routes.postBrands, put);
    expect((await table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.brand('acc1', 'b1') }))).Item?.name).toBe('sneaky');
  });

  test('a GET route counts its rate limit and settles a due plan, but cannot touch other account items that way', async () => {
    const counters = new DynamoCounterStore(table);
    await as(routes.getMe, () => counters.increment('rl#key#k1#60#0', 1, 10, 9_999_999_999));
    expect(await counters.get('rl#key#k1#60#0')).toBe(1);
    await expect(as(routes.getMe, () => counters.increment('usage#acc1', 1, 10, 9_999_999_999))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.account('acc1'), plan: 'pro' } }));
    const billing = new DynamoBillingStore(table);
    await expect(as(routes.getMe, () => billing.saveState('acc1', 0, { plan: 'free', billing: {} }))).resolves.toBe(true);
    const rename = () => table.doc.send(new UpdateCommand({ TableName: table.tableName, Key: keys.brand('acc1', 'b1'), UpdateExpression: 'SET #n = :n', ExpressionAttributeNames: { '#n': 'name' }, ExpressionAttributeValues: { ':n': 'x' } }));
    await expect(as(routes.getMe, rename)).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  test('an open route reads only its item types: the media file route reads media, never tokens or accounts; no Scan', async () => {
    await table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.media('m1'), state: 'uploaded' } }));
    const media = await as(routes.getMediaFile, () => table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.media('m1') })));
    expect(media.Item?.state).toBe('uploaded');
    await expect(as(routes.getMediaFile, () => table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.account('acc1') })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(as(routes.getMediaFile, () => table.doc.send(new QueryCommand({ TableName: table.tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'ACC#acc1' } })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(as(routes.getMediaFile, () => table.doc.send(new BatchGetCommand({ RequestItems: { [table.tableName]: { Keys: [keys.media('m1'), keys.account('acc1')] } } })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(as(routes.getMediaFile, () => table.doc.send(new ScanCommand({ TableName: table.tableName })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(as(routes.postSignup, () => table.doc.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: [{ PutRequest: { Item: { ...keys.apiKey('h'), account_id: 'acc1' } } }] } })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  test('outside a route (workers, the dispatcher) nothing is checked', async () => {
    await table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.apiKey('h2'), account_id: 'acc1' } }));
    expect((await table.doc.send(new ScanCommand({ TableName: table.tableName }))).Items?.length).toBeGreaterThan(0);
  });
});

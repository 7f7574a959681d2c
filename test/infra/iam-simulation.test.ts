/**
 * The IAM simulation of the test suite (test/support/iam): requests as IAM sees them, decided by
 * @cloud-copilot/iam-simulate against each function's policy as CDK synthesizes it, and refused (failing the test)
 * when a function under the local runtime makes a request its policy does not allow.
 *
 * Assumptions where the simulation and AWS may differ, each pinned by a test below:
 * - Index queries: `dynamodb:LeadingKeys` is the index's partition-key value (gsi1pk) on the index ARN.
 * - Conditional writes: decided on the request (key, attribute names of the update and condition expressions),
 *   before the condition is evaluated; a refused conditional write never reaches the table.
 * - A Scan (no key) is refused by every statement bounded by LeadingKeys.
 */
import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { tableStatementsOf, PLAN_SETTLE_ATTRIBUTES } from '../../infra/table-access';
import { asFunction } from '../../infra/local/function-scope';
import { routes } from '../../functions/routes';
import { publishWorker } from '../../functions/workers';
import type { TableRef } from '../../shared/adapters/dynamodb/client';
import { DynamoCounterStore } from '../../shared/adapters/dynamodb/counters';
import { DynamoBillingStore } from '../../shared/adapters/dynamodb/billing';
import { keys } from '../../shared/adapters/dynamodb/keys';
import { LocalKeyCipher } from '../../shared/adapters/local/local-cipher';
import { TableScheduler } from '../../shared/adapters/dynamodb/table-scheduler';
import { startTestTable } from '../support/deps';
import { dynamoRequests, kmsRequest, schedulerRequests } from '../support/iam/requests';
import { decide } from '../support/iam/simulate';
import { iamPolicies, takeDenials } from '../support/iam/check';
import { TABLE_ARN, type PolicyDocument } from '../support/iam/policies';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

describe('requests as IAM sees them', () => {
  test('item calls name their partition key; a query its key condition\'s (the index\'s, on the index ARN)', () => {
    expect(dynamoRequests('GetCommand', { Key: { pk: 'MEDIA#1', sk: 'MEDIA' } })).toEqual([{ action: 'dynamodb:GetItem', resource: TABLE_ARN, context: { 'dynamodb:LeadingKeys': ['MEDIA#1'] } }]);
    expect(dynamoRequests('GetItemCommand', { Key: { pk: { S: 'MEDIA#1' }, sk: { S: 'MEDIA' } } })[0]!.context!['dynamodb:LeadingKeys']).toEqual(['MEDIA#1']);
    const index = dynamoRequests('QueryCommand', { IndexName: 'gsi1', KeyConditionExpression: '#g = :g', ExpressionAttributeNames: { '#g': 'gsi1pk' }, ExpressionAttributeValues: { ':g': 'ACC#a#KEYS' } })[0]!;
    expect(index).toMatchObject({ resource: `${TABLE_ARN}/index/gsi1`, context: { 'dynamodb:LeadingKeys': ['ACC#a#KEYS'] } });
    expect(dynamoRequests('BatchWriteCommand', { RequestItems: { t: [{ PutRequest: { Item: { pk: 'A#1' } } }, { DeleteRequest: { Key: { pk: 'B#2' } } }] } })[0]!.context!['dynamodb:LeadingKeys']).toEqual(['A#1', 'B#2']);
    expect(dynamoRequests('ScanCommand', {})[0]).toMatchObject({ action: 'dynamodb:Scan', noKey: true });
  });

  test('puts and updates name their attributes (item, update and condition expressions) and ReturnValues', () => {
    expect((dynamoRequests('PutCommand', { Item: { pk: 'ACC#a', sk: 'X', name: 'n' }, ConditionExpression: 'attribute_not_exists(pk)' })[0]!.context!['dynamodb:Attributes'] as string[]).sort()).toEqual(['name', 'pk', 'sk']);
    const update = dynamoRequests('UpdateCommand', {
      Key: { pk: 'ACC#a', sk: 'ACCOUNT' }, UpdateExpression: 'SET #plan = :plan, billing = :b ADD used :one REMOVE old_field',
      ConditionExpression: 'attribute_exists(pk) AND billing_version = :v', ExpressionAttributeNames: { '#plan': 'plan' }, ReturnValues: 'ALL_NEW',
    })[0]!;
    expect((update.context!['dynamodb:Attributes'] as string[]).sort()).toEqual(['billing', 'billing_version', 'old_field', 'pk', 'plan', 'sk', 'used']);
    expect(update.context!['dynamodb:ReturnValues']).toBe('ALL_NEW');
  });
});

describe('decisions against the synthesized policies', () => {
  const p = iamPolicies();
  const get = (pk: string) => dynamoRequests('GetCommand', { Key: { pk, sk: 'X' } })[0]!;

  test('every function of the deployment has its synthesized policy', () => {
    expect(Object.keys(p.functions)).toEqual(expect.arrayContaining(['get-me', 'post-post', 'publish-worker', 'webhook-worker', 'dispatch']));
    expect(p.functions['get-media-file']!.Statement.some((s) => JSON.stringify(s).includes('MEDIA#*'))).toBe(true);
  });

  test('LeadingKeys: every key must match; a Scan is refused under the condition', async () => {
    await expect(decide(p, 'get-media-file', get('MEDIA#1'))).resolves.toBe('Allowed');
    await expect(decide(p, 'get-media-file', get('ACC#1'))).resolves.toBe('ImplicitlyDenied');
    await expect(decide(p, 'get-media-file', dynamoRequests('BatchGetCommand', { RequestItems: { t: { Keys: [{ pk: 'MEDIA#1' }, { pk: 'KEY#2' }] } } })[0]!)).resolves.toBe('ImplicitlyDenied');
    await expect(decide(p, 'get-media-file', dynamoRequests('ScanCommand', {})[0]!)).resolves.toBe('ImplicitlyDenied');
    await expect(decide(p, 'get-media-file', dynamoRequests('PutCommand', { Item: { pk: 'MEDIA#1', sk: 'X' } })[0]!)).resolves.toBe('ImplicitlyDenied');
  });

  test('index queries: the key API keys are read through the index of their account', async () => {
    const query = dynamoRequests('QueryCommand', { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :g', ExpressionAttributeValues: { ':g': 'ACC#a#KEYS' } })[0]!;
    await expect(decide(p, 'get-keys', query)).resolves.toBe('Allowed');
    await expect(decide(p, 'get-media-file', query)).resolves.toBe('ImplicitlyDenied');
  });

  test('Attributes: a GET route settles a plan change on the account item, but cannot rename a brand', async () => {
    const settle = dynamoRequests('UpdateCommand', { Key: { pk: 'ACC#a', sk: 'ACCOUNT' }, UpdateExpression: 'SET #p = :p, billing = :b', ConditionExpression: 'billing_version = :v', ExpressionAttributeNames: { '#p': 'plan' } })[0]!;
    await expect(decide(p, 'get-me', settle)).resolves.toBe('Allowed');
    const rename = dynamoRequests('UpdateCommand', { Key: { pk: 'ACC#a', sk: 'ACCOUNT' }, UpdateExpression: 'SET #n = :n', ExpressionAttributeNames: { '#n': 'name' } })[0]!;
    await expect(decide(p, 'get-me', rename)).resolves.toBe('ImplicitlyDenied');
    expect(PLAN_SETTLE_ATTRIBUTES).not.toContain('name');
  });

  test('KMS with an encryption context, the scheduler with PassRole', async () => {
    await expect(decide(p, 'get-connect-health', kmsRequest(p, 'GenerateDataKey', { account: 'a1' }))).resolves.toBe('Allowed');
    await expect(decide(p, 'webhook-worker', kmsRequest(p, 'GenerateDataKey', { account: 'a1' }))).resolves.toBe('ImplicitlyDenied');
    await expect(decide(p, 'webhook-worker', kmsRequest(p, 'Decrypt', { account: 'a1' }))).resolves.toBe('Allowed');
    for (const r of schedulerRequests(p, 'CreateSchedule', 'post-1')) await expect(decide(p, 'publish-worker', r)).resolves.toBe('Allowed');
    await expect(decide(p, 'publish-worker', schedulerRequests(p, 'CreateSchedule', 'x', 'default')[0]!)).resolves.toBe('ImplicitlyDenied');
  });

  test('it catches a missing grant: the same request, with the table grant\'s write statement left out of the policy', async () => {
    const put = dynamoRequests('PutCommand', { Item: { pk: 'BRAND#a#b', sk: 'BRAND', name: 'n' } })[0]!;
    await expect(decide(p, 'post-brands', put)).resolves.toBe('Allowed');
    const without: PolicyDocument = { ...p.functions['post-brands']!, Statement: p.functions['post-brands']!.Statement.filter((s) => !JSON.stringify(s.Action).includes('dynamodb:PutItem')) };
    await expect(decide(p, 'post-brands', put, without)).resolves.toBe('ImplicitlyDenied');
  });
});

describe('a function under the local runtime: a denied request is refused and fails the test', () => {
  let table: TableRef;
  let stop: () => Promise<void>;
  beforeAll(async () => ({ table, stop } = await startTestTable()));
  afterAll(() => stop());
  afterEach(() => { takeDenials(); });

  test('a GET route cannot write an item: AccessDeniedException, nothing written, and the denial is recorded', async () => {
    const put = () => table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.brand('acc1', 'b1'), name: 'sneaky' } }));
    await expect(asFunction(routes.getBrands.id, put)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(takeDenials()).toEqual([expect.objectContaining({ fn: 'get-brands', decision: 'ImplicitlyDenied', request: expect.objectContaining({ action: 'dynamodb:PutItem' }) })]);
    expect((await table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.brand('acc1', 'b1') }))).Item).toBeUndefined();
    await asFunction(routes.postBrands.id, put);
    expect(takeDenials()).toEqual([]);
    expect((await table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.brand('acc1', 'b1') }))).Item?.name).toBe('sneaky');
  });

  test('a GET route counts its rate limit and settles a due plan (conditional writes), nothing else of the account', async () => {
    const counters = new DynamoCounterStore(table);
    await asFunction(routes.getMe.id, () => counters.increment('rl#key#k1#60#0', 1, 10, 9_999_999_999));
    expect(await counters.get('rl#key#k1#60#0')).toBe(1);
    await expect(asFunction(routes.getMe.id, () => counters.increment('usage#acc1', 1, 10, 9_999_999_999))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.account('acc1'), plan: 'pro' } }));
    await expect(asFunction(routes.getMe.id, () => new DynamoBillingStore(table).saveState('acc1', 0, { plan: 'free', billing: {} }))).resolves.toBe(true);
    const rename = () => table.doc.send(new UpdateCommand({ TableName: table.tableName, Key: keys.brand('acc1', 'b1'), UpdateExpression: 'SET #n = :n', ExpressionAttributeNames: { '#n': 'name' }, ExpressionAttributeValues: { ':n': 'x' } }));
    await expect(asFunction(routes.getMe.id, rename)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(takeDenials().map((d) => d.request.action)).toEqual(['dynamodb:UpdateItem', 'dynamodb:UpdateItem']);
  });

  test('an open route reads only its item types; no Scan, no mixed batch', async () => {
    await table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.media('m1'), state: 'uploaded' } }));
    const as = <T>(run: () => Promise<T>) => asFunction(routes.getMediaFile.id, run);
    expect((await as(() => table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.media('m1') })))).Item?.state).toBe('uploaded');
    await expect(as(() => table.doc.send(new GetCommand({ TableName: table.tableName, Key: keys.account('acc1') })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(as(() => table.doc.send(new QueryCommand({ TableName: table.tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'ACC#acc1' } })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(as(() => table.doc.send(new BatchGetCommand({ RequestItems: { [table.tableName]: { Keys: [keys.media('m1'), keys.account('acc1')] } } })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(as(() => table.doc.send(new ScanCommand({ TableName: table.tableName })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(asFunction(routes.postSignup.id, () => table.doc.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: [{ PutRequest: { Item: { ...keys.apiKey('h'), account_id: 'acc1' } } }] } })))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(takeDenials()).toHaveLength(5);
  });

  test('stand-ins are checked as the AWS request they replace: the local key as KMS, the table scheduler as Scheduler', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iam-sim-'));
    const cipher = new LocalKeyCipher(path.join(dir, 'local.key'));
    const token = await asFunction('get-connect-health', () => cipher.encrypt('secret', { account: 'a1' }));
    await expect(asFunction('webhook-worker', () => cipher.decrypt(token, { account: 'a1' }))).resolves.toBe('secret');
    await expect(asFunction('webhook-worker', () => cipher.encrypt('x'))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    const scheduler = new TableScheduler(table);
    // the timer item is the stand-in's, not a table request of the function (whose policy may not allow TIMER# items)
    await asFunction(publishWorker.id, () => scheduler.scheduleOnce({ name: 'post-1', runAt: new Date(0), input: {} }));
    await expect(asFunction('get-media-file', () => scheduler.cancel('post-1'))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(takeDenials().map((d) => d.request.action)).toEqual(['kms:GenerateDataKey', 'scheduler:DeleteSchedule']);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('outside a function (test set-up, the runtime\'s own pollers) nothing is checked', async () => {
    await table.doc.send(new PutCommand({ TableName: table.tableName, Item: { ...keys.apiKey('h2'), account_id: 'acc1' } }));
    expect((await table.doc.send(new ScanCommand({ TableName: table.tableName }))).Items?.length).toBeGreaterThan(0);
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

import { DeleteCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';

/**
 * Operator tooling over a stage's table, bucket and queues (the admin CLI, bin/social-admin.ts): everything an
 * account owns, its export and its deletion, and moving messages out of a dead-letter queue.
 *
 * An account's items are found by a full scan (an operator action, not a request path): an item belongs to the
 * account when one of its keys (pk, sk, gsi1pk, gsi1sk) contains the account id or an id the account owns (ids are
 * unique strings), when its `account_id` is the account, or when a key names the account's email (its claim,
 * sign-up counters). Ids the account owns (brands, keys,
 * posts, connections, webhooks, deliveries, schedules, recurring schedules, media) are collected from its items until
 * nothing new turns up, so a post's network items, a webhook's log and a brand's slot claims are found too.
 */
export type Item = Record<string, unknown>;

const OWNED_ID_FIELDS = ['id', 'brand_id', 'post_id', 'webhook_id', 'delivery_id', 'schedule_id', 'recurring_id', 'media_id', 'connection_id', 'key_id'];
/** Only our own ids are followed (a network's post id like "41" would match other accounts' keys). */
const OUR_ID = /^([a-z]{2,4}_[0-9A-HJKMNP-TV-Z]{26}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
/** Attributes never exported: hashes and envelope-encrypted secrets. */
const SECRET_FIELD = /(_enc$|^hash$|secret|credentials)/;

async function scanAll(doc: DynamoDBDocumentClient, tableName: string): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

const keyStrings = (item: Item): string[] => ['pk', 'sk', 'gsi1pk', 'gsi1sk'].flatMap((k) => (typeof item[k] === 'string' ? [item[k] as string] : []));
/** Our ids (prefix + ULID, or a delivery UUID) are unique strings: one inside a key (`TIMER#s-sch_…`) is a reference. */
const keyNames = (item: Item, ids: Set<string>, email: string | undefined): boolean => keyStrings(item).some((k) =>
  (email !== undefined && k.split(/[#:]/).includes(email)) || [...ids].some((id) => k.includes(id)));

/** Every item of the account (see the module comment), or [] when the account does not exist. */
export async function accountItems(doc: DynamoDBDocumentClient, tableName: string, accountId: string): Promise<Item[]> {
  const all = await scanAll(doc, tableName);
  const account = all.find((i) => i.pk === `ACC#${accountId}` && i.sk === 'ACCOUNT');
  if (!account) return [];
  const ids = new Set<string>([accountId]);
  const email = typeof account.email === 'string' ? account.email.toLowerCase() : undefined;
  const owned = new Set<Item>();
  for (let grew = true; grew;) {
    grew = false;
    for (const item of all) {
      if (owned.has(item)) continue;
      // the email: its claim and the sign-up counters keyed by the address
      const mine = item.account_id === accountId || keyNames(item, ids, email);
      if (!mine) continue;
      owned.add(item);
      grew = true;
      for (const f of OWNED_ID_FIELDS) if (typeof item[f] === 'string' && OUR_ID.test(item[f] as string)) ids.add(item[f] as string);
    }
  }
  return [...owned];
}

/** The account's data as plain JSON: its items (hashes and encrypted secrets left out) and its media objects. */
export async function exportAccount(doc: DynamoDBDocumentClient, tableName: string, s3: S3Client, bucket: string, accountId: string) {
  const items = await accountItems(doc, tableName, accountId);
  if (items.length === 0) return undefined;
  const clean = items.map((i) => Object.fromEntries(Object.entries(i).filter(([k]) => !SECRET_FIELD.test(k))));
  const kind = (i: Item) => String(i.pk).split('#')[0] + (String(i.pk).startsWith('ACC#') ? `/${String(i.sk).split('#')[0]}` : '');
  const byKind: Record<string, Item[]> = {};
  for (const i of clean) (byKind[kind(i)] ??= []).push(i);
  return {
    account_id: accountId,
    exported_items: clean.length,
    items: byKind,
    media_objects: await listPrefix(s3, bucket, `media/${accountId}/`),
  };
}

async function listPrefix(s3: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    keys.push(...(out.Contents ?? []).map((o) => o.Key!).filter(Boolean));
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** Deletes every item of the account and its media objects; answers the counts. Run twice, it finds nothing. */
export async function deleteAccount(doc: DynamoDBDocumentClient, tableName: string, s3: S3Client, bucket: string, accountId: string) {
  const items = await accountItems(doc, tableName, accountId);
  // the account item last: a stopped run can be run again, and finds the rest through it
  const ordered = [...items.filter((i) => i.sk !== 'ACCOUNT'), ...items.filter((i) => i.sk === 'ACCOUNT')];
  for (const i of ordered) await doc.send(new DeleteCommand({ TableName: tableName, Key: { pk: i.pk, sk: i.sk } }));
  const objects = await listPrefix(s3, bucket, `media/${accountId}/`);
  for (let n = 0; n < objects.length; n += 1000) {
    await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects.slice(n, n + 1000).map((Key) => ({ Key })) } }));
  }
  return { items: items.length, objects: objects.length };
}

/** Moves up to `max` messages from a dead-letter queue back to its source queue (sent first, then deleted). */
export async function replayDlq(sqs: SQSClient, dlqUrl: string, targetUrl: string, max = 1000): Promise<number> {
  let moved = 0;
  while (moved < max) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: Math.min(10, max - moved), WaitTimeSeconds: 0, VisibilityTimeout: 60, MessageAttributeNames: ['All'] }));
    const messages = out.Messages ?? [];
    if (messages.length === 0) break;
    const sent = await sqs.send(new SendMessageBatchCommand({
      QueueUrl: targetUrl,
      Entries: messages.map((m, i) => ({ Id: String(i), MessageBody: m.Body ?? '', ...(m.MessageAttributes ? { MessageAttributes: m.MessageAttributes } : {}) })),
    }));
    const ok = new Set((sent.Successful ?? []).map((s) => s.Id));
    const done = messages.filter((_, i) => ok.has(String(i)));
    if (done.length) await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: dlqUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
    moved += done.length;
    if (done.length < messages.length) throw new Error(`${messages.length - done.length} message(s) could not be sent back; they stay in the DLQ`);
  }
  return moved;
}

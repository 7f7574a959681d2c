import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { NetworkRecord, NetworkState, PostRecord, PostStore, SettleExtra } from '../../ports/publishing';
import type { NetworkResult } from '../../domain/post';
import type { PlatformName } from '../../domain/platforms';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { cond, and } from './conditions';
import { GSI1, keys, strip } from './keys';

/**
 * Posts: the post item and one item per network share the partition POST#<id>, so one query reads a post with
 * every network's state and result (and its events). The network item is what the worker claims.
 */
export class DynamoPostStore implements PostStore {
  constructor(private readonly t: TableRef) {}

  async create(post: PostRecord, networks: NetworkRecord[]) {
    for (const n of networks) {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName, Item: { ...keys.network(post.id, n.platform), ...n, ...this.networkIndex(n) },
        ConditionExpression: cond.absent,
      }));
    }
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...keys.post(post.id), ...keys.postByAccount(post.account_id, post.id), ...post },
      ConditionExpression: cond.absent,
    }));
  }

  private networkIndex(n: Pick<NetworkRecord, 'account_id' | 'platform' | 'result'>) {
    return n.result?.id ? keys.networkById(n.account_id, n.platform, n.result.id) : {};
  }

  async get(postId: string) {
    const items = await queryAll(this.t, {
      ConsistentRead: true, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.post(postId).pk },
    });
    const postItem = items.find((i) => i.sk === 'POST');
    if (!postItem) return undefined;
    const post = strip<PostRecord>(postItem);
    const byPlatform = new Map(items.filter((i) => String(i.sk).startsWith('NET#')).map((i) => [i.platform as string, strip<NetworkRecord>(i)]));
    return { post, networks: post.platforms.map((p) => byPlatform.get(p)).filter((n): n is NetworkRecord => !!n) };
  }

  /** BatchGetItem, 100 keys a call, unprocessed keys asked again. */
  async networksOf(posts: Array<Pick<PostRecord, 'id' | 'platforms'>>) {
    const out = new Map<string, NetworkRecord[]>(posts.map((p) => [p.id, []]));
    const all = posts.flatMap((p) => p.platforms.map((platform) => keys.network(p.id, platform)));
    for (let i = 0; i < all.length; i += 100) {
      let pending: Record<string, unknown>[] | undefined = all.slice(i, i + 100);
      for (let tries = 0; pending?.length && tries < 8; tries++) {
        const res = await this.t.doc.send(new BatchGetCommand({ RequestItems: { [this.t.tableName]: { Keys: pending, ConsistentRead: true } } }));
        for (const item of res.Responses?.[this.t.tableName] ?? []) out.get(String(item.pk).slice('POST#'.length))?.push(strip<NetworkRecord>(item));
        pending = res.UnprocessedKeys?.[this.t.tableName]?.Keys as Record<string, unknown>[] | undefined;
      }
      if (pending?.length) throw new Error('networksOf: the table kept refusing part of the batch read');
    }
    for (const p of posts) out.get(p.id)!.sort((a, b) => p.platforms.indexOf(a.platform) - p.platforms.indexOf(b.platform));
    return out;
  }

  async list(accountId: string, limit: number, before?: string) {
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, IndexName: GSI1, ScanIndexForward: false, Limit: limit,
      KeyConditionExpression: before ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.postByAccount(accountId, '').gsi1pk, ...(before ? { ':before': before } : {}) },
    }));
    return (res.Items ?? []).map((i) => strip<PostRecord>(i));
  }

  async claim(postId: string, platform: PlatformName, from: NetworkState[], nowMs: number) {
    const names = from.map((_, i) => `:s${i}`);
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.network(postId, platform),
        UpdateExpression: 'SET #state = :sending, claimed_at = :now',
        // the network is in a claimable state: exactly one worker moves it to sending
        ConditionExpression: and(cond.present, `#state IN (${names.join(', ')})`),
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':now': nowMs, ...Object.fromEntries(from.map((s, i) => [`:s${i}`, s])) },
      }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async settle(postId: string, platform: PlatformName, state: 'done' | 'scheduled' | 'processing', result: NetworkResult, extra: SettleExtra = {}) {
    const current = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.network(postId, platform), ConsistentRead: true }));
    const accountId = current.Item?.account_id as string;
    const index = result.id ? keys.networkById(accountId, platform, result.id) : undefined;
    // the resume fields of a 'processing' network (written when it is processing, removed once it leaves)
    const resume = { resume_enc: extra.resume_enc, resume_at: extra.resume_at, resumes: extra.resumes };
    const resumeSets = Object.entries(resume).filter(([, v]) => v !== undefined).map(([k]) => `${k} = :${k}`);
    const resumeValues = Object.fromEntries(Object.entries(resume).filter(([, v]) => v !== undefined).map(([k, v]) => [`:${k}`, v]));
    const sets = ['#state = :state', '#result = :result', ...(index ? ['gsi1pk = :g1', 'gsi1sk = :g2'] : []),
      ...(extra.deferrals !== undefined ? ['deferrals = :deferrals'] : []), ...(extra.reserved !== undefined ? ['reserved = :reserved'] : []),
      ...resumeSets];
    const removes = state !== 'processing' && current.Item?.resume_enc !== undefined ? ' REMOVE resume_enc, resume_at' : '';
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.network(postId, platform),
      UpdateExpression: 'SET ' + sets.join(', ') + removes,
      // only the claimer (state sending) settles
      ConditionExpression: and(cond.present, '#state = :sending'),
      ExpressionAttributeNames: { '#state': 'state', '#result': 'result' },
      ExpressionAttributeValues: {
        ':state': state, ':result': result, ':sending': 'sending',
        ...(index ? { ':g1': index.gsi1pk, ':g2': index.gsi1sk } : {}),
        ...(extra.deferrals !== undefined ? { ':deferrals': extra.deferrals } : {}),
        ...(extra.reserved !== undefined ? { ':reserved': extra.reserved } : {}),
        ...resumeValues,
      },
    }));
  }

  async setResult(postId: string, platform: PlatformName, result: NetworkResult) {
    await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.network(postId, platform),
      UpdateExpression: 'SET #state = :done, #result = :result',
      ConditionExpression: cond.present,
      ExpressionAttributeNames: { '#state': 'state', '#result': 'result' },
      ExpressionAttributeValues: { ':done': 'done', ':result': result },
    }));
  }

  async findByNetworkId(accountId: string, platform: PlatformName, networkPostId: string) {
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, IndexName: GSI1, Limit: 1,
      KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.networkById(accountId, platform, networkPostId).gsi1pk },
    }));
    return res.Items?.[0]?.post_id as string | undefined;
  }
}

import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClaimMatch, NetworkRecord, NetworkState, PostRecord, PostStore, ServiceEvent, SettleExtra, StoredPost } from '../../ports/publishing';
import type { NetworkResult } from '../../domain/post';
import type { PlatformName } from '../../domain/platforms';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { cond, and } from './conditions';
import { GSI1, keys, strip } from './keys';

/** A network as stored in the post item's `networks` map (its post, account and platform are the item's). */
type StoredNetwork = Omit<NetworkRecord, 'post_id' | 'account_id' | 'platform'>;

const toStored = ({ post_id: _p, account_id: _a, platform: _n, ...rest }: NetworkRecord): StoredNetwork => rest;

/**
 * Posts: one item per post (POST#<id>/POST) holding every network's state, result and outcome event in the map
 * `networks.<platform>`; a claim and a settle are conditional updates of that map entry that answer the item as
 * it is afterwards, so the worker never re-reads the post. A published network's own id points to its post through
 * a small pointer item (NETID#…), read by GET /api/post/status.
 *
 * Posts stored before the single item (one NET#<platform> item per network, the network-id index on gsi1) are
 * still read by get(), networksOf() and findByNetworkId(); they are not claimed or settled again (decisions.md).
 */
export class DynamoPostStore implements PostStore {
  constructor(private readonly t: TableRef) {}

  async create(post: PostRecord, networks: NetworkRecord[], reconcileAt?: number) {
    // the marker first: a post the sweep cannot find never exists (a marker without its post is dropped by the sweep)
    if (reconcileAt !== undefined) await this.putMarker(post.id, reconcileAt);
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: {
        ...keys.post(post.id), ...keys.postByAccount(post.account_id, post.id), ...post,
        networks: Object.fromEntries(networks.map((n) => [n.platform, toStored(n)])),
      },
      // a new post id: never overwrite a post
      ConditionExpression: cond.absent,
    }));
  }

  async get(postId: string): Promise<StoredPost | undefined> {
    const items = await queryAll(this.t, {
      ConsistentRead: true, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.post(postId).pk },
    });
    const postItem = items.find((i) => i.sk === 'POST');
    if (!postItem) return undefined;
    const legacy = items.filter((i) => String(i.sk).startsWith('NET#')).map((i) => strip<NetworkRecord>(i));
    return fromItem(postItem, legacy);
  }

  async poll(postId: string, platforms: PlatformName[]) {
    const names = Object.fromEntries(platforms.map((p, i) => [`#p${i}`, p]));
    const res = await this.t.doc.send(new GetCommand({
      TableName: this.t.tableName, Key: keys.post(postId), ConsistentRead: true,
      ProjectionExpression: platforms.map((_, i) => `networks.#p${i}.#state, networks.#p${i}.#result`).join(', '),
      ExpressionAttributeNames: { ...names, '#state': 'state', '#result': 'result' },
    }));
    if (!res.Item) return undefined;
    const networks = (res.Item.networks ?? {}) as Record<string, Pick<NetworkRecord, 'state' | 'result'>>;
    return platforms.filter((p) => networks[p]).map((platform) => ({ platform, ...networks[platform] }));
  }

  /** BatchGetItem of the post items, 100 keys a call, unprocessed keys asked again; older posts' network items too. */
  async networksOf(posts: Array<Pick<PostRecord, 'id' | 'platforms'>>) {
    const out = new Map<string, NetworkRecord[]>(posts.map((p) => [p.id, []]));
    const items = await this.batchGet(posts.map((p) => keys.post(p.id)));
    const legacyPosts = new Set<string>(posts.map((p) => p.id));
    for (const item of items) {
      if (!item.networks) continue;
      const found = fromItem(item, []);
      out.set(found.post.id, found.networks);
      legacyPosts.delete(found.post.id);
    }
    const legacyKeys = posts.filter((p) => legacyPosts.has(p.id)).flatMap((p) => p.platforms.map((platform) => keys.network(p.id, platform)));
    for (const item of await this.batchGet(legacyKeys)) out.get(String(item.pk).slice('POST#'.length))?.push(strip<NetworkRecord>(item));
    for (const p of posts) out.get(p.id)!.sort((a, b) => p.platforms.indexOf(a.platform) - p.platforms.indexOf(b.platform));
    return out;
  }

  private async batchGet(all: Record<string, unknown>[]) {
    const found: Record<string, unknown>[] = [];
    for (let i = 0; i < all.length; i += 100) {
      let pending: Record<string, unknown>[] | undefined = all.slice(i, i + 100);
      for (let tries = 0; pending?.length && tries < 8; tries++) {
        const res = await this.t.doc.send(new BatchGetCommand({ RequestItems: { [this.t.tableName]: { Keys: pending, ConsistentRead: true } } }));
        found.push(...(res.Responses?.[this.t.tableName] ?? []));
        pending = res.UnprocessedKeys?.[this.t.tableName]?.Keys as Record<string, unknown>[] | undefined;
      }
      if (pending?.length) throw new Error('networksOf: the table kept refusing part of the batch read');
    }
    return found;
  }

  async list(accountId: string, limit: number, before?: string) {
    const res = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, IndexName: GSI1, ScanIndexForward: false, Limit: limit,
      KeyConditionExpression: before ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.postByAccount(accountId, '').gsi1pk, ...(before ? { ':before': before } : {}) },
    }));
    return (res.Items ?? []).map((i) => {
      const { networks: _n, ...post } = strip<PostRecord & { networks?: unknown }>(i);
      return post;
    });
  }

  async claim(postId: string, platform: PlatformName, from: NetworkState[], nowMs: number, match: ClaimMatch = {}) {
    const names = from.map((_, i) => `:s${i}`);
    const checks = [
      `#n.#p.#state IN (${names.join(', ')})`,
      ...(match.deferrals !== undefined ? ['#n.#p.deferrals = :deferrals'] : []),
      ...(match.resumes !== undefined ? ['#n.#p.resumes = :resumes'] : []),
      ...(match.dueBy !== undefined ? ['attribute_not_exists(#n.#p.resume_at) OR #n.#p.resume_at <= :dueBy'] : []),
    ];
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.post(postId),
        UpdateExpression: 'SET #n.#p.#state = :sending, #n.#p.claimed_at = :now',
        // the network is in a claimable state (and the message is the current one): exactly one worker sends
        ConditionExpression: and(cond.present, ...checks),
        ExpressionAttributeNames: { '#n': 'networks', '#p': platform, '#state': 'state' },
        ExpressionAttributeValues: {
          ':sending': 'sending', ':now': nowMs, ...Object.fromEntries(from.map((s, i) => [`:s${i}`, s])),
          ...(match.deferrals !== undefined ? { ':deferrals': match.deferrals } : {}),
          ...(match.resumes !== undefined ? { ':resumes': match.resumes } : {}),
          ...(match.dueBy !== undefined ? { ':dueBy': match.dueBy } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }));
      return fromItem(res.Attributes!, []);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async settle(postId: string, platform: PlatformName, state: 'done' | 'scheduled' | 'processing', result: NetworkResult, extra: SettleExtra = {}, event?: ServiceEvent, claimedAt?: number) {
    const fields: Record<string, unknown> = {
      state, result, ...(event ? { event } : {}),
      ...Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)),
    };
    const sets = Object.keys(fields).map((k) => `#n.#p.#f_${k} = :f_${k}`);
    // the resume fields of a 'processing' network are written while it is processing and removed once it leaves
    const removed = state === 'processing' ? [] : ['resume_enc', 'resume_at'].filter((k) => !(k in fields));
    const removes = removed.map((k) => `#n.#p.#f_${k}`);
    const res = await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: keys.post(postId),
      UpdateExpression: 'SET ' + sets.join(', ') + (removes.length ? ' REMOVE ' + removes.join(', ') : ''),
      // only the claimer (state sending; with claimedAt, that very claim, not one reconciliation took over) settles
      ConditionExpression: and(cond.present, '#n.#p.#f_state = :sending', ...(claimedAt !== undefined ? ['#n.#p.#claimed_at = :claimed_at'] : [])),
      ExpressionAttributeNames: {
        '#n': 'networks', '#p': platform,
        ...Object.fromEntries([...Object.keys(fields), ...removed].map((k) => [`#f_${k}`, k])),
        ...(claimedAt !== undefined ? { '#claimed_at': 'claimed_at' } : {}),
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [`:f_${k}`, v])), ':sending': 'sending',
        ...(claimedAt !== undefined ? { ':claimed_at': claimedAt } : {}),
      },
      ReturnValues: 'ALL_NEW',
    }));
    const after = fromItem(res.Attributes!, []);
    if (result.id && state !== 'scheduled') await this.point(after.post.account_id, platform, result.id, postId);
    return after;
  }

  async takeOver(postId: string, platform: PlatformName, seenClaimedAt: number, nowMs: number) {
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.post(postId),
        UpdateExpression: 'SET #n.#p.claimed_at = :now, #n.#p.reconciles = if_not_exists(#n.#p.reconciles, :zero) + :one',
        // still the claim the caller judged stale: a live worker's settle, or another take-over, wins instead
        ConditionExpression: and(cond.present, '#n.#p.#state = :sending', '#n.#p.claimed_at = :seen'),
        ExpressionAttributeNames: { '#n': 'networks', '#p': platform, '#state': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':seen': seenClaimedAt, ':now': nowMs, ':zero': 0, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }));
      return fromItem(res.Attributes!, []);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async reconcileDue(beforeMs: number, limit: number) {
    const hi = keys.postDue('x', Math.min(beforeMs, 1e15 - 1)).sk.split('#')[0];
    const markers: Array<{ post_id: string; due_at: number }> = [];
    for (const pk of keys.postDueShards) {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, Limit: limit, ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND sk <= :hi', ExpressionAttributeValues: { ':pk': pk, ':hi': `${hi}#~` },
      }));
      for (const i of res.Items ?? []) markers.push({ post_id: i.post_id as string, due_at: i.due_at as number });
    }
    return markers.sort((a, b) => a.due_at - b.due_at || a.post_id.localeCompare(b.post_id)).slice(0, limit);
  }

  async moveReconcile(postId: string, fromMs: number, toMs: number | undefined) {
    if (toMs !== undefined && keys.postDue(postId, toMs).sk === keys.postDue(postId, fromMs).sk) return;
    if (toMs !== undefined) await this.putMarker(postId, toMs);
    await this.t.doc.send(new DeleteCommand({ TableName: this.t.tableName, Key: keys.postDue(postId, fromMs) }));
  }

  /** Indexes a post on the reconciliation's due index (idempotent: the same key is the same marker). */
  private async putMarker(postId: string, dueMs: number) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.postDue(postId, dueMs), post_id: postId, due_at: Math.floor(dueMs) } }));
  }

  /** The pointer from a network's own post id to our post (GET /api/post/status by the network's id). */
  private async point(accountId: string, platform: PlatformName, networkPostId: string, postId: string) {
    await this.t.doc.send(new PutCommand({ TableName: this.t.tableName, Item: { ...keys.networkPointer(accountId, platform, networkPostId), post_id: postId } }));
  }

  async findByNetworkId(accountId: string, platform: PlatformName, networkPostId: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: keys.networkPointer(accountId, platform, networkPostId), ConsistentRead: true }));
    if (res.Item) return res.Item.post_id as string;
    // posts stored before the pointer items: their network item is indexed on gsi1
    const legacy = await this.t.doc.send(new QueryCommand({
      TableName: this.t.tableName, IndexName: GSI1, Limit: 1,
      KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.networkById(accountId, platform, networkPostId).gsi1pk },
    }));
    return legacy.Items?.[0]?.post_id as string | undefined;
  }
}

/** The post item as a post and its networks in request order (`legacy`: the network items of an older post). */
function fromItem(item: Record<string, unknown>, legacy: NetworkRecord[]): StoredPost {
  const { networks: map, ...rest } = strip<PostRecord & { networks?: Record<string, StoredNetwork> }>(item);
  const post = rest as PostRecord;
  const byPlatform = new Map<string, NetworkRecord>(map
    ? Object.entries(map).map(([platform, n]) => [platform, { post_id: post.id, account_id: post.account_id, platform: platform as PlatformName, ...n }])
    : legacy.map((n) => [n.platform, n]));
  return { post, networks: post.platforms.map((p) => byPlatform.get(p)).filter((n): n is NetworkRecord => !!n) };
}

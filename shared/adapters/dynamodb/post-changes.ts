import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ChangeNetwork, ChangeResult, PostChange, PostChangeStore, StoredChange } from '../../ports/post-changes';
import type { PlatformName } from '../../domain/platforms';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { and, cond } from './conditions';
import { keys, strip } from './keys';

/** A change item's key: under its post's partition (POST#<id>/CHG#<change id>), so one query reads every change of a post. */
const changeKey = (postId: string, changeId: string) => ({ pk: keys.post(postId).pk, sk: `CHG#${changeId}` });

type StoredNetwork = Omit<ChangeNetwork, 'platform'>;

/**
 * Deletes and edits of published posts: one item per change holding each network's state and result in the map
 * `networks.<platform>`; claim (queued, or a stale sending claim → sending) and settle (sending → done) are
 * conditional updates of that entry answering the item after them.
 */
export class DynamoPostChangeStore implements PostChangeStore {
  constructor(private readonly t: TableRef) {}

  async create(change: PostChange, networks: ChangeNetwork[]) {
    await this.t.doc.send(new PutCommand({
      TableName: this.t.tableName,
      Item: { ...changeKey(change.post_id, change.id), ...change, networks: Object.fromEntries(networks.map(({ platform, ...n }) => [platform, n])) },
      // a new change id: never overwrite a change
      ConditionExpression: cond.absent,
    }));
  }

  async get(postId: string, changeId: string) {
    const res = await this.t.doc.send(new GetCommand({ TableName: this.t.tableName, Key: changeKey(postId, changeId), ConsistentRead: true }));
    return res.Item ? fromItem(res.Item) : undefined;
  }

  async listForPost(postId: string) {
    const items = await queryAll(this.t, {
      ConsistentRead: true, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :chg)',
      ExpressionAttributeValues: { ':pk': keys.post(postId).pk, ':chg': 'CHG#' },
    });
    return items.map(fromItem);
  }

  async claim(postId: string, changeId: string, platform: PlatformName, nowMs: number, staleBefore: number) {
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: changeKey(postId, changeId),
        UpdateExpression: 'SET #n.#p.#state = :sending, #n.#p.claimed_at = :now',
        // queued, or claimed by a worker that stopped long ago: exactly one worker calls the network at a time
        ConditionExpression: and(cond.present, '#n.#p.#state = :queued OR (#n.#p.#state = :sending AND #n.#p.claimed_at < :stale)'),
        ExpressionAttributeNames: { '#n': 'networks', '#p': platform, '#state': 'state' },
        ExpressionAttributeValues: { ':sending': 'sending', ':queued': 'queued', ':now': nowMs, ':stale': staleBefore },
        ReturnValues: 'ALL_NEW',
      }));
      return fromItem(res.Attributes!);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async settle(postId: string, changeId: string, platform: PlatformName, result: ChangeResult) {
    const res = await this.t.doc.send(new UpdateCommand({
      TableName: this.t.tableName, Key: changeKey(postId, changeId),
      UpdateExpression: 'SET #n.#p.#state = :done, #n.#p.#result = :result',
      // only the claimer (state sending) settles
      ConditionExpression: and(cond.present, '#n.#p.#state = :sending'),
      ExpressionAttributeNames: { '#n': 'networks', '#p': platform, '#state': 'state', '#result': 'result' },
      ExpressionAttributeValues: { ':done': 'done', ':sending': 'sending', ':result': result },
      ReturnValues: 'ALL_NEW',
    }));
    return fromItem(res.Attributes!);
  }

  markDeleted(postId: string, platform: PlatformName, at: string) {
    return markDeletedOnPost(this.t, postId, platform, at);
  }
}

/** The post item's `networks.<platform>.deleted_at` (only on a post that has that network). */
async function markDeletedOnPost(t: TableRef, postId: string, platform: PlatformName, at: string) {
  await t.doc.send(new UpdateCommand({
    TableName: t.tableName, Key: keys.post(postId),
    UpdateExpression: 'SET #n.#p.deleted_at = :at',
    ConditionExpression: and(cond.present, 'attribute_exists(#n.#p)'),
    ExpressionAttributeNames: { '#n': 'networks', '#p': platform },
    ExpressionAttributeValues: { ':at': at },
  })).catch((err) => { if (!isConditionFailure(err)) throw err; });
}

function fromItem(item: Record<string, unknown>): StoredChange {
  const { networks: map, ...change } = strip<PostChange & { networks?: Record<string, StoredNetwork> }>(item);
  const byPlatform = map ?? {};
  return {
    change: change as PostChange,
    networks: change.platforms.filter((p) => byPlatform[p]).map((platform) => ({ platform, ...byPlatform[platform] })),
  };
}

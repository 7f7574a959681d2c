import { BatchGetCommand, type BatchGetCommandOutput, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AnalyticsDue, AnalyticsStore, AnalyticsUpdate } from '../../ports/analytics';
import type { PostAnalytics } from '../../domain/analytics';
import type { PlatformName } from '../../domain/platforms';
import { isConditionFailure, queryAll, type TableRef } from './client';
import { cond, or } from './conditions';
import { GSI1, keys, strip } from './keys';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The time part of a ULID made at `ms` (post ids sort by it): the range bounds of a date query. */
function ulidTime(ms: number): string {
  let out = '';
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) { out = CROCKFORD[t % 32] + out; t = Math.floor(t / 32); }
  return out;
}
/** A post is created before it is published: a scheduled, deferred or approved post may go out this much later. */
const PUBLISH_LAG_MS = 8 * 24 * 3600_000;

/**
 * Post analytics in the single table: one item per post and network in the account's analytics partition
 * (ACC#<id>#ANL / <post id>#<network>, so one query reads a post's networks, and a range of post ids — ULIDs,
 * sorted by creation time — reads a date range); while the sweep still looks at it the item carries its due
 * index entry on gsi1 (ANLDUE#0..3 by the post id's last character, sorted by next_sync_at).
 */
export class DynamoAnalyticsStore implements AnalyticsStore {
  constructor(private readonly t: TableRef) {}

  async track(item: PostAnalytics, nextSyncAt: number | undefined) {
    try {
      await this.t.doc.send(new PutCommand({
        TableName: this.t.tableName,
        Item: {
          ...keys.analytics(item.account_id, item.post_id, item.platform), ...item,
          ...(nextSyncAt === undefined ? {} : { ...due(item, nextSyncAt), next_sync_at: new Date(nextSyncAt).toISOString() }),
        },
        // once per post and network: a redelivered publish or a read-back never resets the figures
        ConditionExpression: cond.absent,
      }));
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  async forPosts(accountId: string, refs: Array<{ post_id: string; platform: PlatformName }>) {
    const out: PostAnalytics[] = [];
    for (let i = 0; i < refs.length; i += 100) {
      let Keys: Record<string, unknown>[] | undefined = refs.slice(i, i + 100).map((r) => keys.analytics(accountId, r.post_id, r.platform));
      // unprocessed keys (throttling) are asked again until none are left
      for (let round = 0; Keys?.length && round < 5; round++) {
        const res: BatchGetCommandOutput = await this.t.doc.send(new BatchGetCommand({ RequestItems: { [this.t.tableName]: { Keys } } }));
        out.push(...(res.Responses?.[this.t.tableName] ?? []).map((it: Record<string, unknown>) => fromItem(it)));
        Keys = res.UnprocessedKeys?.[this.t.tableName]?.Keys;
      }
    }
    return out;
  }

  async forPost(accountId: string, postId: string) {
    const items = await queryAll(this.t, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :post)',
      ExpressionAttributeValues: { ':pk': keys.analyticsPartition(accountId), ':post': `${postId}#` },
    });
    return items.map((i) => fromItem(i));
  }

  async claimFetch(accountId: string, postId: string, platform: PlatformName, nowMs: number, notBeforeMs: number) {
    try {
      const res = await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.analytics(accountId, postId, platform),
        UpdateExpression: 'SET attempted_at = :now',
        // tracked, and no fetch made or claimed since notBefore: one fetch at a time, refresh=1 once per 15 minutes
        ConditionExpression: `${cond.present} AND (${or('attribute_not_exists(attempted_at)', 'attempted_at <= :notBefore')})`,
        ExpressionAttributeValues: { ':now': nowMs, ':notBefore': notBeforeMs },
        ReturnValues: 'ALL_NEW',
      }));
      return fromItem(res.Attributes!);
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async saveFetch(accountId: string, postId: string, platform: PlatformName, u: AnalyticsUpdate) {
    const names: Record<string, string> = { '#status': 'status' };
    const set: string[] = ['#status = :status'];
    const values: Record<string, unknown> = { ':status': u.status };
    const remove: string[] = [];
    for (const f of ['metrics', 'source', 'fetched_at', 'error'] as const) {
      names[`#${f}`] = f;
      if (u[f] !== undefined) { set.push(`#${f} = :${f}`); values[`:${f}`] = u[f]; } else if (f === 'error') remove.push('#error');
    }
    if (u.next_sync_at === undefined) {
      remove.push('next_sync_at', 'gsi1pk', 'gsi1sk');
    } else {
      const d = keys.analyticsDue(accountId, postId, platform, u.next_sync_at);
      set.push('next_sync_at = :next', 'gsi1pk = :g1', 'gsi1sk = :g2');
      Object.assign(values, { ':next': new Date(u.next_sync_at).toISOString(), ':g1': d.gsi1pk, ':g2': d.gsi1sk });
    }
    const used = Object.fromEntries(Object.entries(names).filter(([n]) => [...set, ...remove].some((e) => e.startsWith(n))));
    try {
      await this.t.doc.send(new UpdateCommand({
        TableName: this.t.tableName, Key: keys.analytics(accountId, postId, platform),
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        // only a tracked item (never a half item made by an update)
        ConditionExpression: cond.present,
        ExpressionAttributeNames: used,
        ExpressionAttributeValues: values,
      }));
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  async due(beforeMs: number, limit: number): Promise<AnalyticsDue[]> {
    const upper = `${String(Math.max(0, Math.floor(beforeMs))).padStart(15, '0')}#~`;
    const shards = await Promise.all(keys.analyticsDueShards.map(async (shard) => {
      const res = await this.t.doc.send(new QueryCommand({
        TableName: this.t.tableName, IndexName: GSI1, KeyConditionExpression: 'gsi1pk = :s AND gsi1sk <= :upper',
        ExpressionAttributeValues: { ':s': shard, ':upper': upper }, Limit: limit,
        ProjectionExpression: 'account_id, brand_id, post_id, platform, next_sync_at',
      }));
      return res.Items ?? [];
    }));
    return shards.flat()
      .map((i) => ({ account_id: String(i.account_id), brand_id: String(i.brand_id), post_id: String(i.post_id), platform: i.platform as PlatformName, due_at: Date.parse(String(i.next_sync_at)) }))
      .sort((a, b) => a.due_at - b.due_at)
      .slice(0, limit);
  }

  async listPublished(accountId: string, fromMs: number, toMs: number) {
    const items = await queryAll(this.t, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: {
        ':pk': keys.analyticsPartition(accountId),
        ':lo': `pst_${ulidTime(fromMs - PUBLISH_LAG_MS)}`, ':hi': `pst_${ulidTime(toMs)}~`,
      },
    });
    return items.map((i) => fromItem(i))
      .filter((a) => { const at = Date.parse(a.published_at); return at >= fromMs && at <= toMs; })
      .sort((a, b) => a.published_at.localeCompare(b.published_at));
  }
}

function due(item: PostAnalytics, nextSyncAt: number) {
  return keys.analyticsDue(item.account_id, item.post_id, item.platform, nextSyncAt);
}

function fromItem(item: Record<string, unknown>): PostAnalytics {
  return strip<PostAnalytics>(item);
}

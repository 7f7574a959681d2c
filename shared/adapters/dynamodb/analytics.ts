import { BatchGetCommand, type BatchGetCommandOutput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AnalyticsDue, AnalyticsStore, AnalyticsUpdate } from '../../ports/analytics';
import type { PostAnalytics } from '../../domain/analytics';
import type { PlatformName } from '../../domain/platforms';
import type { TableRef } from './client';
import { cond, or } from './conditions';
import { conditional, entity, orUndefined, type Bound } from './entity';
import { GSI1, keys } from './keys';

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

/** A post's analytics on one network, and while the sweep still looks at it, when (ISO) and its due index entry. */
type Tracked = PostAnalytics & { next_sync_at?: string };

const analyticsEntity = entity({
  key: keys.analytics,
  keyOf: (a: Tracked) => keys.analytics(a.account_id, a.post_id, a.platform),
  indexOf: (a: Tracked) => (a.next_sync_at === undefined ? {} : keys.analyticsDue(a.account_id, a.post_id, a.platform, Date.parse(a.next_sync_at))),
});

/**
 * Post analytics in the single table: one item per post and network in the account's analytics partition
 * (ACC#<id>#ANL / <post id>#<network>, so one query reads a post's networks, and a range of post ids — ULIDs,
 * sorted by creation time — reads a date range); while the sweep still looks at it the item carries its due
 * index entry on gsi1 (ANLDUE#0..3 by the post id's last character, sorted by next_sync_at).
 */
export class DynamoAnalyticsStore implements AnalyticsStore {
  private readonly items: Bound<typeof analyticsEntity>;
  constructor(private readonly t: TableRef) {
    this.items = analyticsEntity.on(t);
  }

  async track(item: PostAnalytics, nextSyncAt: number | undefined) {
    const tracked: Tracked = nextSyncAt === undefined ? item : { ...item, next_sync_at: new Date(nextSyncAt).toISOString() };
    // once per post and network: a redelivered publish or a read-back never resets the figures
    await conditional(this.items.put(tracked, { if: cond.absent }));
  }

  async forPosts(accountId: string, refs: Array<{ post_id: string; platform: PlatformName }>) {
    const out: PostAnalytics[] = [];
    for (let i = 0; i < refs.length; i += 100) {
      let Keys: Record<string, unknown>[] | undefined = refs.slice(i, i + 100).map((r) => keys.analytics(accountId, r.post_id, r.platform));
      // unprocessed keys (throttling) are asked again until none are left
      for (let round = 0; Keys?.length && round < 5; round++) {
        const res: BatchGetCommandOutput = await this.t.doc.send(new BatchGetCommand({ RequestItems: { [this.t.tableName]: { Keys } } }));
        out.push(...(res.Responses?.[this.t.tableName] ?? []).map((it: Record<string, unknown>) => this.items.fromItem(it)));
        Keys = res.UnprocessedKeys?.[this.t.tableName]?.Keys;
      }
    }
    return out;
  }

  async forPost(accountId: string, postId: string): Promise<PostAnalytics[]> {
    return this.items.query({ pk: keys.analyticsPartition(accountId), beginsWith: `${postId}#` });
  }

  claimFetch(accountId: string, postId: string, platform: PlatformName, nowMs: number, notBeforeMs: number): Promise<PostAnalytics | undefined> {
    return orUndefined(this.items.updateAndRead([accountId, postId, platform], { set: { attempted_at: nowMs } }, {
      // tracked, and no fetch made or claimed since notBefore: one fetch at a time, refresh=1 once per 15 minutes
      if: `${cond.present} AND (${or('attribute_not_exists(attempted_at)', 'attempted_at <= :notBefore')})`,
      values: { ':notBefore': notBeforeMs },
    }));
  }

  async saveFetch(accountId: string, postId: string, platform: PlatformName, u: AnalyticsUpdate) {
    const set: Record<string, unknown> = { status: u.status };
    const remove: string[] = [];
    for (const f of ['metrics', 'source', 'fetched_at', 'error'] as const) {
      if (u[f] !== undefined) set[f] = u[f]; else if (f === 'error') remove.push('error');
    }
    if (u.next_sync_at === undefined) {
      remove.push('next_sync_at', 'gsi1pk', 'gsi1sk');
    } else {
      Object.assign(set, { next_sync_at: new Date(u.next_sync_at).toISOString(), ...keys.analyticsDue(accountId, postId, platform, u.next_sync_at) });
    }
    // only a tracked item (never a half item made by an update)
    await conditional(this.items.update([accountId, postId, platform], { set, remove }, { if: cond.present }));
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
    const items: PostAnalytics[] = await this.items.query({
      pk: keys.analyticsPartition(accountId), between: [`pst_${ulidTime(fromMs - PUBLISH_LAG_MS)}`, `pst_${ulidTime(toMs)}~`],
    });
    return items
      .filter((a) => { const at = Date.parse(a.published_at); return at >= fromMs && at <= toMs; })
      .sort((a, b) => a.published_at.localeCompare(b.published_at));
  }
}

import type { ChangeNetwork, ChangeResult, PostChange, PostChangeStore, StoredChange } from '../../ports/post-changes';
import type { PlatformName } from '../../domain/platforms';
import type { TableRef } from './client';
import { and, cond, entry, or } from './conditions';
import { conditional, entity, entryChange, orUndefined, type Bound } from './entity';
import { keys } from './keys';
import { postEntity } from './posts';

/** A change item's key: under its post's partition (POST#<id>/CHG#<change id>), so one query reads every change of a post. */
const changeKey = (postId: string, changeId: string) => ({ pk: keys.post(postId).pk, sk: `CHG#${changeId}` });

type StoredNetwork = Omit<ChangeNetwork, 'platform'>;

/** A change as stored: each network's state and result in the map `networks.<platform>`. */
type ChangeItem = PostChange & { networks: Record<string, StoredNetwork> };

const changeEntity = entity({ key: changeKey, keyOf: (c: ChangeItem) => changeKey(c.post_id, c.id) });

/**
 * Deletes and edits of published posts: one item per change holding each network's state and result in the map
 * `networks.<platform>`; claim (queued, or a stale sending claim → sending) and settle (sending → done) are
 * conditional updates of that entry (entryChange, with the `entry` condition fragments) answering the item after them.
 */
export class DynamoPostChangeStore implements PostChangeStore {
  private readonly changes: Bound<typeof changeEntity>;
  private readonly posts: Bound<typeof postEntity>;
  constructor(t: TableRef) {
    this.changes = changeEntity.on(t);
    this.posts = postEntity.on(t);
  }

  async create(change: PostChange, networks: ChangeNetwork[]) {
    const item: ChangeItem = { ...change, networks: Object.fromEntries(networks.map(({ platform, ...n }) => [platform, n])) };
    // a new change id: never overwrite a change
    await this.changes.put(item, { if: cond.absent });
  }

  async get(postId: string, changeId: string) {
    const item = await this.changes.get(postId, changeId);
    return item ? fromItem(item) : undefined;
  }

  async listForPost(postId: string) {
    return (await this.changes.query({ pk: keys.post(postId).pk, beginsWith: 'CHG#' })).map(fromItem);
  }

  async claim(postId: string, changeId: string, platform: PlatformName, nowMs: number, staleBefore: number) {
    const item = await orUndefined(this.changes.updateAndRead([postId, changeId], entryChange('networks', platform, { set: { state: 'sending', claimed_at: nowMs } }), {
      // queued, or claimed by a worker that stopped long ago: exactly one worker calls the network at a time
      if: and(cond.present, or(entry.queued, and(entry.sending, entry.claimedBefore))),
      names: { '#state': 'state' },
      values: { ':queued': 'queued', ':sending': 'sending', ':stale': staleBefore },
    }));
    return item ? fromItem(item) : undefined;
  }

  async settle(postId: string, changeId: string, platform: PlatformName, result: ChangeResult) {
    return fromItem(await this.changes.updateAndRead([postId, changeId], entryChange('networks', platform, { set: { state: 'done', result } }), {
      // only the claimer (state sending) settles
      if: and(cond.present, entry.sending), names: { '#state': 'state' }, values: { ':sending': 'sending' },
    }));
  }

  /** The post item's `networks.<platform>.deleted_at` (only on a post that has that network). */
  async markDeleted(postId: string, platform: PlatformName, at: string) {
    await conditional(this.posts.update([postId], entryChange('networks', platform, { set: { deleted_at: at } }), { if: and(cond.present, entry.present) }));
  }
}

function fromItem(item: Partial<ChangeItem> & PostChange): StoredChange {
  const { networks: map, ...change } = item;
  const byPlatform = map ?? {};
  return {
    change: change as PostChange,
    networks: change.platforms.filter((p) => byPlatform[p]).map((platform) => ({ platform, ...byPlatform[platform] })),
  };
}

import type { ChangeNetwork, ChangeResult, PostChange, PostChangeStore, StoredChange } from '../../ports/post-changes';
import type { PlatformName } from '../../domain/platforms';
import type { TableRef } from './client';
import { and, cond } from './conditions';
import { conditional, entity, orUndefined, type Bound } from './entity';
import { keys } from './keys';

/** A change item's key: under its post's partition (POST#<id>/CHG#<change id>), so one query reads every change of a post. */
const changeKey = (postId: string, changeId: string) => ({ pk: keys.post(postId).pk, sk: `CHG#${changeId}` });

type StoredNetwork = Omit<ChangeNetwork, 'platform'>;

/** A change as stored: each network's state and result in the map `networks.<platform>`. */
type ChangeItem = PostChange & { networks: Record<string, StoredNetwork> };

const changeEntity = entity({ key: changeKey, keyOf: (c: ChangeItem) => changeKey(c.post_id, c.id) });

/** The post item, as far as a change touches it: an entry of its `networks` map. */
const postItem = entity({ key: keys.post, keyOf: (p: { id: string }) => keys.post(p.id) });

/**
 * Deletes and edits of published posts: one item per change holding each network's state and result in the map
 * `networks.<platform>`; claim (queued, or a stale sending claim → sending) and settle (sending → done) are
 * conditional updates of that entry answering the item after them.
 */
export class DynamoPostChangeStore implements PostChangeStore {
  private readonly changes: Bound<typeof changeEntity>;
  private readonly posts: Bound<typeof postItem>;
  constructor(t: TableRef) {
    this.changes = changeEntity.on(t);
    this.posts = postItem.on(t);
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
    const item = await orUndefined(this.changes.updateAndRead([postId, changeId], {
      expression: 'SET #n.#p.#state = :sending, #n.#p.claimed_at = :now',
      names: { '#n': 'networks', '#p': platform, '#state': 'state' },
      values: { ':sending': 'sending', ':now': nowMs },
    }, {
      // queued, or claimed by a worker that stopped long ago: exactly one worker calls the network at a time
      if: and(cond.present, '#n.#p.#state = :queued OR (#n.#p.#state = :sending AND #n.#p.claimed_at < :stale)'),
      values: { ':queued': 'queued', ':stale': staleBefore },
    }));
    return item ? fromItem(item) : undefined;
  }

  async settle(postId: string, changeId: string, platform: PlatformName, result: ChangeResult) {
    return fromItem(await this.changes.updateAndRead([postId, changeId], {
      expression: 'SET #n.#p.#state = :done, #n.#p.#result = :result',
      names: { '#n': 'networks', '#p': platform, '#state': 'state', '#result': 'result' },
      values: { ':done': 'done', ':result': result },
    }, {
      // only the claimer (state sending) settles
      if: and(cond.present, '#n.#p.#state = :sending'), values: { ':sending': 'sending' },
    }));
  }

  /** The post item's `networks.<platform>.deleted_at` (only on a post that has that network). */
  async markDeleted(postId: string, platform: PlatformName, at: string) {
    await conditional(this.posts.update([postId], {
      expression: 'SET #n.#p.deleted_at = :at', names: { '#n': 'networks', '#p': platform }, values: { ':at': at },
    }, { if: and(cond.present, 'attribute_exists(#n.#p)') }));
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

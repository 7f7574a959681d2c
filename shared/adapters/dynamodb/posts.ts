import type { ClaimMatch, NetworkRecord, NetworkState, PostRecord, PostStore, ServiceEvent, SettleExtra, StoredPost } from '../../ports/publishing';
import type { NetworkResult } from '../../domain/post';
import type { PlatformName } from '../../domain/platforms';
import { queryAll, type TableRef } from './client';
import { and, cond, entry } from './conditions';
import { entity, entryChange, orUndefined, type Bound } from './entity';
import { keys } from './keys';

/** A network as stored in the post item's `networks` map (its post, account and platform are the item's). */
type StoredNetwork = Omit<NetworkRecord, 'post_id' | 'account_id' | 'platform'>;

/** The post item: the post and its networks by platform (no map on a post an older release stored: see below). */
type PostItem = PostRecord & { networks?: Record<string, StoredNetwork> };

/** The post item (POST#<id>/POST), listed on its account's index (newest first: post ids are ULIDs). */
export const postEntity = entity({
  key: keys.post,
  keyOf: (p: PostItem) => keys.post(p.id),
  indexOf: (p: PostItem) => keys.postByAccount(p.account_id, p.id),
});

/** A network item of a post an older release stored (POST#<id>/NET#<platform>), indexed by the network's own id once published. Read only. */
const legacyNetworkEntity = entity({
  key: keys.network,
  keyOf: (n: NetworkRecord) => keys.network(n.post_id, n.platform),
  indexOf: (n: NetworkRecord) => (n.result?.id ? keys.networkById(n.account_id, n.platform, n.result.id) : {}),
});

/** A post's marker on the reconciliation's due index (PUBDUE#<shard>, sorted by due time). */
const dueMarkerEntity = entity({
  key: keys.postDue,
  keyOf: (m: { post_id: string; due_at: number }) => keys.postDue(m.post_id, m.due_at),
});

/** A published network's own post id → our post (NETID#…): the network's id lives only in the key. */
const networkPointerEntity = entity({
  key: keys.networkPointer,
  keyOf: (p: { account_id: string; platform: PlatformName; network_post_id: string; post_id: string }) => keys.networkPointer(p.account_id, p.platform, p.network_post_id),
  keyOnly: ['account_id', 'platform', 'network_post_id'],
});

/**
 * Posts: one item per post (POST#<id>/POST) holding every network's state, result and outcome event in the map
 * `networks.<platform>`; a claim and a settle are conditional updates of that map entry (entryChange, with the
 * `entry` condition fragments) that answer the item as it is afterwards, so the worker never re-reads the post. A
 * published network's own id points to its post through a small pointer item (NETID#…), read by GET /api/post/status.
 *
 * Posts stored before the single item (one NET#<platform> item per network, the network-id index on gsi1) are
 * still read by get(), networksOf() and findByNetworkId(); they are not claimed or settled again (decisions.md).
 */
export class DynamoPostStore implements PostStore {
  private readonly posts: Bound<typeof postEntity>;
  private readonly legacyNetworks: Bound<typeof legacyNetworkEntity>;
  private readonly markers: Bound<typeof dueMarkerEntity>;
  private readonly pointers: Bound<typeof networkPointerEntity>;
  constructor(private readonly t: TableRef) {
    this.posts = postEntity.on(t);
    this.legacyNetworks = legacyNetworkEntity.on(t);
    this.markers = dueMarkerEntity.on(t);
    this.pointers = networkPointerEntity.on(t);
  }

  async create(post: PostRecord, networks: NetworkRecord[], reconcileAt?: number) {
    // the marker first: a post the sweep cannot find never exists (a marker without its post is dropped by the sweep)
    if (reconcileAt !== undefined) await this.markForReconcile(post.id, reconcileAt);
    const networksMap = Object.fromEntries(networks.map(({ post_id: _p, account_id: _a, platform, ...rest }) => [platform, rest]));
    // a new post id: never overwrite a post
    await this.posts.put({ ...post, networks: networksMap }, { if: cond.absent });
  }

  /** One strongly consistent query of the post's partition: the post item, and an older post's network items. */
  async get(postId: string): Promise<StoredPost | undefined> {
    const items = await queryAll(this.t, {
      ConsistentRead: true, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.post(postId).pk },
    });
    const postItem = items.find((i) => i.sk === keys.post(postId).sk);
    if (!postItem) return undefined;
    const legacy = items.filter((i) => String(i.sk).startsWith(keys.networkPrefix)).map((i) => this.legacyNetworks.fromItem(i));
    return storedPost(this.posts.fromItem(postItem), legacy);
  }

  async poll(postId: string, platforms: PlatformName[]) {
    const item = await this.posts.project([postId], {
      expression: platforms.map((_, i) => `networks.#p${i}.#state, networks.#p${i}.#result`).join(', '),
      names: { ...Object.fromEntries(platforms.map((p, i) => [`#p${i}`, p])), '#state': 'state', '#result': 'result' },
    });
    if (!item) return undefined;
    const networks = (item.networks ?? {}) as Record<string, Pick<NetworkRecord, 'state' | 'result'>>;
    return platforms.filter((p) => networks[p]).map((platform) => ({ platform, ...networks[platform] }));
  }

  /** Batched reads of the post items (Entity.getAll); an older post's network items in a second round. */
  async networksOf(posts: Array<Pick<PostRecord, 'id' | 'platforms'>>) {
    const out = new Map<string, NetworkRecord[]>(posts.map((p) => [p.id, []]));
    const legacyPosts = new Set<string>(posts.map((p) => p.id));
    for (const item of await this.posts.getAll(posts.map((p): [string] => [p.id]))) {
      if (!item.networks) continue;
      const found = storedPost(item, []);
      out.set(found.post.id, found.networks);
      legacyPosts.delete(found.post.id);
    }
    const legacyKeys = posts.filter((p) => legacyPosts.has(p.id)).flatMap((p) => p.platforms.map((platform): [string, string] => [p.id, platform]));
    for (const network of await this.legacyNetworks.getAll(legacyKeys)) out.get(network.post_id)?.push(network);
    for (const p of posts) out.get(p.id)!.sort((a, b) => p.platforms.indexOf(a.platform) - p.platforms.indexOf(b.platform));
    return out;
  }

  async list(accountId: string, limit: number, before?: string) {
    const range = { gsi1pk: keys.postByAccount(accountId, '').gsi1pk, ...(before ? { before } : {}) };
    const page = await this.posts.page(range, { descending: true, limit });
    return page.items.map(({ networks: _n, ...post }) => post);
  }

  async claim(postId: string, platform: PlatformName, from: NetworkState[], nowMs: number, match: ClaimMatch = {}) {
    const item = await orUndefined(this.posts.updateAndRead([postId], entryChange('networks', platform, { set: { state: 'sending', claimed_at: nowMs } }), {
      // the network is in a claimable state (and the message is the current one): exactly one worker sends
      if: and(
        cond.present, entry.stateIn(from.length),
        ...(match.deferrals !== undefined ? [entry.deferrals] : []),
        ...(match.resumes !== undefined ? [entry.resumes] : []),
        ...(match.dueBy !== undefined ? [entry.dueBy] : []),
      ),
      names: { '#state': 'state' },
      values: {
        ...Object.fromEntries(from.map((s, i) => [`:s${i}`, s])),
        ...(match.deferrals !== undefined ? { ':deferrals': match.deferrals } : {}),
        ...(match.resumes !== undefined ? { ':resumes': match.resumes } : {}),
        ...(match.dueBy !== undefined ? { ':dueBy': match.dueBy } : {}),
      },
    }));
    return item && storedPost(item, []);
  }

  async settle(postId: string, platform: PlatformName, state: 'done' | 'scheduled' | 'processing', result: NetworkResult, extra: SettleExtra = {}, event?: ServiceEvent, claimedAt?: number) {
    // the resume fields of a 'processing' network are written while it is processing and removed once it leaves
    const remove = state === 'processing' ? [] : (['resume_enc', 'resume_at'] as const).filter((k) => extra[k] === undefined);
    const settling = this.posts.updateAndRead([postId], entryChange('networks', platform, { set: { state, result, event, ...extra }, remove }), {
      // only the claimer (state sending; with claimedAt, that very claim, not one reconciliation took over) settles
      if: and(cond.present, entry.sending, ...(claimedAt !== undefined ? [entry.claimedAt] : [])),
      names: { '#state': 'state' },
      values: { ':sending': 'sending', ...(claimedAt !== undefined ? { ':claimed_at': claimedAt } : {}) },
    });
    const points = !!result.id && state !== 'scheduled';
    // with the outcome event (it names the account) the pointer is written beside the settle, not after it: the
    // network's id names this post whether or not this claim still holds (a take-over reads the same post back)
    const [item] = await Promise.all([settling, points && event ? this.point(event.account_id, platform, result.id!, postId) : undefined]);
    const after = storedPost(item, []);
    if (points && !event) await this.point(after.post.account_id, platform, result.id!, postId);
    return after;
  }

  async takeOver(postId: string, platform: PlatformName, seenClaimedAt: number, nowMs: number) {
    const item = await orUndefined(this.posts.updateAndRead([postId], entryChange('networks', platform, { set: { claimed_at: nowMs }, count: { reconciles: 1 } }), {
      // still the claim the caller judged stale: a live worker's settle, or another take-over, wins instead
      if: and(cond.present, entry.sending, entry.claimedAt),
      names: { '#state': 'state' },
      values: { ':sending': 'sending', ':claimed_at': seenClaimedAt },
    }));
    return item && storedPost(item, []);
  }

  /** One strongly consistent page of each shard of the due index, up to `limit` markers each. */
  async reconcileDue(beforeMs: number, limit: number) {
    const hi = keys.postDue('x', Math.min(beforeMs, 1e15 - 1)).sk.split('#')[0];
    const markers: Array<{ post_id: string; due_at: number }> = [];
    for (const pk of keys.postDueShards) markers.push(...(await this.markers.page({ pk, upTo: `${hi}#~` }, { limit })).items);
    return markers.sort((a, b) => a.due_at - b.due_at || a.post_id.localeCompare(b.post_id)).slice(0, limit);
  }

  async moveReconcile(postId: string, fromMs: number, toMs: number | undefined) {
    if (toMs !== undefined && keys.postDue(postId, toMs).sk === keys.postDue(postId, fromMs).sk) return;
    if (toMs !== undefined) await this.markForReconcile(postId, toMs);
    await this.markers.delete([postId, fromMs]);
  }

  /** Indexes a post on the reconciliation's due index (idempotent: the same key is the same marker). */
  async markForReconcile(postId: string, dueMs: number) {
    await this.markers.put({ post_id: postId, due_at: Math.floor(dueMs) });
  }

  /** The pointer from a network's own post id to our post (GET /api/post/status by the network's id). */
  private async point(accountId: string, platform: PlatformName, networkPostId: string, postId: string) {
    await this.pointers.put({ account_id: accountId, platform, network_post_id: networkPostId, post_id: postId });
  }

  async findByNetworkId(accountId: string, platform: PlatformName, networkPostId: string) {
    const pointer = await this.pointers.get(accountId, platform, networkPostId);
    if (pointer) return pointer.post_id;
    // posts stored before the pointer items: their network item is indexed on gsi1
    const legacy = await this.legacyNetworks.page({ gsi1pk: keys.networkById(accountId, platform, networkPostId).gsi1pk }, { limit: 1 });
    return legacy.items[0]?.post_id;
  }
}

/** The post item as a post and its networks in request order (`legacy`: the network items of an older post). */
function storedPost({ networks: map, ...post }: PostItem, legacy: NetworkRecord[]): StoredPost {
  const byPlatform = new Map<string, NetworkRecord>(map
    ? Object.entries(map).map(([platform, n]) => [platform, { post_id: post.id, account_id: post.account_id, platform: platform as PlatformName, ...n }])
    : legacy.map((n) => [n.platform, n]));
  return { post, networks: post.platforms.map((p) => byPlatform.get(p)).filter((n): n is NetworkRecord => !!n) };
}

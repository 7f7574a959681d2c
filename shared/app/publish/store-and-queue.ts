import type { Deps } from '../deps';
import type { Connection, NetworkRecord, PostRecord } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import type { Account, Brand } from '../../ports/store';
import type { ValidPost } from './request';
import type { Sendable } from './checks';
import type { PublishMessage, PublishOptions } from './publish-message';
import { countOutcome, outcomeEvent } from './events';
import { fanOutStored } from './durability';
import { failed } from '../network-results';
import { giveBack } from './reservations';
import { errorFields, log } from '../../log';
import { FORMAT_VERSION } from '../../ports/format-version';

/** The post as one item: who sent it, from where, its lock and caps, and the request as validated. */
export function postRecordOf(account: Account, brand: Brand, postId: string, valid: ValidPost, opts: PublishOptions, taken: { lock?: string; capKeys: string[] }, startedMs: number): PostRecord {
  const { lock, capKeys } = taken;
  return {
    id: postId, account_id: account.id, brand_id: brand.id, brand_name: brand.name, source: opts.source,
    ...(opts.schedule_id ? { schedule_id: opts.schedule_id } : {}),
    idempotency_key: valid.idempotency_key ?? null, lock, platforms: valid.platforms, payload: valid.payload,
    created_at: new Date(startedMs).toISOString(),
    ...(opts.actor ? { actor: opts.actor } : {}), ...(capKeys.length ? { cap_key: capKeys[0], ...(capKeys.length > 1 ? { cap_keys: capKeys.slice(1) } : {}) } : {}), ...(opts.approval ? { approval_id: opts.approval.id } : {}),
  };
}

/**
 * Stores the post with one state per network: queued for those sent, final for those refused before sending (with
 * their post.failed event, none for a held network). The post (its events stored with it: the outbox) is written
 * after its marker on the reconciliation's due index (written by the caller: markAndSpend); then the deliveries of
 * the events (a crash in between: the sweep writes them).
 */
export async function storePost(
  deps: Pick<Deps, 'clock' | 'fanOut' | 'posts' | 'settings'>, post: PostRecord, sendable: Sendable[], results: Map<PlatformName, NetworkResult>,
  connectionOf: (p: PlatformName) => Connection | undefined, xCredits: number | undefined,
): Promise<NetworkRecord[]> {
  const networks: NetworkRecord[] = post.platforms.map((platform) => {
    const s = sendable.find((x) => x.platform === platform);
    if (s) return { post_id: post.id, account_id: post.account_id, platform, state: 'queued', deferrals: 0, reserved: true, ...(platform === 'x' && xCredits ? { x_credits: xCredits } : {}) };
    const result = results.get(platform)!;
    return { post_id: post.id, account_id: post.account_id, platform, state: 'done', deferrals: 0, reserved: false, result, ...(result.held ? {} : { event: outcomeEvent(deps, post, connectionOf(platform), result) }) };
  });
  await deps.posts.create(post, networks);
  for (const n of networks) if (n.event) countOutcome(n.result!);
  await fanOutStored(deps, networks.flatMap((n) => (n.event ? [n.event] : [])));
  return networks;
}

/**
 * Queues one message per network to send, carrying its connection (and, when the caller waits, the time its answer is
 * due). If the queue refuses them, those networks fail now; answers `networks` with those settled.
 */
export async function queueSends(
  deps: Pick<Deps, 'clock' | 'counters' | 'fanOut' | 'posts' | 'queue' | 'settings'>, post: PostRecord, networks: NetworkRecord[], sendable: Sendable[],
  connectionOf: (p: PlatformName) => Connection | undefined, opts: PublishOptions, respondBy: number,
): Promise<NetworkRecord[]> {
  try {
    await deps.queue.sendAll(deps.settings.publishQueueUrl, sendable.map((s) => ({
      id: s.platform, group: post.account_id,
      body: { v: FORMAT_VERSION, post_id: post.id, platform: s.platform, deferral: 0, ...(opts.wait ? { respond_by: respondBy } : {}), connection: connectionOf(s.platform) } satisfies PublishMessage,
    })));
    return networks;
  } catch (err) {
    log.error('publish messages could not be queued; those networks fail', { post_id: post.id, platforms: sendable.map((s) => s.platform), ...errorFields(err) });
    const settled = await failUnsent(deps, post, sendable.map((s) => s.platform), connectionOf);
    return networks.map((n) => settled.find((x) => x.platform === n.platform) ?? n);
  }
}

/**
 * The queue refused the messages: those networks fail (internal_error) with their post.failed event and give back
 * their reservations. Answers the networks it settled.
 */
async function failUnsent(deps: Pick<Deps, 'clock' | 'counters' | 'fanOut' | 'posts'>, post: PostRecord, platforms: PlatformName[], connectionOf: (p: PlatformName) => Connection | undefined): Promise<NetworkRecord[]> {
  const settled: NetworkRecord[] = [];
  for (const platform of platforms) {
    const claimed = await deps.posts.claim(post.id, platform, ['queued'], deps.clock.now());
    const net = claimed?.networks.find((n) => n.platform === platform);
    if (!net) continue;
    const result = failed(platform, 'internal_error', 'The post could not be queued for sending');
    const event = outcomeEvent(deps, post, connectionOf(platform), result);
    const after = await deps.posts.settle(post.id, platform, 'done', result, { reserved: false }, event, net.claimed_at);
    countOutcome(result);
    await fanOutStored(deps, [event]);
    await giveBack(deps, post, [net]);
    settled.push(after.networks.find((n) => n.platform === platform)!);
  }
  return settled;
}

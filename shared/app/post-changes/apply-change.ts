import type { Deps } from '../deps';
import type { Connection, PostRecord } from '../../ports/publishing';
import type { ChangeOutcome, NetworkAdapter, PublishedRef } from '../../ports/networks';
import type { ChangeResult, PostChange, StoredChange } from '../../ports/post-changes';
import { newId } from '../../domain/ids';
import { contentFor } from '../publish/content';
import { freshCredentials, signInLost, type FreshCredentialsDeps } from '../oauth/credentials';
import { networkContext } from '../network-context';
import { labelOf } from '../../domain/event-refs';
import { log } from '../../log';
import type { PostChangeMessage } from './change-message';
import { changeDone, changeFailed, changeFromFailure } from './change-results';
import { editedPayload, publishedRef } from './request-change';

/** A worker's claim on a network of a change older than this is taken again (a delete or an edit repeats safely). */
export const STALE_CHANGE_CLAIM_MS = 5 * 60_000;
const TRANSIENT_RETRIES = 2;

/** What running one network of a change reaches: the post, the change, fresh credentials, the adapter, events, the lock. */
export type ApplyChangeDeps = FreshCredentialsDeps & Pick<Deps, 'networks' | 'postChanges' | 'posts' | 'resultSignal'>;

/**
 * Runs one network of a delete or an edit (the publish worker's use case for a PostChangeMessage).
 * 1. Claim the network (queued → sending, one conditional write; a stale claim is taken again): a message for a
 *    network that is done or in flight elsewhere is dropped.
 * 2. Call the adapter's delete / edit with fresh credentials (OAuth tokens renewed, once more after a 401); retry
 *    transient failures twice.
 * 3. Settle the result; a success records post.deleted / post.edited on the post (its events, webhooks); a lost
 *    sign-in marks the connection. The last network of the change releases the post's change lock.
 */
export async function applyChange(deps: ApplyChangeDeps, msg: PostChangeMessage): Promise<void> {
  const now = deps.clock.now();
  const claimed = await deps.postChanges.claim(msg.post_id, msg.change_id, msg.platform, now, now - STALE_CHANGE_CLAIM_MS);
  if (!claimed) return;
  const { change } = claimed;
  const found = await deps.posts.get(change.post_id);
  const ref = publishedRef(found?.networks.find((n) => n.platform === msg.platform));
  const connection = found ? await deps.connections.get(found.post.account_id, found.post.brand_id, msg.platform) : undefined;
  const adapter = deps.networks[msg.platform];
  let result: ChangeResult;
  if (!found || !ref) result = changeFailed(msg.platform, 'not_published', `Nothing of this post is published on ${msg.platform}`);
  else if (!connection) result = changeFailed(msg.platform, 'not_connected', `${msg.platform} was disconnected before the ${change.kind} was sent`);
  else if (!adapter) result = changeFailed(msg.platform, 'platform_unavailable', `${msg.platform} cannot be used right now`);
  else {
    const outcome = await run(deps, found.post, change, connection, adapter, ref);
    if (!outcome.ok && outcome.kind === 'reauth') await signInLost(deps, connection, outcome.error, found.post);
    result = outcome.ok ? changeDone(msg.platform, change.kind, outcome.url ?? ref.url) : changeFromFailure(msg.platform, outcome);
  }
  // the event and the deleted mark are written before the result, so whoever sees the result sees them too
  let queueDeliveries: (() => Promise<void>) | undefined;
  if (result.ok && found) {
    const event = changeEvent(deps, found.post, change, connection, result);
    queueDeliveries = await deps.fanOut.prepare(event);
    await deps.events.record(event);
    if (change.kind === 'delete') await deps.postChanges.markDeleted(change.post_id, msg.platform, new Date(deps.clock.now()).toISOString());
  }
  const after = await deps.postChanges.settle(change.post_id, change.id, msg.platform, result);
  await queueDeliveries?.();
  log.info('post change result', { post_id: change.post_id, change_id: change.id, kind: change.kind, platform: msg.platform, ok: result.ok, code: result.code });
  deps.resultSignal.ring(change.post_id);
  await releaseWhenDone(deps, after);
}

async function releaseWhenDone(deps: Pick<Deps, 'locks'>, after: StoredChange) {
  if (after.networks.every((n) => n.state === 'done')) await deps.locks.release(after.change.lock, after.change.id);
}

/** The adapter's delete or edit with fresh credentials; a 401 on renewable tokens renews them once and tries again. */
async function run(deps: ApplyChangeDeps, post: PostRecord, change: PostChange, connection: Connection, adapter: NetworkAdapter, ref: PublishedRef): Promise<ChangeOutcome> {
  const call = (credentials: Record<string, string>): Promise<ChangeOutcome> => {
    const ctx = networkContext(deps, credentials);
    if (change.kind === 'delete') return adapter.delete ? adapter.delete(ref, ctx) : Promise.resolve(unsupported(change));
    return adapter.edit ? adapter.edit(ref, contentFor(editedPayload(post.payload, change.edit ?? {}), adapter.name, post.id), ctx) : Promise.resolve(unsupported(change));
  };
  const withRetries = async (credentials: Record<string, string>) => {
    for (let attempt = 0; ; attempt++) {
      const outcome = await call(credentials);
      if (outcome.ok || outcome.kind !== 'transient' || attempt >= TRANSIENT_RETRIES) return outcome;
      await deps.clock.sleep(500 * 2 ** attempt);
    }
  };
  const fresh = await freshCredentials(deps, connection, { post });
  if (!fresh.ok) return fresh.failure;
  const outcome = await withRetries(fresh.credentials);
  if (outcome.ok || outcome.kind !== 'reauth' || !connection.tokens_enc) return outcome;
  const renewed = await freshCredentials(deps, connection, { force: true, rejected: fresh.credentials.access_token, post });
  return renewed.ok ? withRetries(renewed.credentials) : renewed.failure;
}

const unsupported = (change: PostChange): ChangeOutcome => ({ ok: false, kind: 'rejected', code: 'rejected', error: `This network has no API to ${change.kind} a post` });

/** post.deleted / post.edited of one network (webhooks, the post's events), with the names of the post events. */
export function changeEvent(deps: Pick<Deps, 'clock'>, post: PostRecord, change: PostChange, connection: Connection | undefined, result: ChangeResult) {
  const now = deps.clock.now();
  const edited = change.kind === 'edit' ? contentFor(editedPayload(post.payload, change.edit ?? {}), result.platform, post.id) : undefined;
  return {
    id: newId('evt', now),
    type: change.kind === 'delete' ? 'post.deleted' as const : 'post.edited' as const,
    created_at: new Date(now).toISOString(),
    account_id: post.account_id,
    data: {
      platform: result.platform, status: result.status, post_id: post.id, change_id: change.id, url: result.url ?? null,
      ...(edited ? { text: edited.text, ...(edited.title !== undefined ? { title: edited.title } : {}) } : {}),
      account: { platform: result.platform, handle: connection?.handle ?? null, brand_id: post.brand_id, brand: post.brand_name },
      brand_id: post.brand_id, source: post.source, idempotency_key: post.idempotency_key,
      label: labelOf(post.brand_name, connection?.handle ?? result.platform, result.platform),
    },
  };
}

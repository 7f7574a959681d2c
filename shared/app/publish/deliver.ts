import type { Deps } from '../deps';
import type { Connection, NetworkRecord, PostRecord } from '../../ports/publishing';
import type { NetworkResult } from '../../domain/post';
import type { Failure, NetworkContext, PublishOutcome } from '../../networks/types';
import { RateLimitedError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { usageKeys } from '../../domain/usage';
import { contentFor } from './content';
import { recordOutcome, recordReauth } from './events';
import { failed, fromFailure, published } from './results';
import { releaseLockIfAllFailed } from './lock';
import type { PublishMessage } from './create-post';

/** A claim older than this belongs to a worker that died mid-send. */
export const STALE_CLAIM_MS = 10 * 60_000;
/** Rate-limit deferrals through the scheduler before a network is answered rate_limited. */
export const MAX_DEFERRALS = 3;
const TRANSIENT_RETRIES = 2;
/** How long a worker may wait inside one invocation when nobody waits for the answer. */
const OWN_WAIT_BUDGET_MS = 60_000;

/**
 * Sends one network of one post, at most once (the worker's use case).
 * 1. Load the post; a network already done, or in flight elsewhere, is left alone (SQS redelivery).
 * 2. Claim it with a conditional write (queued → sending, or scheduled → sending for the due deferral).
 * 3. Publish through the adapter; retry transient failures and serve network waits that fit the time left.
 * 4. A longer wait is deferred through the scheduler (rate_limited_deferred), up to MAX_DEFERRALS times.
 * 5. Settle the result; give back the post reservation on failure; record the event(s); mark a connection whose
 *    sign-in expired; release the duplicate lock when every network failed.
 */
export async function deliver(deps: Deps, msg: PublishMessage): Promise<void> {
  const found = await deps.posts.get(msg.post_id);
  const net = found?.networks.find((n) => n.platform === msg.platform);
  if (!found || !net || net.state === 'done') return;
  const { post } = found;
  const now = deps.clock.now();
  if (net.state === 'sending') {
    if (net.claimed_at !== undefined && now - net.claimed_at > STALE_CLAIM_MS) await closeStale(deps, post, net);
    return;
  }
  const from = msg.deferral > 0 ? ['scheduled' as const] : ['queued' as const];
  if (msg.deferral !== net.deferrals || !(await deps.posts.claim(post.id, net.platform, from, now))) return;

  const connection = await deps.connections.get(post.account_id, post.brand_id, net.platform);
  const adapter = deps.networks[net.platform];
  let result: NetworkResult;
  let outcome: PublishOutcome | undefined;
  if (!connection || !adapter) {
    result = failed(net.platform, 'not_connected', `${net.platform} was disconnected before the post was sent`);
  } else {
    const credentials = JSON.parse(await deps.cipher.decrypt(connection.credentials_enc)) as Record<string, string>;
    const waitLimit = msg.respond_by ?? now + OWN_WAIT_BUDGET_MS;
    outcome = await sendWithRetries(deps, adapter.publish.bind(adapter), contentFor(post.payload, net.platform, post.id), credentials, waitLimit);
    if (!outcome.ok && outcome.kind === 'rate_limited' && net.deferrals < MAX_DEFERRALS) {
      await defer(deps, post, net, outcome.retry_after);
      return;
    }
    result = outcome.ok ? published(net.platform, outcome) : fromFailure(net.platform, outcome);
  }

  await deps.posts.settle(post.id, net.platform, 'done', result, { reserved: result.ok });
  if (!result.ok) await deps.counters.release(usageKeys.posts(post.account_id, Date.parse(post.created_at)), 1);
  await recordOutcome(deps, post, connection, result);
  if (connection && outcome && !outcome.ok && outcome.kind === 'reauth') {
    await deps.connections.setStatus(post.account_id, post.brand_id, net.platform, 'reauth_required');
    await recordReauth(deps, post, connection, outcome.error);
  }
  const after = await deps.posts.get(post.id);
  if (after) await releaseLockIfAllFailed(deps, after.post, after.networks);
}

type Publish = (content: ReturnType<typeof contentFor>, ctx: NetworkContext) => Promise<PublishOutcome>;

async function sendWithRetries(deps: Deps, publish: Publish, content: ReturnType<typeof contentFor>, credentials: Record<string, string>, waitLimit: number): Promise<PublishOutcome> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await publish(content, networkContext(deps, credentials));
    if (outcome.ok) return outcome;
    const left = waitLimit - deps.clock.now();
    if (outcome.kind === 'transient' && attempt < TRANSIENT_RETRIES && left > 2_000) {
      await sleep(Math.min(500 * 2 ** attempt, left - 1_000));
      continue;
    }
    if (outcome.kind === 'rate_limited' && outcome.retry_after * 1000 < left - 1_000 && attempt < TRANSIENT_RETRIES + 3) {
      await sleep(outcome.retry_after * 1000);
      continue;
    }
    return outcome;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** The context an adapter runs in: deadline, abortable fetch, capped media download, shared pacing. */
export function networkContext(deps: Deps, credentials: Record<string, string>): NetworkContext {
  const deadline = deps.clock.now() + deps.settings.networkTimeoutMs;
  const signal = AbortSignal.timeout(deps.settings.networkTimeoutMs);
  return {
    credentials, deadline, signal,
    fetch: globalThis.fetch,
    fetchMedia: (url) => deps.media.download(url, signal),
    async pace(key, spacingMs) {
      const now = deps.clock.now();
      const slot = await deps.pace.reserve(key, spacingMs, now);
      const wait = slot - now;
      if (now + wait > deadline - 1_000) throw new RateLimitedError(wait / 1000, `${key} is busy: the next free slot is in ${Math.ceil(wait / 1000)} s`);
      return wait;
    },
    now: () => deps.clock.now(),
    sleep,
  };
}

/** Queues the network for right after the network's wait (spec §3: rate_limited_deferred). */
async function defer(deps: Deps, post: PostRecord, net: NetworkRecord, retryAfter: number) {
  const now = deps.clock.now();
  const deferral = net.deferrals + 1;
  const runAt = new Date(now + Math.max(1, retryAfter) * 1000);
  const scheduleId = newId('sch', now);
  await deps.scheduler.scheduleOnce({
    name: `d-${post.id}-${net.platform}-${deferral}`, runAt,
    input: { kind: 'deferred', post_id: post.id, platform: net.platform, deferral, schedule_id: scheduleId },
  });
  await deps.posts.settle(post.id, net.platform, 'scheduled', {
    platform: net.platform, ok: true, status: 'scheduled', code: 'rate_limited_deferred', deferred: true,
    schedule_id: scheduleId, run_at: runAt.toISOString(), retry_after: Math.ceil(retryAfter),
  }, { deferrals: deferral });
}

/** A worker died after claiming: the post may or may not exist on the network, so it is closed as unknown, never resent. */
async function closeStale(deps: Deps, post: PostRecord, net: NetworkRecord) {
  const result = failed(net.platform, 'timed_out', 'The sending worker stopped before the network answered; the post may or may not have been published', { status: 'unknown' });
  await deps.posts.settle(post.id, net.platform, 'done', result, { reserved: false });
  await deps.counters.release(usageKeys.posts(post.account_id, Date.parse(post.created_at)), 1);
  await recordOutcome(deps, post, await deps.connections.get(post.account_id, post.brand_id, net.platform), result);
}

export type { Failure, Connection };

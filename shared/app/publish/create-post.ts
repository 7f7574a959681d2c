import type { Deps } from '../deps';
import { FORMAT_VERSION } from '../../ports/format-version';
import type { Account } from '../../ports/store';
import type { Connection, NetworkRecord, PostRecord } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import { newId } from '../../domain/ids';
import { PLANS } from '../../domain/plans';
import { nextMonthStart, usageKeys } from '../../domain/usage';
import { chooseBrand } from './brand';
import type { Sendable } from './checks';
import { checkMedia, checkNetworks, duplicatePost, DUPLICATE_TTL_SECONDS, IDEMPOTENCY_TTL_SECONDS, lockKeyOf, postsUsedUp } from './preflight';
import { countOutcome, outcomeEvent } from './events';
import { fanOutStored, reconcileAfterMs } from './durability';
import { failed } from './results';
import type { ValidPost } from './request';
import { releaseLockIfAllFailed } from './lock';
import { reserveXCredits } from './x-credits';
import { checkActorCap, checkBrandAllowed, platformRefusal, reserveActorCap } from '../guardrails/enforce';
import { holdForApproval, holdReasonFrom, type HoldForApprovalDeps } from '../approvals/hold';
import type { PublishMessage, PublishOptions } from './publish-message';
import { giveBack, reservePosts } from './reservations';
import { appendLogContext, errorFields, log } from '../../log';

export type { PublishMessage, PublishOptions };

export { IDEMPOTENCY_TTL_SECONDS, DUPLICATE_TTL_SECONDS };
/** How often the API reads the networks' states while it waits for the workers (one small read each time). */
export const RESULT_POLL_MS = 20;
/** The same reads where settles ring (the local runtime): a backstop, since a ring starts the next read at once. */
export const BACKSTOP_POLL_MS = 200;

/** What publishing a post reaches: the account's context, the checks, caps and duplicate lock, the post, its queue, the approval hold. */
export type PublishPostDeps = HoldForApprovalDeps
  & Pick<Deps, 'cipher' | 'clock' | 'counters' | 'fanOut' | 'locks' | 'media' | 'networks' | 'posts' | 'publishContext' | 'queue' | 'resultSignal' | 'settings'>;

/**
 * Publishes one post to its networks (spec §2.2, §3; decisions.md "Publishing").
 * 1. Read the account's brands, connections, guardrails and approval rules (one query), resolve the brand (409
 *    ambiguous_brand, 404 brand_not_found).
 * 2. Hold networks beyond the plan's networks per post (request order); per other network: available, connected,
 *    content and media fit, adapter limits.
 * 3. Check every media link once (media_unreachable), with the kinds the links really have.
 * 4. Take the duplicate lock (idempotency key 24 h, else identical request 2 min): 409 duplicate_post.
 * 5. Reserve the month's posts for every network in one counter update (limit_reached for those that do not fit).
 * 6. Store the post as one item (with the post.failed events of networks refused before sending, handed to
 *    webhooks), queue one message per network carrying its connection.
 * 7. Wait for the workers until the deadline, reading the networks' states every RESULT_POLL_MS; networks still
 *    running answer unknown / timed_out.
 */
export async function publishPost(deps: PublishPostDeps, account: Account, valid: ValidPost, opts: PublishOptions) {
  const started = deps.clock.now();
  const plan = PLANS[account.plan];
  const postId = opts.approval?.post_id ?? newId('pst', started);
  appendLogContext({ post_id: postId });
  const context = opts.context ?? await deps.publishContext.load(account.id, opts.actor);
  const { brand, connections } = chooseBrand(context, valid.platforms, valid.brand_id);
  const guard = opts.actor ? context.guardrails : undefined;
  checkBrandAllowed(guard, brand.id);

  const refusedByGuard = valid.platforms.map((p) => platformRefusal(guard, p)).filter((r): r is NetworkResult => !!r);
  const allowed = valid.platforms.filter((p) => !refusedByGuard.some((r) => r.platform === p));
  const holdReason = opts.approval ? undefined : holdReasonFrom(context.approvalRules, account, brand.id, allowed, guard);

  const checked = await checkNetworks(deps, { account, valid, connections, guard, postId });
  const results = checked.results;
  let sendable = checked.sendable;
  sendable = await checkMedia(deps, sendable, results);

  if (holdReason && sendable.length) {
    // held: checked now as a direct post would be (networks refused up front fail in the answer; a cap or the
    // plan's month that could never take the post refuses it), but nothing is sent or spent; the idempotency lock is
    // kept until the decision
    await checkActorCap(deps, account, opts.actor, guard, sendable.length, started);
    const room = await postsLeft(deps, account, started);
    for (const s of sendable.slice(room)) results.set(s.platform, postsUsedUp(deps, account, s.platform));
    sendable = sendable.slice(0, room);
  }
  if (holdReason && sendable.length) {
    const lock = lockKeyOf(account, valid, brand.id);
    await takeLock(deps, lock, valid, postId, started);
    const refused = valid.platforms.flatMap((p) => { const r = results.get(p); return r ? [r] : []; });
    return holdForApproval(deps, { account, brand, postId, valid, platforms: sendable.map((s) => s.platform), reason: holdReason, opts, lock: lock.key, refused, now: started });
  }

  let lock: string | undefined;
  if (sendable.length) {
    const l = lockKeyOf(account, valid, brand.id);
    await takeLock(deps, l, valid, postId, started);
    lock = l.key;
  }

  let capKeys: string[];
  try {
    capKeys = await reserveActorCap(deps, account, opts.actor, guard, sendable.length, started);
  } catch (err) {
    if (lock) await deps.locks.release(lock, postId);
    throw err;
  }

  const postsKey = usageKeys.posts(account.id, started);
  const monthEnd = Math.floor(nextMonthStart(started).getTime() / 1000) + 86_400 * 40;
  const granted = await reservePosts(deps, postsKey, sendable.length, plan.posts_per_month, monthEnd);
  const reserved: Sendable[] = [];
  let xCredits: number | undefined;
  for (const [i, s] of sendable.entries()) {
    if (i >= granted) {
      results.set(s.platform, postsUsedUp(deps, account, s.platform));
      continue;
    }
    if (s.platform === 'x') {
      // X credits, priced before sending and reserved with a conditional write; given back if the network fails
      const x = await reserveXCredits(deps, account, s.content, started);
      if (!x.ok) {
        await deps.counters.release(postsKey, 1);
        results.set(s.platform, x.result);
        continue;
      }
      xCredits = x.credits;
    }
    reserved.push(s);
  }
  if (reserved.length < sendable.length) for (const k of capKeys) await deps.counters.release(k, sendable.length - reserved.length);
  sendable = reserved;

  const post: PostRecord = {
    id: postId, account_id: account.id, brand_id: brand.id, brand_name: brand.name, source: opts.source,
    ...(opts.schedule_id ? { schedule_id: opts.schedule_id } : {}),
    idempotency_key: valid.idempotency_key ?? null, lock, platforms: valid.platforms, payload: valid.payload,
    created_at: new Date(started).toISOString(),
    ...(opts.actor ? { actor: opts.actor } : {}), ...(capKeys.length ? { cap_key: capKeys[0], ...(capKeys.length > 1 ? { cap_keys: capKeys.slice(1) } : {}) } : {}), ...(opts.approval ? { approval_id: opts.approval.id } : {}),
  };
  const connectionOf = (platform: PlatformName) => connections.find((c) => c.platform === platform);
  const networks: NetworkRecord[] = valid.platforms.map((platform) => {
    const s = sendable.find((x) => x.platform === platform);
    if (s) return { post_id: postId, account_id: account.id, platform, state: 'queued', deferrals: 0, reserved: true, ...(platform === 'x' && xCredits ? { x_credits: xCredits } : {}) };
    const result = results.get(platform)!;
    // refused before sending: final now, with its post.failed event (a held network records none)
    return { post_id: postId, account_id: account.id, platform, state: 'done', deferrals: 0, reserved: false, result, ...(result.held ? {} : { event: outcomeEvent(deps, post, connectionOf(platform), result) }) };
  });
  // the post (its events stored with it: the outbox) after its marker on the reconciliation's due index; then the
  // deliveries of the events (a crash in between: the sweep writes them)
  await deps.posts.create(post, networks, started + reconcileAfterMs(deps.settings));
  for (const n of networks) if (n.event) countOutcome(n.result!);
  await fanOutStored(deps, networks.flatMap((n) => (n.event ? [n.event] : [])));

  const respondBy = started + deps.settings.publishWaitMs;
  try {
    await deps.queue.sendAll(deps.settings.publishQueueUrl, sendable.map((s) => ({
      id: s.platform, group: post.account_id,
      body: { v: FORMAT_VERSION, post_id: postId, platform: s.platform, deferral: 0, ...(opts.wait ? { respond_by: respondBy } : {}), connection: connectionOf(s.platform) } satisfies PublishMessage,
    })));
  } catch (err) {
    log.error('publish messages could not be queued; those networks fail', { post_id: postId, platforms: sendable.map((s) => s.platform), ...errorFields(err) });
    const settled = await failUnsent(deps, post, sendable.map((s) => s.platform), connectionOf);
    for (const n of settled) networks[networks.findIndex((x) => x.platform === n.platform)] = n;
  }

  const final = opts.wait && sendable.length ? await waitForResults(deps, postId, networks, deps.clock.now() + deps.settings.publishWaitMs) : networks;
  const ordered = valid.platforms.map((platform) => {
    const n = final.find((x) => x.platform === platform)!;
    // a 'processing' network (async media) answers ok with status processing; the worker finishes it later
    if (n.result && (n.state === 'done' || n.state === 'scheduled' || n.state === 'processing')) return n.result;
    return failed(platform, 'timed_out', 'No answer from the network before the reply was due; the outcome will arrive by webhook', { status: 'unknown' });
  });
  await releaseLockIfAllFailed(deps, post, final);
  return { post_id: postId, brand_id: brand.id, results: ordered };
}

/** The plan's monthly posts a held post can still count on now (as reservePosts would grant them). */
async function postsLeft(deps: Pick<Deps, 'counters'>, account: Account, nowMs: number): Promise<number> {
  return Math.max(0, PLANS[account.plan].posts_per_month - await deps.counters.get(usageKeys.posts(account.id, nowMs)));
}

/** Takes the lock for the post (409 duplicate_post when another post holds it; an approved post holds its own). */
async function takeLock(deps: Pick<Deps, 'locks'>, lock: { key: string; ttl: number }, valid: ValidPost, postId: string, now: number) {
  const got = await deps.locks.acquire(lock.key, postId, lock.ttl, now);
  if (got.ok || got.heldBy === postId) return;
  throw duplicatePost(valid, got.heldBy);
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

/**
 * Reads the networks' states every RESULT_POLL_MS (one small projected read each) until none is queued or sending,
 * or `until` (ms, deps.clock) has come; answers the networks with the states and results read last. A ring of
 * `deps.resultSignal` (a worker settled a network of this post) ends a wait early: locally the worker shares the
 * process and rings, and the reads between rings are a backstop every BACKSTOP_POLL_MS; in AWS nothing rings and
 * the same loop polls every RESULT_POLL_MS. It listens before each read, so a ring during a read wakes the next wait.
 */
async function waitForResults(deps: Pick<Deps, 'clock' | 'posts' | 'resultSignal'>, postId: string, networks: NetworkRecord[], until: number): Promise<NetworkRecord[]> {
  const waiting = networks.filter((n) => n.state === 'queued').map((n) => n.platform);
  let current = networks;
  if (waiting.length === 0) return current;
  const interval = deps.resultSignal.rings ? BACKSTOP_POLL_MS : RESULT_POLL_MS;
  let listener = deps.resultSignal.listen(postId);
  try {
    for (;;) {
      await Promise.race([deps.clock.sleep(Math.min(interval, Math.max(0, until - deps.clock.now()))), listener.rung]);
      listener.stop();
      listener = deps.resultSignal.listen(postId);
      const polled = (await deps.posts.poll(postId, waiting)) ?? [];
      current = current.map((n) => {
        const p = polled.find((x) => x.platform === n.platform);
        return p ? { ...n, state: p.state, ...(p.result ? { result: p.result } : {}) } : n;
      });
      const pending = current.some((n) => n.state === 'queued' || n.state === 'sending');
      if (!pending || deps.clock.now() >= until) return current;
    }
  } finally {
    listener.stop();
  }
}

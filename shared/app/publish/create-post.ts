import type { Deps } from '../deps';
import type { Account, Brand } from '../../ports/store';
import type { Connection } from '../../ports/publishing';
import type { ApprovalRecord } from '../../ports/approvals';
import type { Guardrails } from '../../ports/guardrails';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import { newId } from '../../domain/ids';
import { PLANS } from '../../domain/plans';
import { nextMonthStart, usageKeys } from '../../domain/usage';
import { chooseBrand } from './brand';
import type { Sendable } from './checks';
import { checkMedia, checkNetworks, postsUsedUp } from './preflight';
import { failed } from '../network-results';
import type { ValidPost } from './request';
import { publishLockOf, releaseLock, releaseLockIfAllFailed, takePublishLock } from '../idempotency';
import { reserveXCredits } from './x-credits';
import { checkActorCap, checkBrandAllowed, platformRefusal, reserveActorCap } from '../guardrails/enforce';
import { holdForApproval, holdReasonFrom, type HoldForApprovalDeps } from '../approval-hold';
import type { PublishOptions } from './publish-message';
import { giveBack, reservePosts } from './reservations';
import { reconcileAfterMs } from './durability';
import { postRecordOf, queueSends, storePost } from './store-and-queue';
import { waitForResults } from './wait-for-results';
import { appendLogContext, errorFields, log } from '../../log';

/** What publishing a post reaches: the account's context, the checks, caps and duplicate lock, the post, its queue, the approval hold. */
export type PublishPostDeps = HoldForApprovalDeps & PublishApprovedDeps;
/** POST /api/post's answer: one result per network, or the post held for approval. */
export type PublishAnswer = Awaited<ReturnType<typeof holdForApproval>> | { post_id: string; brand_id: string; results: NetworkResult[] };
/** What publishing an approved post reaches: the same without the approval hold (it is never held again). */
export type PublishApprovedDeps = Pick<Deps, 'cipher' | 'clock' | 'counters' | 'fanOut' | 'locks' | 'media' | 'posts' | 'publishContext' | 'queue' | 'resultSignal' | 'settings' | 'networkLimits'>;

/**
 * Publishes one post to its networks (spec §2.2, §3; decisions.md "Publishing").
 * 1. Read the account's brands, connections, guardrails and approval rules (one query), resolve the brand (409
 *    ambiguous_brand, 404 brand_not_found); check the networks and media (checkPost).
 * 2. A post an approval rule holds is checked as a direct post would be and held (holdChecked): nothing is sent.
 * 3. Take the duplicate lock (shared/app/idempotency.ts: 409 duplicate_post) and the actor's monthly cap.
 * 4. Reserve the month's posts for every network in one counter update, and X credits (reserveSends).
 * 5. Store the post as one item (with the post.failed events of networks refused before sending, handed to
 *    webhooks), queue one message per network carrying its connection (store-and-queue.ts).
 * 6. Wait for the workers until the deadline (wait-for-results.ts); networks still running answer unknown /
 *    timed_out. A post whose every network failed gives its lock back.
 */
export async function publishPost(deps: PublishPostDeps, account: Account, valid: ValidPost, opts: PublishOptions): Promise<PublishAnswer> {
  return publishOrHold(deps, account, valid, opts, (checked, postId, started) => holdChecked(deps, account, valid, opts, postId, checked, started));
}

/** Publishes a post its approver approved (`opts.approval`): as publishPost, and never held again, so no hold's deps. */
export async function publishApprovedPost(deps: PublishApprovedDeps, account: Account, valid: ValidPost, opts: PublishOptions & Required<Pick<PublishOptions, 'approval'>>): Promise<PublishAnswer> {
  return publishOrHold(deps, account, valid, opts, undefined);
}

type Hold = (checked: CheckedPost, postId: string, started: number) => Promise<PublishAnswer>;

async function publishOrHold(deps: PublishApprovedDeps, account: Account, valid: ValidPost, opts: PublishOptions, hold: Hold | undefined): Promise<PublishAnswer> {
  const started = deps.clock.now();
  const postId = opts.approval?.post_id ?? newId('pst', started);
  appendLogContext({ post_id: postId });
  let checked = await checkPost(deps, account, valid, opts, postId);
  // an approved post has no hold reason (checkPost)
  if (hold && checked.holdReason && checked.sendable.length) {
    checked = await fitForHold(deps, account, opts, checked, started);
    // a post that the plan's month can no longer take at all is not held: it fails as a direct post would
    if (checked.sendable.length) return hold(checked, postId, started);
  }
  const { brand, connections, results } = checked;

  const { taken, sendable, xCredits } = await markAndSpend(deps, account, valid, opts, postId, checked, started);

  const post = postRecordOf(account, brand, postId, valid, opts, taken, started);
  const connectionOf = (platform: PlatformName) => connections.find((c) => c.platform === platform);
  let networks = await storePost(deps, post, sendable, results, connectionOf, xCredits);
  networks = await queueSends(deps, post, networks, sendable, connectionOf, opts, started + deps.settings.publishWaitMs);

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

/** A post after its checks: the brand and its connections, the actor's guardrails, each network's verdict so far. */
interface CheckedPost {
  brand: Brand;
  connections: Connection[];
  guard: Guardrails | undefined;
  /** Why an approval rule holds the post, if one does. */
  holdReason: ApprovalRecord['reason'] | undefined;
  /** Networks refused before sending, by network. */
  results: Map<PlatformName, NetworkResult>;
  /** Networks that passed every check, in request order. */
  sendable: Sendable[];
}

/**
 * The account's context and brand (the brand guardrail: 403), then per network: the actor's allowed networks, the
 * plan, availability, connection, content and media fit, adapter limits; then every media link once.
 */
async function checkPost(deps: PublishApprovedDeps, account: Account, valid: ValidPost, opts: PublishOptions, postId: string): Promise<CheckedPost> {
  const context = opts.context ?? await deps.publishContext.load(account.id, opts.actor);
  const { brand, connections } = chooseBrand(context, valid.platforms, valid.brand_id);
  const guard = opts.actor ? context.guardrails : undefined;
  checkBrandAllowed(guard, brand.id);
  const refusedByGuard = valid.platforms.map((p) => platformRefusal(guard, p)).filter((r): r is NetworkResult => !!r);
  const allowed = valid.platforms.filter((p) => !refusedByGuard.some((r) => r.platform === p));
  const holdReason = opts.approval ? undefined : opts.requestApproval && allowed.length ? 'requested' as const : holdReasonFrom(context.approvalRules, account, brand.id, allowed, guard);
  const checked = await checkNetworks(deps, { account, valid, connections, guard, postId });
  const sendable = await checkMedia(deps, checked.sendable, checked.results);
  return { brand, connections, guard, holdReason, results: checked.results, sendable };
}

/**
 * A post to hold is checked now as a direct post would be (networks refused up front fail in the answer; a cap or
 * the plan's month that could never take the post refuses it), but nothing is spent: the networks past the month's
 * posts left fail with limit_reached.
 */
async function fitForHold(deps: PublishApprovedDeps, account: Account, opts: PublishOptions, checked: CheckedPost, started: number): Promise<CheckedPost> {
  await checkActorCap(deps, account, opts.actor, checked.guard, checked.sendable.length, started);
  const room = await postsLeft(deps, account, started);
  for (const s of checked.sendable.slice(room)) checked.results.set(s.platform, postsUsedUp(deps, account, s.platform));
  return { ...checked, sendable: checked.sendable.slice(0, room) };
}

/** Holds a checked post for approval: the duplicate lock is taken and kept until the decision; nothing is sent. */
async function holdChecked(deps: PublishPostDeps, account: Account, valid: ValidPost, opts: PublishOptions, postId: string, checked: CheckedPost, started: number) {
  const { brand, results, sendable } = checked;
  const lock = publishLockOf(account.id, valid, brand.id);
  await takePublishLock(deps, lock, valid, postId, started);
  const refused = valid.platforms.flatMap((p) => { const r = results.get(p); return r ? [r] : []; });
  return holdForApproval(deps, { account, brand, postId, valid, platforms: sendable.map((s) => s.platform), reason: checked.holdReason!, opts, lock: lock.key, refused, now: started });
}

/**
 * The post's reconciliation marker, written while the duplicate lock, the actor's cap and the month's posts are
 * taken (it only has to precede the post: storePost): one table write less one after another. A refusal (409
 * duplicate_post, a cap) removes the marker again (left behind, the sweep would drop it when due: no post); a
 * marker that could not be written gives back what was taken, since no post may exist without it.
 */
async function markAndSpend(deps: PublishApprovedDeps, account: Account, valid: ValidPost, opts: PublishOptions, postId: string, checked: CheckedPost, started: number) {
  const reconcileAt = started + reconcileAfterMs(deps.settings);
  const [marked, spent] = await Promise.allSettled([
    deps.posts.markForReconcile(postId, reconcileAt),
    (async () => {
      const taken = await takeLockAndCap(deps, account, valid, opts, postId, checked, started);
      return { taken, ...await reserveSends(deps, account, checked, taken.capKeys, started) };
    })(),
  ]);
  if (spent.status === 'rejected') {
    if (marked.status === 'fulfilled') {
      await deps.posts.moveReconcile(postId, reconcileAt, undefined).catch((err) => log.warn('a refused post\'s reconciliation marker stays until the sweep drops it', { post_id: postId, ...errorFields(err) }));
    }
    throw spent.reason;
  }
  if (marked.status === 'rejected') {
    const { taken, sendable, xCredits } = spent.value;
    const networks = sendable.map((s) => ({ platform: s.platform, ...(s.platform === 'x' ? { x_credits: xCredits } : {}) }));
    await giveBack(deps, { account_id: account.id, created_at: new Date(started).toISOString(), cap_key: taken.capKeys[0], cap_keys: taken.capKeys.slice(1) }, networks);
    await releaseLock(deps, taken.lock, postId);
    throw marked.reason;
  }
  return spent.value;
}

/** Takes the duplicate lock (when anything is to be sent) and the actor's monthly cap; a refused cap gives the lock back. */
async function takeLockAndCap(deps: PublishApprovedDeps, account: Account, valid: ValidPost, opts: PublishOptions, postId: string, checked: CheckedPost, started: number): Promise<{ lock?: string; capKeys: string[] }> {
  let lock: string | undefined;
  if (checked.sendable.length) {
    const l = publishLockOf(account.id, valid, checked.brand.id);
    await takePublishLock(deps, l, valid, postId, started);
    lock = l.key;
  }
  try {
    return { lock, capKeys: await reserveActorCap(deps, account, opts.actor, checked.guard, checked.sendable.length, started) };
  } catch (err) {
    await releaseLock(deps, lock, postId);
    throw err;
  }
}

/**
 * Reserves the month's posts for every network in one counter update (limit_reached for those past the plan), and X
 * credits priced before sending (x_credits_exhausted; a network refused here gives back its post and cap places).
 */
async function reserveSends(deps: PublishApprovedDeps, account: Account, checked: CheckedPost, capKeys: string[], started: number): Promise<{ sendable: Sendable[]; xCredits?: number }> {
  const { results } = checked;
  const postsKey = usageKeys.posts(account.id, started);
  const monthEnd = Math.floor(nextMonthStart(started).getTime() / 1000) + 86_400 * 40;
  const granted = await reservePosts(deps, postsKey, checked.sendable.length, PLANS[account.plan].posts_per_month, monthEnd);
  const reserved: Sendable[] = [];
  let xCredits: number | undefined;
  for (const [i, s] of checked.sendable.entries()) {
    if (i >= granted) {
      results.set(s.platform, postsUsedUp(deps, account, s.platform));
      continue;
    }
    if (s.platform === 'x') {
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
  if (reserved.length < checked.sendable.length) for (const k of capKeys) await deps.counters.release(k, checked.sendable.length - reserved.length);
  return { sendable: reserved, xCredits };
}

/** The plan's monthly posts a held post can still count on now (as reservePosts would grant them). */
async function postsLeft(deps: Pick<Deps, 'counters'>, account: Account, nowMs: number): Promise<number> {
  return Math.max(0, PLANS[account.plan].posts_per_month - await deps.counters.get(usageKeys.posts(account.id, nowMs)));
}

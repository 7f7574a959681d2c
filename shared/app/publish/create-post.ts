import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { NetworkRecord, PostRecord } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import { AppError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { PLANS } from '../../domain/plans';
import { sha256Hex } from '../../domain/api-key';
import { nextMonthStart, usageKeys } from '../../domain/usage';
import { upgradeUrl } from '../brands';
import { resolveBrand } from './brand';
import { contentFor, fingerprint } from './content';
import { held, mediaFitProblem, mediaProblem, precheck, type Sendable } from './checks';
import { recordOutcome } from './events';
import { failed } from './results';
import type { ValidPost } from './request';
import { releaseLockIfAllFailed } from './lock';
import { releaseXCredits, reserveXCredits, xPlanRefusal } from './x-credits';
import { checkBrandAllowed, loadGuardrails, platformRefusal, reserveActorCap } from '../guardrails/enforce';
import { holdForApproval, holdReason } from '../approvals/hold';
import type { PublishMessage, PublishOptions } from './publish-message';
import { appendLogContext } from '../../log';

export type { PublishMessage, PublishOptions };

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
export const DUPLICATE_TTL_SECONDS = 120;

/**
 * Publishes one post to its networks (spec §2.2, §3; decisions.md "Publishing").
 * 1. Resolve the brand (409 ambiguous_brand, 404 brand_not_found).
 * 2. Hold networks beyond the plan's networks per post (request order); per other network: available, connected,
 *    content and media fit, adapter limits.
 * 3. Check every media link once (media_unreachable), with the kinds the links really have.
 * 4. Take the duplicate lock (idempotency key 24 h, else identical request 2 min): 409 duplicate_post.
 * 5. Reserve the month's posts per network (limit_reached).
 * 6. Store the post, fan out one message per network, record post.failed for networks refused before sending.
 * 7. Wait for the workers until the deadline; networks still running answer unknown / timed_out.
 */
export async function publishPost(deps: Deps, account: Account, valid: ValidPost, opts: PublishOptions) {
  const started = deps.clock.now();
  const plan = PLANS[account.plan];
  const postId = opts.approval?.post_id ?? newId('pst', started);
  appendLogContext({ post_id: postId });
  const { brand, connections } = await resolveBrand(deps, account, valid.platforms, valid.brand_id);
  const guard = await loadGuardrails(deps, account.id, opts.actor);
  checkBrandAllowed(guard, brand.id);

  const refusedByGuard = valid.platforms.map((p) => platformRefusal(guard, p)).filter((r): r is NetworkResult => !!r);
  if (!opts.approval) {
    const allowed = valid.platforms.filter((p) => !refusedByGuard.some((r) => r.platform === p));
    const reason = await holdReason(deps, account, brand.id, allowed, guard);
    if (reason) {
      // held: nothing is sent or spent, but the idempotency lock is kept until the decision
      const lock = lockKeyOf(account, valid, brand.id);
      await takeLock(deps, lock, valid, postId, started);
      return holdForApproval(deps, { account, brand, postId, valid, platforms: allowed, reason, opts, lock: lock.key, refused: refusedByGuard, now: started });
    }
  }

  const results = new Map<PlatformName, NetworkResult>();
  let sendable: Sendable[] = [];
  const xRefusal = valid.platforms.includes('x') ? xPlanRefusal(deps, account) : undefined;
  let place = 0;
  for (const platform of valid.platforms) {
    const refused = refusedByGuard.find((r) => r.platform === platform);
    if (refused) { results.set(platform, refused); continue; }
    // X is a paid add-on (decisions.md "Plans"): refused on Free first, so it never takes one of the plan's places
    if (platform === 'x' && xRefusal) { results.set(platform, xRefusal); continue; }
    // the plan's places go by request order: a network keeps its place whatever its own checks say
    if (plan.networks_per_post !== null && place++ >= plan.networks_per_post) {
      results.set(platform, held(platform, plan, upgradeUrl(deps, account)));
      continue;
    }
    const checked = await precheck(deps, platform, connections.find((c) => c.platform === platform), contentFor(valid.payload, platform, postId));
    if ('ok' in checked) results.set(platform, checked);
    else sendable.push(checked);
  }

  sendable = await checkMedia(deps, sendable, results);

  let lock: string | undefined;
  if (sendable.length) {
    const l = lockKeyOf(account, valid, brand.id);
    await takeLock(deps, l, valid, postId, started);
    lock = l.key;
  }

  let capKey: string | undefined;
  try {
    capKey = await reserveActorCap(deps, account, opts.actor, guard, sendable.length, started);
  } catch (err) {
    if (lock) await deps.locks.release(lock, postId);
    throw err;
  }

  const postsKey = usageKeys.posts(account.id, started);
  const monthEnd = Math.floor(nextMonthStart(started).getTime() / 1000) + 86_400 * 40;
  const reserved: Sendable[] = [];
  let xCredits: number | undefined;
  for (const s of sendable) {
    const r = await deps.counters.increment(postsKey, 1, plan.posts_per_month, monthEnd);
    if (!r.allowed) {
      results.set(s.platform, failed(s.platform, 'limit_reached', `The ${plan.name} plan's ${plan.posts_per_month} posts a month are used up`, { upgrade_url: upgradeUrl(deps, account) }));
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
  if (capKey && reserved.length < sendable.length) await deps.counters.release(capKey, sendable.length - reserved.length);
  sendable = reserved;

  const post: PostRecord = {
    id: postId, account_id: account.id, brand_id: brand.id, brand_name: brand.name, source: opts.source,
    ...(opts.schedule_id ? { schedule_id: opts.schedule_id } : {}),
    idempotency_key: valid.idempotency_key ?? null, lock, platforms: valid.platforms, payload: valid.payload,
    created_at: new Date(started).toISOString(),
    ...(opts.actor ? { actor: opts.actor } : {}), ...(capKey ? { cap_key: capKey } : {}), ...(opts.approval ? { approval_id: opts.approval.id } : {}),
  };
  const networks: NetworkRecord[] = valid.platforms.map((platform) => {
    const s = sendable.find((x) => x.platform === platform);
    return s
      ? { post_id: postId, account_id: account.id, platform, state: 'queued', deferrals: 0, reserved: true, ...(platform === 'x' && xCredits ? { x_credits: xCredits } : {}) }
      : { post_id: postId, account_id: account.id, platform, state: 'done', deferrals: 0, reserved: false, result: results.get(platform) };
  });
  await deps.posts.create(post, networks);

  const respondBy = started + deps.settings.publishWaitMs;
  try {
    await deps.queue.sendAll(deps.settings.publishQueueUrl, sendable.map((s) => ({
      id: s.platform,
      body: { post_id: postId, platform: s.platform, deferral: 0, ...(opts.wait ? { respond_by: respondBy } : {}) } satisfies PublishMessage,
    })));
  } catch (err) {
    await failUnsent(deps, post, sendable.map((s) => s.platform), err, xCredits);
  }

  for (const [platform, result] of results) {
    if (!result.held) await recordOutcome(deps, post, connections.find((c) => c.platform === platform), result);
  }

  const final = opts.wait && sendable.length ? await waitForResults(deps, postId, deps.settings.publishWaitMs) : (await deps.posts.get(postId))!;
  const ordered = valid.platforms.map((platform) => {
    const n = final.networks.find((x) => x.platform === platform)!;
    // a 'processing' network (async media) answers ok with status processing; the worker finishes it later
    if (n.result && (n.state === 'done' || n.state === 'scheduled' || n.state === 'processing')) return n.result;
    return failed(platform, 'timed_out', 'No answer from the network before the reply was due; the outcome will arrive by webhook', { status: 'unknown' });
  });
  await releaseLockIfAllFailed(deps, final.post, final.networks);
  return { post_id: postId, brand_id: brand.id, results: ordered };
}

/** The duplicate lock of a post: its idempotency_key for 24 hours, else the identical request for 2 minutes. */
function lockKeyOf(account: Account, valid: ValidPost, brandId: string) {
  // the user's idempotency_key, else a schedule's own key (never echoed), else the request's fingerprint
  const key = valid.idempotency_key ?? valid.duplicate_key;
  return key !== undefined
    ? { key: `idem#${account.id}#${sha256Hex(key)}`, ttl: IDEMPOTENCY_TTL_SECONDS }
    : { key: `dup#${account.id}#${sha256Hex(fingerprint(valid.platforms, valid.payload, brandId))}`, ttl: DUPLICATE_TTL_SECONDS };
}

/** Takes the lock for the post (409 duplicate_post when another post holds it; an approved post holds its own). */
async function takeLock(deps: Pick<Deps, 'locks'>, lock: { key: string; ttl: number }, valid: ValidPost, postId: string, now: number) {
  const got = await deps.locks.acquire(lock.key, postId, lock.ttl, now);
  if (got.ok || got.heldBy === postId) return;
  throw new AppError(409, 'duplicate_post', valid.idempotency_key !== undefined
    ? 'This idempotency_key was used in the last 24 hours: nothing was published again'
    : 'An identical post was sent in the last 2 minutes: nothing was published again', { details: { post_id: got.heldBy || undefined } });
}

/** Checks each distinct media link once; networks with an unreachable link fail, and real kinds replace guesses. */
async function checkMedia(deps: Pick<Deps, 'media'>, sendable: Sendable[], results: Map<PlatformName, NetworkResult>): Promise<Sendable[]> {
  const urls = [...new Set(sendable.flatMap((s) => s.content.media.map((m) => m.url)))];
  const probes = new Map(await Promise.all(urls.map(async (u) => [u, await deps.media.probe(u)] as const)));
  const kept: Sendable[] = [];
  for (const s of sendable) {
    const bad = s.content.media.map((m) => ({ m, p: probes.get(m.url)! })).find(({ p }) => !p.ok);
    if (bad && !bad.p.ok) {
      results.set(s.platform, failed(s.platform, 'media_unreachable', `${stripQuery(bad.m.url)}: ${bad.p.reason}`));
      continue;
    }
    const content = { ...s.content, media: s.content.media.map((m) => { const p = probes.get(m.url)!; return p.ok ? { ...m, kind: p.kind, content_type: p.content_type, ...(p.bytes !== undefined ? { bytes: p.bytes } : {}) } : m; }) };
    const problem = mediaProblem(s.platform, content) ?? mediaFitProblem(s.platform, content);
    if (problem) results.set(s.platform, problem);
    else kept.push({ ...s, content });
  }
  return kept;
}

const stripQuery = (u: string) => u.split('?')[0];

/** The queue refused the messages: those networks fail (internal_error), give back their reservation. */
async function failUnsent(deps: Deps, post: PostRecord, platforms: PlatformName[], err: unknown, xCredits?: number) {
  for (const platform of platforms) {
    if (await deps.posts.claim(post.id, platform, ['queued'], deps.clock.now())) {
      await deps.posts.settle(post.id, platform, 'done', failed(platform, 'internal_error', 'The post could not be queued for sending'), { reserved: false });
      await deps.counters.release(usageKeys.posts(post.account_id, Date.parse(post.created_at)), 1);
      if (platform === 'x') await releaseXCredits(deps, post.account_id, Date.parse(post.created_at), xCredits);
      if (post.cap_key) await deps.counters.release(post.cap_key, 1);
    }
  }
  void err;
}

/** Polls the post's networks until none is queued or sending, or `budgetMs` has passed on the injected clock. */
async function waitForResults(deps: Deps, postId: string, budgetMs: number) {
  const until = deps.clock.now() + budgetMs;
  let delay = 10;
  for (;;) {
    const current = (await deps.posts.get(postId))!;
    const pending = current.networks.some((n) => n.state === 'queued' || n.state === 'sending');
    if (!pending || deps.clock.now() >= until) return current;
    await deps.clock.sleep(Math.min(delay, Math.max(1, until - deps.clock.now())));
    delay = Math.min(Math.ceil(delay * 1.5), 100);
  }
}

import type { Deps } from '../deps';
import type { Account } from '../../ports/store';
import type { PublishContext } from '../../ports/publishing';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import type { Actor } from '../auth';
import type { Sendable } from '../publish/checks';
import { newId } from '../../domain/ids';
import { PLANS } from '../../domain/plans';
import { usageKeys } from '../../domain/usage';
import { UnsafeTargetError } from '../../ports/media-gateway';
import { validatePost } from '../publish/request';
import type { ValidateRequest } from './validate-request';
import { chooseBrand } from '../publish/brand';
import { checkMedia, checkNetworks, postsUsedUp } from '../publish/preflight';
import { checkPublishLockFree, checkScheduleLockFree, publishLockOf, scheduleLockOf } from '../idempotency';
import { failed } from '../network-results';
import { xCreditCost, xCreditsExhausted } from '../publish/x-credits';
import { checkActorCap, checkBrandAllowed } from '../guardrails/enforce';
import { holdReasonFrom } from '../approval-hold';
import { credentialTargetProblem } from '../security/credential-targets';
import { ownFile } from '../media/own-media';
import { parseRunAt, scheduledLimit } from '../schedule/common';

/** One network's verdict: ok, or the failure the real send would answer (code, error, what, fix, …). */
export type ValidateResult = Omit<NetworkResult, 'status'> & { status: NetworkResult['status'] | 'ok' };

export interface ValidateAnswer {
  /** Every network would pass every check. */
  ok: boolean;
  brand_id: string;
  /** The real request would be held for approval (202 pending_approval); the results are the checks it meets once approved. */
  pending_approval: boolean;
  /** With run_at: when it would be scheduled (next_slot: the brand's next free slot, decided when scheduled). */
  run_at?: string;
  media_checked: boolean;
  results: ValidateResult[];
}

/** What validating reaches: only reads (account context, counters, locks, connections' credentials, media probes). */
export type ValidatePublishDeps = Pick<Deps, 'cipher' | 'clock' | 'counters' | 'locks' | 'media' | 'publishContext' | 'settings' | 'networkLimits'>;

/**
 * Dry run of a publish (or a schedule with run_at): the same check functions the real path runs, in its order, and
 * nothing else — it sends nothing, writes nothing, spends no limit and takes no lock.
 * 1. validatePost (400s as POST /api/post); run_at as POST /api/schedule (400 invalid_run_at).
 * 2. The account context (one query), chooseBrand (404 brand_not_found, 409 ambiguous_brand), brand guardrail (403).
 * 3. Whether an approval rule would hold it (pending_approval: true; the checks below are those met once approved).
 * 4. checkNetworks: guardrail networks, X plan, networks per post, precheck (available, connected, sign-in valid,
 *    media rules, each network's content limits in its own units); with run_at also the stored credential URLs'
 *    address check, as scheduling makes it.
 * 5. Media: check_media → checkMedia (the probe the real send makes); otherwise own uploads from their stored item
 *    and every other link through the address guard only (no download).
 * 6. What the real send takes, read instead of taken: the duplicate lock (409 duplicate_post), the actor's monthly cap
 *    (403 key_monthly_cap_reached), the month's posts (limit_reached), X credits (x_credits_exhausted); with run_at
 *    the schedule's idempotency lock (409) and the plan's scheduled posts (400 scheduled_limit_reached) instead.
 * A request-level refusal is thrown with the status and code the real request would answer.
 */
export async function validatePublish(deps: ValidatePublishDeps, account: Account, body: ValidateRequest, opts: { actor?: Actor; context?: PublishContext } = {}): Promise<ValidateAnswer> {
  const now = deps.clock.now();
  const { run_at, check_media, ...post } = body;
  const valid = validatePost(post, deps.networkLimits);
  const runAt = run_at !== undefined ? parseRunAt(run_at, now) : undefined;
  const context = opts.context ?? await deps.publishContext.load(account.id, opts.actor);
  const { brand, connections } = chooseBrand(context, valid.platforms, valid.brand_id);
  const guard = opts.actor ? context.guardrails : undefined;
  checkBrandAllowed(guard, brand.id);
  const postId = newId('pst', now);

  const { results, sendable: checked } = await checkNetworks(deps, { account, valid, connections, guard, postId });
  const allowed = valid.platforms.filter((p) => results.get(p)?.code !== 'platform_not_allowed');
  const holdReason = runAt ? undefined : holdReasonFrom(context.approvalRules, account, brand.id, allowed, guard);

  let sendable: Sendable[] = [];
  for (const s of checked) {
    // a schedule checks the stored credential URLs now (schedule/check.ts); a publish meets them when it sends
    const unsafe = runAt ? await credentialTargetProblem(deps, s.platform, s.credentials) : undefined;
    if (unsafe) results.set(s.platform, unsafe); else sendable.push(s);
  }
  sendable = check_media ? await checkMedia(deps, sendable, results) : await checkMediaWithoutDownload(deps, sendable, results);

  if (runAt) await readScheduleTakes(deps, account, valid.idempotency_key, now);
  else if (!holdReason) sendable = await readPublishTakes(deps, account, valid, brand.id, sendable, results, guard && opts.actor ? { actor: opts.actor, guard } : undefined, now);

  const answers: ValidateResult[] = valid.platforms.map((platform) =>
    sendable.some((s) => s.platform === platform) ? { platform, ok: true, status: 'ok' } : results.get(platform)!);
  return {
    ok: answers.every((r) => r.ok), brand_id: brand.id, pending_approval: !!holdReason,
    ...(runAt ? { run_at: runAt.kind === 'next_slot' ? 'next_slot' : runAt.at.toISOString() } : {}),
    media_checked: !!check_media, results: answers,
  };
}

/**
 * Media checks that need no download: an own upload is probed from its stored item (a table read, as the real send
 * does); any other link passes the address guard (media_unreachable otherwise). Kinds stay as guessed.
 */
async function checkMediaWithoutDownload(deps: Pick<Deps, 'media' | 'settings' | 'networkLimits'>, sendable: Sendable[], results: Map<PlatformName, NetworkResult>): Promise<Sendable[]> {
  const own = sendable.map((s) => ({ ...s, content: { ...s.content, media: s.content.media.filter((m) => ownFile(deps, m.url) !== undefined) } }));
  const probed = await checkMedia(deps, own, results);
  const kept: Sendable[] = [];
  const verdicts = new Map<string, string | undefined>();
  for (const s of sendable) {
    if (!probed.some((p) => p.platform === s.platform)) continue;
    let problem: string | undefined;
    for (const m of s.content.media) {
      if (ownFile(deps, m.url) !== undefined) continue;
      if (!verdicts.has(m.url)) {
        try {
          await deps.media.checkTarget(m.url);
          verdicts.set(m.url, undefined);
        } catch (err) {
          if (!(err instanceof UnsafeTargetError)) throw err;
          verdicts.set(m.url, `${m.url.split('?')[0]}: ${err.message}`);
        }
      }
      problem ??= verdicts.get(m.url);
    }
    if (problem) results.set(s.platform, failed(s.platform, 'media_unreachable', problem));
    else kept.push(s);
  }
  return kept;
}

/** Reads what publishPost takes, in its order, and answers the networks that would get their places. */
async function readPublishTakes(
  deps: Pick<Deps, 'counters' | 'locks' | 'settings'>, account: Account, valid: ReturnType<typeof validatePost>, brandId: string,
  sendable: Sendable[], results: Map<PlatformName, NetworkResult>, cap: { actor: Actor; guard: Parameters<typeof checkActorCap>[3] } | undefined, now: number,
): Promise<Sendable[]> {
  if (sendable.length === 0) return sendable;
  await checkPublishLockFree(deps, publishLockOf(account.id, valid, brandId), valid, now);
  if (cap) await checkActorCap(deps, account, cap.actor, cap.guard, sendable.length, now);
  const plan = PLANS[account.plan];
  const left = Math.max(0, plan.posts_per_month - await deps.counters.get(usageKeys.posts(account.id, now)));
  const kept: Sendable[] = [];
  for (const [i, s] of sendable.entries()) {
    if (i >= left) { results.set(s.platform, postsUsedUp(deps, account, s.platform)); continue; }
    if (s.platform === 'x') {
      const credits = xCreditCost(s.content);
      const used = await deps.counters.get(usageKeys.xCredits(account.id, now));
      if (used + credits > plan.x_credits_per_month) { results.set(s.platform, xCreditsExhausted(deps, account, credits, used)); continue; }
    }
    kept.push(s);
  }
  return kept;
}

/** Reads what scheduleRows takes: the idempotency_key's scheduling lock, one of the plan's scheduled places. */
async function readScheduleTakes(deps: Pick<Deps, 'counters' | 'locks' | 'settings'>, account: Account, idempotencyKey: string | undefined, now: number): Promise<void> {
  if (idempotencyKey !== undefined) await checkScheduleLockFree(deps, scheduleLockOf(account.id, idempotencyKey), now);
  if (await deps.counters.get(usageKeys.scheduled(account.id)) >= PLANS[account.plan].scheduled_at_a_time) throw scheduledLimit(deps, account);
}

import type { Deps, NetworkDeps } from '../deps';
import { FORMAT_VERSION } from '../../ports/format-version';
import type { Connection, NetworkRecord, PostRecord } from '../../ports/publishing';
import type { NetworkResult } from '../../domain/post';
import type { Failure, NetworkAdapter, NetworkContext, PublishOutcome, ReadBackOutcome } from '../../ports/networks';
import { newId } from '../../domain/ids';
import { contentFor } from './content';
import { countOutcome, outcomeEvent, reconciledEvent, type ReconcileDecision } from './events';
import { giveBack } from './reservations';
import { giveBackBudget, takeBudget } from './network-budget';
import { freshCredentials, signInLost, type FreshCredentialsDeps, type SignInLostDeps } from '../oauth/credentials';
import { networkContext } from '../network-context';
import { failed, fromFailure, published } from '../network-results';
import { releaseLockIfAllFailed } from '../idempotency';
import type { PublishMessage } from './publish-message';
import { recordDeferral } from './deferral';
import { putMetric } from '../../metrics';
import { errorFields, log } from '../../log';
import { claimIsStale, fanOutStored, RECONCILE_AFTER_MS } from './durability';
import { trackPublished } from '../analytics/collect-metrics';

/**
 * A claim older than this belongs to a worker that died mid-send (the default of settings.reconcileAfterMs: the
 * publish worker's visibility timeout, 150 s, past its 120 s Lambda timeout).
 */
export const STALE_CLAIM_MS = RECONCILE_AFTER_MS;

/** Rate-limit deferrals through the scheduler before a network is answered rate_limited. */
export const MAX_DEFERRALS = 3;
const TRANSIENT_RETRIES = 2;
/** How long a worker may wait inside one invocation when nobody waits for the answer. */
const OWN_WAIT_BUDGET_MS = 60_000;

/** What sending one network reaches: fresh credentials, the adapter, the post's item, the caps, the queue (resumes) and the scheduler (deferrals). */
export type SendToNetworkDeps = FreshCredentialsDeps & Pick<Deps, 'analytics' | 'counters' | 'networks' | 'posts' | 'queue' | 'resultSignal' | 'scheduler' | 'schedules'>;

/**
 * Sends one network of one post, at most once (the worker's use case).
 * 1. Claim it with one conditional write (queued → sending; scheduled → sending for the due deferral; processing →
 *    sending for the current resume step once due), which answers the post: nothing is read first. A network that
 *    is not claimable is read once to see why (done, in flight elsewhere or stopped, async media waiting).
 * 2. Publish through the adapter with fresh credentials (the connection the message carries, else read; OAuth
 *    tokens renewed under a lock, once more after a 401); retry transient failures and serve network waits that
 *    fit the time left.
 * 3. A longer wait is deferred through the scheduler (rate_limited_deferred), up to MAX_DEFERRALS times; async
 *    media the network is still processing goes to state 'processing' and is resumed later (resumeProcessing).
 * 4. Settle the result with its event; give back the reservations on failure; hand the event to webhooks; mark a
 *    connection whose sign-in expired; release the duplicate lock when every network failed.
 */
export async function sendToNetwork(deps: SendToNetworkDeps, msg: PublishMessage): Promise<void> {
  const now = deps.clock.now();
  const claimed = msg.resume
    ? await deps.posts.claim(msg.post_id, msg.platform, ['processing'], now, { resumes: msg.step ?? 0, dueBy: now + 1_000 })
    : await deps.posts.claim(msg.post_id, msg.platform, [msg.deferral > 0 ? 'scheduled' : 'queued'], now, { deferrals: msg.deferral });
  const net = claimed?.networks.find((n) => n.platform === msg.platform);
  if (!claimed || !net) return notClaimed(deps, msg, now);
  const { post } = claimed;
  if (msg.resume) return resumeProcessing(deps, post, net, now);

  const connection = msg.connection ?? await deps.connections.get(post.account_id, post.brand_id, net.platform);
  const adapter = deps.networks[net.platform];
  let result: NetworkResult;
  let outcome: PublishOutcome | undefined;
  if (!connection || !adapter) {
    result = failed(net.platform, 'not_connected', `${net.platform} was disconnected before the post was sent`);
  } else {
    const waitLimit = msg.respond_by ?? now + OWN_WAIT_BUDGET_MS;
    const content = contentFor(post.payload, net.platform, post.id);
    // the network's own quota of this account, spent before sending (decisions.md "Publishing budgets")
    const budget = await takeBudget(deps, net.platform, connection.id, content);
    if (!budget.ok) {
      if (net.deferrals < MAX_DEFERRALS) {
        await defer(deps, post, net, budget.retry_after, 'network_budget_deferred');
        return;
      }
      await finish(deps, post, net, connection, failed(net.platform, 'network_budget_exhausted', budget.error, { retry_after: budget.retry_after }), undefined);
      return;
    }
    outcome = await withSignIn(deps, post, connection, (credentials) => sendWithRetries(deps, net.platform, adapter.publish.bind(adapter), content, credentials, waitLimit));
    // refused before the network accepted anything: the quota is not spent (a timeout may have been accepted)
    if (!outcome.ok && outcome.kind !== 'timeout') await giveBackBudget(deps, budget);
    if (!outcome.ok && outcome.kind === 'rate_limited' && net.deferrals < MAX_DEFERRALS) {
      await defer(deps, post, net, outcome.retry_after);
      return;
    }
    if (outcome.ok && outcome.status === 'processing' && outcome.resume) {
      await continueProcessing(deps, post, net, published(net.platform, outcome), outcome.resume.state, outcome.resume.after_seconds);
      return;
    }
    result = outcome.ok ? published(net.platform, outcome) : fromFailure(net.platform, outcome);
  }
  await finish(deps, post, net, connection, result, outcome);
}

/**
 * The message's network could not be claimed; one read says why: already done or not this message's turn (dropped),
 * claimed by a worker that stopped (reconciled: read back, then settled or resent once), or async media still
 * processing (its resume message queued again: the first message was redelivered, or a resume step came before its time).
 */
async function notClaimed(deps: SendToNetworkDeps, msg: PublishMessage, now: number): Promise<void> {
  const found = await deps.posts.get(msg.post_id);
  const net = found?.networks.find((n) => n.platform === msg.platform);
  if (!found || !net || net.state === 'done') return;
  if (net.state === 'sending') {
    if (claimIsStale(deps.settings, net.claimed_at, now)) await reconcileStale(deps, found.post, net, now);
    return;
  }
  if (net.state !== 'processing') return;
  const wait = Math.ceil(((net.resume_at ?? now) - now) / 1000);
  if (!msg.resume) await queueResume(deps, found.post, net, wait);
  else if (msg.step === (net.resumes ?? 0) && wait > 1) await queueResume(deps, found.post, net, wait);
}

/**
 * Settles a network for good: a lost sign-in marks the connection (once) with connection.reauth_required; the
 * result and its post.published / post.failed event in one conditional write (the webhook deliveries written just
 * before, queued just after); on failure the reservations go back; the duplicate lock goes when all failed.
 */
async function finish(deps: SignInLostDeps & Pick<Deps, 'analytics' | 'counters' | 'locks' | 'networks' | 'posts' | 'resultSignal'>, post: PostRecord, net: NetworkRecord, connection: Connection | undefined, result: NetworkResult, outcome: PublishOutcome | undefined, reconciled?: ReconcileDecision) {
  // the connection is marked before the result is visible, so whoever reads the result sees the marked connection
  if (connection && outcome && !outcome.ok && outcome.kind === 'reauth') await signInLost(deps, connection, outcome.error, post);
  const after = await settleWithEvent(deps, post, net, connection, result, { reserved: result.ok }, reconciled);
  if (!result.ok) await giveBack(deps, post, [net]);
  else await trackPublished(deps, post, result);
  log.info('network result', { post_id: post.id, platform: net.platform, ok: result.ok, status: result.status, code: result.ok ? undefined : result.code });
  await releaseLockIfAllFailed(deps, after.post, after.networks);
}

/**
 * Settles a claimed network as done with its outcome event (and, when reconciliation decided it, its post.reconciled
 * event) in one conditional write: the outbox. The deliveries are written from the stored events right after; a
 * crash in between leaves the post on the reconciliation's due index, whose sweep writes them (fanOutStored).
 */
async function settleWithEvent(deps: Pick<Deps, 'clock' | 'fanOut' | 'posts' | 'resultSignal'>, post: PostRecord, net: NetworkRecord, connection: Connection | undefined, result: NetworkResult, extra: { reserved: boolean }, reconciled?: ReconcileDecision) {
  const event = outcomeEvent(deps, post, connection, result);
  const reconciledEvt = reconciled ? reconciledEvent(deps, post, connection, result, event, reconciled) : undefined;
  const after = await deps.posts.settle(post.id, net.platform, 'done', result, { ...extra, ...(reconciledEvt ? { reconciled_event: reconciledEvt } : {}) }, event, net.claimed_at);
  await deps.resultSignal.ring(post.id, after.networks);
  countOutcome(result);
  await fanOutStored(deps, [event, ...(reconciledEvt ? [reconciledEvt] : [])]);
  return after;
}


/**
 * Runs a network call with the connection's credentials, OAuth tokens renewed first when they are about to
 * expire; a 'reauth' answer on renewable tokens (a 401) renews them once and tries again.
 */
async function withSignIn(deps: FreshCredentialsDeps, post: PostRecord, connection: Connection, run: (credentials: Record<string, string>) => Promise<PublishOutcome>): Promise<PublishOutcome> {
  const fresh = await freshCredentials(deps, connection, { post });
  if (!fresh.ok) return fresh.failure;
  const outcome = await run(fresh.credentials);
  if (outcome.ok || outcome.kind !== 'reauth' || !connection.tokens_enc) return outcome;
  const renewed = await freshCredentials(deps, connection, { force: true, rejected: fresh.credentials.access_token, post });
  return renewed.ok ? run(renewed.credentials) : renewed.failure;
}

/** SQS delays a message at most 15 minutes; a longer wait is served by queueing again when it arrives early. */
const MAX_QUEUE_DELAY_SECONDS = 900;
/** Async media still not finished this long after the post is closed as unknown. */
export const MAX_PROCESSING_MS = 24 * 3600_000;

/**
 * Async media (an Instagram container, a TikTok or YouTube upload that outlives the call): the network result is
 * `ok, status: processing` (the API answers it at once), the adapter's resume state is stored encrypted on the
 * network item with the next step number, and a publish message `{resume: true, step}` is queued with a delay.
 */
async function continueProcessing(deps: Pick<Deps, 'cipher' | 'clock' | 'posts' | 'queue' | 'resultSignal' | 'settings'>, post: PostRecord, net: NetworkRecord, result: NetworkResult, state: Record<string, string>, afterSeconds: number) {
  const after = Math.max(1, Math.ceil(afterSeconds));
  const step = (net.resumes ?? 0) + 1;
  const settled = await deps.posts.settle(post.id, net.platform, 'processing', result, {
    resume_enc: await deps.cipher.encrypt(JSON.stringify(state)), resume_at: deps.clock.now() + after * 1000, resumes: step,
  }, undefined, net.claimed_at);
  await deps.resultSignal.ring(post.id, settled.networks);
  await queueResume(deps, post, { ...net, resumes: step }, after);
}

async function queueResume(deps: Pick<Deps, 'queue' | 'settings'>, post: PostRecord, net: NetworkRecord, afterSeconds: number) {
  const body: PublishMessage = { v: FORMAT_VERSION, post_id: post.id, platform: net.platform, deferral: net.deferrals, resume: true, step: net.resumes ?? 0 };
  await deps.queue.sendAll(deps.settings.publishQueueUrl, [{
    group: post.account_id,
    id: `${net.platform}-r${net.resumes ?? 0}`, body,
    delaySeconds: Math.min(Math.max(0, afterSeconds), MAX_QUEUE_DELAY_SECONDS),
  }]);
}

/**
 * One resume step of a 'processing' network (message `{resume: true, step}`).
 * 1. Claimed by sendToNetwork (processing → sending, conditional: one worker per step, only the current step, only once
 *    due; a message that arrives before resume_at — waits past SQS's 15 minutes — is queued again for the rest).
 * 2. adapter.resume with the stored state and renewed credentials.
 * 3. Still processing (or a network wait) → processing again with the next step; published / failed → finish, so
 *    post.published or post.failed is recorded exactly once, when the work ends.
 */
async function resumeProcessing(deps: FreshCredentialsDeps & Pick<Deps, 'analytics' | 'counters' | 'networks' | 'posts' | 'queue' | 'resultSignal'>, post: PostRecord, net: NetworkRecord, now: number) {
  const connection = await deps.connections.get(post.account_id, post.brand_id, net.platform);
  const adapter = deps.networks[net.platform];
  const previous = net.result ?? { platform: net.platform, ok: true, status: 'processing' as const };
  let outcome: PublishOutcome | undefined;
  let result: NetworkResult;
  if (!connection || !adapter) {
    result = failed(net.platform, 'not_connected', `${net.platform} was disconnected while the network was still processing the post`);
  } else if (!adapter.resume || !net.resume_enc) {
    result = failed(net.platform, 'internal_error', `The ${net.platform} upload cannot be continued`);
  } else if (now - Date.parse(post.created_at) > MAX_PROCESSING_MS) {
    result = failed(net.platform, 'timed_out', `${net.platform} was still processing the media 24 hours later; the post may or may not appear`, { status: 'unknown', id: previous.id, url: previous.url });
  } else {
    const state = JSON.parse(await deps.cipher.decrypt(net.resume_enc)) as Record<string, string>;
    const content = contentFor(post.payload, net.platform, post.id);
    const resume = adapter.resume.bind(adapter);
    outcome = await withSignIn(deps, post, connection, (credentials) =>
      sendWithRetries(deps, net.platform, (c, ctx) => resume(c, state, ctx), content, credentials, now + OWN_WAIT_BUDGET_MS));
    if (!outcome.ok && outcome.kind === 'rate_limited') {
      await continueProcessing(deps, post, net, previous, state, outcome.retry_after);
      return;
    }
    if (outcome.ok && outcome.status === 'processing') {
      const next = outcome.resume ?? { after_seconds: 30, state };
      await continueProcessing(deps, post, net, published(net.platform, outcome), next.state, next.after_seconds);
      return;
    }
    result = outcome.ok ? published(net.platform, outcome) : fromFailure(net.platform, outcome);
  }
  await finish(deps, post, net, connection, result, outcome);
}

type Publish = (content: ReturnType<typeof contentFor>, ctx: NetworkContext) => Promise<PublishOutcome>;

async function sendWithRetries(deps: NetworkDeps, platform: string, publish: Publish, content: ReturnType<typeof contentFor>, credentials: Record<string, string>, waitLimit: number): Promise<PublishOutcome> {
  for (let attempt = 0; ; attempt++) {
    const started = deps.clock.now();
    const outcome = await publish(content, networkContext(deps, credentials));
    putMetric('NetworkLatency', deps.clock.now() - started, { platform });
    if (outcome.ok) return outcome;
    const left = waitLimit - deps.clock.now();
    if (outcome.kind === 'transient' && attempt < TRANSIENT_RETRIES && left > 2_000) {
      await deps.clock.sleep(Math.min(500 * 2 ** attempt, left - 1_000));
      continue;
    }
    if (outcome.kind === 'rate_limited' && outcome.retry_after * 1000 < left - 1_000 && attempt < TRANSIENT_RETRIES + 3) {
      await deps.clock.sleep(outcome.retry_after * 1000);
      continue;
    }
    return outcome;
  }
}

/**
 * Queues the network for right after the network's wait (spec §3: rate_limited_deferred), or for when its
 * publishing budget has room again (network_budget_deferred).
 */
async function defer(deps: Pick<Deps, 'clock' | 'posts' | 'resultSignal' | 'scheduler' | 'schedules'>, post: PostRecord, net: NetworkRecord, retryAfter: number, code: 'rate_limited_deferred' | 'network_budget_deferred' = 'rate_limited_deferred') {
  const now = deps.clock.now();
  const deferral = net.deferrals + 1;
  const runAt = new Date(now + Math.max(1, retryAfter) * 1000);
  const scheduleId = newId('sch', now);
  // the schedule item first (GET /api/schedule lists it with deferred: true), then the alarm
  await recordDeferral(deps, { schedule_id: scheduleId, account_id: post.account_id, brand_id: post.brand_id, post_id: post.id, platform: net.platform, run_at: runAt });
  await deps.scheduler.scheduleOnce({
    name: `d-${post.id}-${net.platform}-${deferral}`, runAt,
    input: { v: FORMAT_VERSION, kind: 'deferred', post_id: post.id, platform: net.platform, deferral, schedule_id: scheduleId },
  });
  const settled = await deps.posts.settle(post.id, net.platform, 'scheduled', {
    platform: net.platform, ok: true, status: 'scheduled', code, deferred: true,
    schedule_id: scheduleId, run_at: runAt.toISOString(), retry_after: Math.ceil(retryAfter),
  }, { deferrals: deferral }, undefined, net.claimed_at);
  await deps.resultSignal.ring(post.id, settled.networks);
}

/**
 * A worker died after claiming (its claim is stale): the post may or may not be on the network. Reconciliation,
 * through the same claim (never two senders):
 * 1. Take the claim over (conditional on the stale claim time: a live worker's settle or another take-over wins).
 * 2. Read back (adapter.readBack: the post by its exact text in the window since the claim): found → published with
 *    its id and URL; certainly absent → sent again, once (a second take-over finds the resend spent: unknown);
 *    unreadable, or a network without read-back → unknown (outcome_unknown, the reason in error).
 * 3. Settle with its outcome event and a post.reconciled event that says how it was decided.
 */
async function reconcileStale(deps: SendToNetworkDeps, post: PostRecord, stale: NetworkRecord, now: number): Promise<void> {
  const taken = await deps.posts.takeOver(post.id, stale.platform, stale.claimed_at!, now);
  const net = taken?.networks.find((n) => n.platform === stale.platform);
  if (!taken || !net) return;
  const connection = await deps.connections.get(post.account_id, post.brand_id, net.platform);
  const adapter = deps.networks[net.platform];
  const unknown = (reason: string) => failed(net.platform, 'outcome_unknown', reason, { status: 'unknown' });
  let result: NetworkResult;
  let outcome: PublishOutcome | undefined;
  let decision: ReconcileDecision;
  if (!connection || !adapter) {
    result = unknown(`The sending worker stopped before ${net.platform} answered, and ${net.platform} was disconnected since, so the post could not be looked for`);
    decision = { read_back: 'unsupported', action: 'left_unknown' };
  } else if (!adapter.readBack) {
    result = unknown(`The sending worker stopped before ${net.platform} answered, and ${net.platform} cannot be read back to check whether the post appeared`);
    decision = { read_back: 'unsupported', action: 'left_unknown' };
  } else {
    const content = contentFor(post.payload, net.platform, post.id);
    const seen = await readBack(deps, post, connection, adapter, content, { since: stale.claimed_at!, until: now });
    if (seen.state === 'found') {
      result = published(net.platform, { ok: true, status: 'published', id: seen.id, url: seen.url });
      decision = { read_back: 'found', action: 'settled' };
    } else if (seen.state === 'unreadable') {
      result = unknown(`The sending worker stopped before ${net.platform} answered, and reading ${net.platform} back failed: ${seen.reason}`);
      decision = { read_back: 'unreadable', action: 'left_unknown', reason: seen.reason };
    } else if ((net.reconciles ?? 1) > 1) {
      result = unknown(`The post was not found on ${net.platform} after it was sent again once; it is not sent a third time`);
      decision = { read_back: 'absent', action: 'left_unknown' };
    } else {
      outcome = await withSignIn(deps, post, connection, (credentials) => sendWithRetries(deps, net.platform, adapter.publish.bind(adapter), content, credentials, now + OWN_WAIT_BUDGET_MS));
      if (outcome.ok && outcome.status === 'processing' && outcome.resume) {
        await continueProcessing(deps, post, net, published(net.platform, outcome), outcome.resume.state, outcome.resume.after_seconds);
        return;
      }
      result = outcome.ok ? published(net.platform, outcome) : fromFailure(net.platform, outcome);
      decision = { read_back: 'absent', action: 'resent' };
    }
  }
  log.warn('stale claim reconciled', { post_id: post.id, platform: net.platform, ...decision, status: result.status });
  await finish(deps, post, net, connection, result, outcome, decision);
}

/** One read-back with fresh credentials; a failure to read (sign-in, network, a throw) is `unreadable`, never absent. */
async function readBack(deps: FreshCredentialsDeps, post: PostRecord, connection: Connection, adapter: NetworkAdapter, content: ReturnType<typeof contentFor>, window: { since: number; until: number }): Promise<ReadBackOutcome> {
  const fresh = await freshCredentials(deps, connection, { post });
  if (!fresh.ok) return { state: 'unreadable', reason: fresh.failure.error };
  try {
    return await adapter.readBack!(content, {
      text: content.text, ...(content.title ? { title: content.title } : {}),
      // from a minute before the claim (clocks differ) to now
      since: window.since - 60_000, until: window.until, marker: content.send_key,
    }, networkContext(deps, fresh.credentials));
  } catch (err) {
    log.warn('read-back failed', { post_id: post.id, platform: adapter.name, ...errorFields(err) });
    return { state: 'unreadable', reason: (err as Error)?.message ?? String(err) };
  }
}

export type { Failure, Connection };

import type { Deps } from '../deps';
import { brandRef } from '../../domain/event-refs';
import type { Account } from '../../ports/store';
import type { ApprovalRecord, ApprovalRule, DecidedBy } from '../../ports/approvals';
import type { PlatformName } from '../../domain/platforms';
import { AppError, ConflictError, GoneError, NotFoundError } from '../../domain/errors';
import { isId, newId } from '../../domain/ids';
import { sha256Hex } from '../../domain/api-key';
import { PLANS } from '../../domain/plans';
import { planFeature } from '../guardrails/guardrails';
import { log } from '../../log';
import { publishApprovedPost, type PublishApprovedDeps } from '../publish/create-post';
import type { HoldForApprovalDeps } from '../approval-hold';
import { APPROVAL_TTL_SECONDS, CLIENT_LINK_TTL_SECONDS, LINK_TOKEN, approvalView, escapeText, expiryTimerName, issueReviewLink } from '../approval-hold';
import { recordEvent } from '../webhooks/record-event';
import { recordNotPublished } from './not-published';
import { releaseLock } from '../idempotency';
import { FORMAT_VERSION } from '../../ports/format-version';

export { APPROVAL_TTL_SECONDS, CLIENT_LINK_TTL_SECONDS, approvalView, expiryTimerName };

/** What deciding an approval reaches: the approval, publishing the held post (or giving back its lock and schedule). */
/** A decision publishes an approved post (never held again: no mailer of the hold's) and records the outcome. */
export type DecideApprovalDeps = PublishApprovedDeps & Omit<HoldForApprovalDeps, 'mailer'> & Pick<Deps, 'accounts' | 'schedules'>;


async function owned(deps: Pick<Deps, 'approvals'>, accountId: string, id: string) {
  const a = isId('apr', id) ? await deps.approvals.get(id) : undefined;
  if (!a || a.account_id !== accountId) throw new NotFoundError('No such approval', { code: 'approval_not_found' });
  return a;
}

/** GET /api/approvals (read-only for keys): newest first, optionally one status. */
export async function listApprovals(deps: Pick<Deps, 'approvals'>, accountId: string, q: { status?: ApprovalRecord['status']; limit?: number; before?: string }) {
  const limit = q.limit ?? 50;
  const items = await deps.approvals.list(accountId, { status: q.status, limit, before: q.before });
  return { approvals: items.map(approvalView), next_before: items.length === limit ? items[items.length - 1].id : null };
}

export async function getApproval(deps: Pick<Deps, 'approvals'>, accountId: string, id: string) {
  return approvalView(await owned(deps, accountId, id));
}

type ClientLinkDeps = Pick<Deps, 'approvals' | 'tokens' | 'settings' | 'clock'>;
/** A client approver's review link; `emailed_to` when it was also emailed. */
export interface ClientLink { url: string; approval_id: string; expires_at: string; emailed_to?: string }

/**
 * A signed single-use link for a client approver, 72 hours (Pro and above). Only the signed-in owner asks for one
 * (the routes are dashboard-session only: a key or AI app never gets a link that approves its own post). With
 * `clientEmail` the link is also emailed to the client.
 */
export async function createClientLink(deps: ClientLinkDeps, account: Account, id: string): Promise<ClientLink>;
export async function createClientLink(deps: ClientLinkDeps & Pick<Deps, 'mailer'>, account: Account, id: string, clientEmail?: string): Promise<ClientLink>;
export async function createClientLink(deps: ClientLinkDeps & Partial<Pick<Deps, 'mailer'>>, account: Account, id: string, clientEmail?: string): Promise<ClientLink> {
  if (!PLANS[account.plan].client_approver_link) throw planFeature(deps, 'The client approver link', 'pro');
  const a = await owned(deps, account.id, id);
  if (a.status !== 'pending') throw new ConflictError(`This post was already ${a.status}`, { code: 'approval_decided', details: { status: a.status } });
  const expires = Math.floor(deps.clock.now() / 1000) + CLIENT_LINK_TTL_SECONDS;
  const url = await issueReviewLink(deps, a, 'client', expires);
  if (clientEmail) {
    const view = approvalView(a);
    // the overloads give a mailer to every caller that passes an email
    await deps.mailer!.send({
      to: clientEmail,
      subject: `Please review a post for ${a.brand_name}`,
      text: `You were asked to approve a post for ${a.brand_name} to ${a.platforms.join(', ')} before it is published:\n\n${view.text_preview}\n\n` +
        `Approve or reject it within 72 hours; the link works once:\n${url}\n`,
      html: `<p>You were asked to approve a post for <b>${escapeText(a.brand_name)}</b> to ${escapeText(a.platforms.join(', '))} before it is published:</p>` +
        `<blockquote>${escapeText(view.text_preview)}</blockquote><p><a href="${url}">Review it</a> within 72 hours. The link works once.</p>`,
      links: [url],
    });
  }
  return { url, approval_id: a.id, expires_at: new Date(expires * 1000).toISOString(), ...(clientEmail ? { emailed_to: clientEmail } : {}) };
}

/** Opens a review link without using it: the approval and who decides (404 unknown token, 410 used/expired/decided). */
export async function openReviewLink(deps: Pick<Deps, 'tokens' | 'approvals' | 'clock'>, token: string) {
  const t = await deps.tokens.peek(LINK_TOKEN, sha256Hex(token));
  if (!t) throw new NotFoundError('This review link is not valid', { code: 'link_not_found' });
  if (t.used_at !== undefined) throw new GoneError('This review link was used already', { code: 'link_used' });
  if (t.expires_at * 1000 <= deps.clock.now()) throw new GoneError('This review link has expired', { code: 'link_expired' });
  const a = await deps.approvals.get(t.data.approval_id);
  if (!a) throw new NotFoundError('This review link is not valid', { code: 'link_not_found' });
  if (a.status !== 'pending' || a.expires_at * 1000 <= deps.clock.now()) throw new GoneError(`This post was already ${a.status === 'pending' ? 'expired' : a.status}`, { code: 'approval_decided' });
  return { approval: a, role: t.data.role as 'owner' | 'client' };
}

/** POSTs the review link's decision: uses the link once, then decides as its owner or client approver. */
export async function decideWithLink(deps: DecideApprovalDeps, token: string, decision: 'approve' | 'reject', note?: string) {
  const { approval, role } = await openReviewLink(deps, token);
  const used = await deps.tokens.consume(LINK_TOKEN, sha256Hex(token), deps.clock.now());
  if (!used.ok) throw new GoneError('This review link was used already', { code: 'link_used' });
  return decide(deps, approval, decision === 'approve' ? 'approved' : 'rejected', role, note);
}

/** The owner decides from the dashboard. */
export async function decideAsOwner(deps: DecideApprovalDeps, account: Account, id: string, decision: 'approve' | 'reject', note?: string) {
  return decide(deps, await owned(deps, account.id, id), decision === 'approve' ? 'approved' : 'rejected', 'owner', note);
}

/** The expiry alarm fired: a pending approval 7 days old expires (nothing sent, the lock released). */
export async function expireApproval(deps: DecideApprovalDeps, id: string) {
  const a = await deps.approvals.get(id);
  if (!a || a.status !== 'pending') return;
  if (a.expires_at * 1000 > deps.clock.now()) {
    await deps.scheduler.scheduleOnce({ name: expiryTimerName(a.id), runAt: new Date(a.expires_at * 1000), input: { v: FORMAT_VERSION, kind: 'approval-expiry', approval_id: a.id } });
    return;
  }
  await decide(deps, a, 'expired', 'expiry').catch((err) => { if (!(err instanceof AppError)) throw err; });
}

/**
 * One decision, exactly once (conditional write from pending; racing deciders lose with 409 approval_decided):
 * 1. approved → publish through the same path as POST /api/post with the original source, idempotency key, brand
 *    and actor, under the reserved post id (not waiting for the networks); a refusal of the whole post (a cap
 *    reached meanwhile, the brand gone) is recorded on the approval and stored as the post's failed networks, each
 *    with post.failed (never dropped);
 * 2. rejected or expired → nothing is sent; the idempotency lock is released; a held scheduled run fails.
 * 3. approval.decided {approval_id, decision, decided_by, note, post_id}.
 */
async function decide(deps: DecideApprovalDeps, a: ApprovalRecord, status: 'approved' | 'rejected' | 'expired', by: DecidedBy, note?: string) {
  const now = deps.clock.now();
  const decided = await deps.approvals.decide(a.id, { status, decided_by: by, note: note?.trim() || undefined, decided_at: new Date(now).toISOString() }, now);
  if (!decided) {
    const current = await deps.approvals.get(a.id);
    const state = current?.status === 'pending' ? 'expired' : current?.status;
    throw new ConflictError(`This post was already ${state}`, { code: 'approval_decided', details: { status: state } });
  }
  if (by !== 'expiry') await deps.scheduler.cancel(expiryTimerName(a.id)).catch((err) => log.warn('approval expiry alarm not removed', { approval_id: a.id, error: String(err) }));
  await recordEvent(deps, {
    id: newId('evt', now), type: 'approval.decided', created_at: new Date(now).toISOString(), account_id: a.account_id,
    data: { approval_id: a.id, decision: status, decided_by: by, note: decided.note ?? null, post_id: a.post_id, brand_id: a.brand_id, brand: brandRef(a.brand_id, a.brand_name) },
  });
  if (status === 'approved') await publishApproved(deps, decided);
  else await giveUp(deps, decided, status);
  return approvalView((await deps.approvals.get(a.id))!);
}

async function publishApproved(deps: DecideApprovalDeps, a: ApprovalRecord) {
  const account = await deps.accounts.get(a.account_id);
  try {
    if (!account) throw new NotFoundError('The account no longer exists', { code: 'account_not_found' });
    const res = await publishApprovedPost(deps, account, a.post, { source: a.source, schedule_id: a.schedule_id, wait: false, actor: a.actor, approval: { id: a.id, post_id: a.post_id } });
    // every network refused before sending (not connected, content, a limit): the approver is told, not "publishing"
    const refused = res.results.filter((r) => !r.ok && r.code !== 'timed_out');
    if (refused.length === res.results.length && refused.length > 0) {
      await deps.approvals.setPublishError(a.id, { code: refused[0]!.code!, error: refused.map((r) => `${r.platform}: ${r.error}`).join('; ') });
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await deps.approvals.setPublishError(a.id, { code: err.code, error: err.message });
    await recordNotPublished(deps, a, err);
    await releaseLock(deps, a.lock, a.post_id);
    if (a.schedule_id) await deps.schedules.settle(a.schedule_id, { status: 'failed', error: { code: err.code, error: err.message } }, new Date(deps.clock.now()).toISOString());
  }
}

async function giveUp(deps: Pick<Deps, 'clock' | 'locks' | 'schedules'>, a: ApprovalRecord, status: 'rejected' | 'expired') {
  await releaseLock(deps, a.lock, a.post_id);
  if (a.schedule_id) {
    await deps.schedules.settle(a.schedule_id, { status: 'failed', error: { code: `approval_${status}`, error: `The post was ${status} and not sent` } }, new Date(deps.clock.now()).toISOString());
  }
}

/** Sets the approval rule of the account (`scope: 'account'`) or a brand (paid plans; Free: 402 naming starter). */
export async function setApprovalRule(deps: Pick<Deps, 'approvals' | 'brands' | 'clock' | 'settings'>, account: Account, input: { scope: string; always: boolean; networks: PlatformName[] }) {
  if (!PLANS[account.plan].approvals) throw planFeature(deps, 'Approvals', 'starter');
  if (input.scope !== 'account' && !(await deps.brands.get(account.id, input.scope))) throw new NotFoundError('No such brand', { code: 'brand_not_found' });
  const rule: ApprovalRule = { account_id: account.id, scope: input.scope, always: input.always, networks: [...new Set(input.networks)], updated_at: new Date(deps.clock.now()).toISOString() };
  await deps.approvals.putRule(rule);
  return rule;
}

/** The dashboard's Approvals page: the queue, the 20 latest decisions, the rules and the brands. */
export async function approvalsPage(deps: Pick<Deps, 'approvals' | 'brands'>, account: Account) {
  const [pending, recent, rules, brands] = await Promise.all([
    deps.approvals.list(account.id, { status: 'pending', limit: 100 }),
    deps.approvals.list(account.id, { limit: 40 }),
    deps.approvals.getRules(account.id),
    deps.brands.list(account.id),
  ]);
  return {
    pending: pending.map(approvalView), decided: recent.filter((a) => a.status !== 'pending').slice(0, 20).map(approvalView),
    rules, brands, canApprove: PLANS[account.plan].approvals, canSendToClient: PLANS[account.plan].client_approver_link,
  };
}

import type { Deps } from '../deps';
import type { Account, Brand } from '../../ports/store';
import type { ApprovalRecord, ApprovalRule, DecidedBy } from '../../ports/approvals';
import type { Guardrails } from '../../ports/guardrails';
import type { PlatformName } from '../../domain/platforms';
import type { NetworkResult } from '../../domain/post';
import type { ValidPost } from '../publish/request';
import type { PublishOptions } from '../publish/create-post';
import { AppError, ConflictError, GoneError, NotFoundError } from '../../domain/errors';
import { isId, newId, randomToken } from '../../domain/ids';
import { sha256Hex } from '../../domain/api-key';
import { PLANS } from '../../domain/plans';
import { planFeature } from '../guardrails/guardrails';
import { log } from '../../log';
import { publishPost } from '../publish/create-post';

/** decisions.md: a held post not decided in 7 days expires. */
export const APPROVAL_TTL_SECONDS = 7 * 86_400;
/** A client approver's link works for 72 hours, once. */
export const CLIENT_LINK_TTL_SECONDS = 72 * 3600;
const LINK_TOKEN = 'approval-link';
export const expiryTimerName = (approvalId: string) => `a-${approvalId}`;

const textPreview = (post: ValidPost) => {
  const text = post.payload.text ?? Object.values(post.payload.per_platform ?? {}).find((d) => d?.text)?.text ?? '';
  return text.length > 280 ? `${text.slice(0, 279)}…` : text;
};

/** The public view of a held post (GET /api/approvals, the dashboard). */
export function approvalView(a: ApprovalRecord) {
  return {
    approval_id: a.id, post_id: a.post_id, status: a.status, reason: a.reason, brand_id: a.brand_id, brand: a.brand_name,
    platforms: a.platforms, text_preview: textPreview(a.post), source: a.source, ...(a.schedule_id ? { schedule_id: a.schedule_id } : {}),
    requested_by: a.requested_by, created_at: a.created_at, expires_at: new Date(a.expires_at * 1000).toISOString(),
    decided_at: a.decided_at ?? null, decided_by: a.decided_by ?? null, note: a.note ?? null,
    ...(a.publish_error ? { publish_error: a.publish_error } : {}),
  };
}

/**
 * Whether a post must wait for approval (spec §5.7): the actor's always_require_approval guardrail, or an approval
 * rule of the account or of the post's brand (always, or for listed networks). Rules bite on paid plans only.
 */
export async function holdReason(deps: Pick<Deps, 'approvals'>, account: Account, brandId: string, platforms: PlatformName[], guard: Guardrails | undefined): Promise<ApprovalRecord['reason'] | undefined> {
  if (platforms.length === 0) return undefined;
  if (guard?.always_require_approval) return 'guardrail';
  if (!PLANS[account.plan].approvals) return undefined;
  const rules = (await deps.approvals.getRules(account.id)).filter((r) => r.scope === 'account' || r.scope === brandId);
  if (rules.some((r) => r.always)) return 'always';
  if (rules.some((r) => r.networks.some((n) => platforms.includes(n)))) return 'networks';
  return undefined;
}

/**
 * Holds a post for approval (answer 202): nothing is sent or spent; the idempotency lock (already taken) stays.
 * 1. Store the approval with the post as checked, expiring in 7 days, and arm its expiry alarm.
 * 2. Email the owner a single-use review link (GET shows the post, POST decides).
 * 3. Record approval.requested (payload in docs/webhooks.md).
 */
export async function holdForApproval(deps: Deps, input: {
  account: Account; brand: Brand; postId: string; valid: ValidPost; platforms: PlatformName[]; reason: ApprovalRecord['reason'];
  opts: PublishOptions; lock?: string; refused: NetworkResult[]; now: number;
}) {
  const { account, brand, now } = input;
  const requestedBy = input.opts.actor?.kind === 'key' ? (await deps.keys.listByAccount(account.id)).find((k) => k.id === input.opts.actor!.id)?.prefix ?? null : input.opts.actor?.id ?? null;
  const approval: ApprovalRecord = {
    id: newId('apr', now), account_id: account.id, brand_id: brand.id, brand_name: brand.name, post_id: input.postId, status: 'pending',
    reason: input.reason, post: input.valid, platforms: input.platforms, source: input.opts.source,
    ...(input.opts.schedule_id ? { schedule_id: input.opts.schedule_id } : {}), ...(input.opts.actor ? { actor: input.opts.actor } : {}),
    requested_by: requestedBy, ...(input.lock ? { lock: input.lock } : {}),
    created_at: new Date(now).toISOString(), expires_at: Math.floor(now / 1000) + APPROVAL_TTL_SECONDS,
  };
  await deps.approvals.create(approval);
  await deps.scheduler.scheduleOnce({ name: expiryTimerName(approval.id), runAt: new Date(approval.expires_at * 1000), input: { kind: 'approval-expiry', approval_id: approval.id } });
  const link = await issueReviewLink(deps, approval, 'owner', approval.expires_at);
  const view = approvalView(approval);
  await deps.mailer.send({
    to: account.email,
    subject: `A post for ${brand.name} is waiting for your approval`,
    text: `A post for ${brand.name} to ${input.platforms.join(', ')} waits for your approval:\n\n${view.text_preview}\n\n` +
      `Review it (approve or reject) within 7 days; the link works once:\n${link}\n`,
    html: `<p>A post for <b>${escape(brand.name)}</b> to ${escape(input.platforms.join(', '))} waits for your approval:</p><blockquote>${escape(view.text_preview)}</blockquote>` +
      `<p><a href="${link}">Review it</a> (approve or reject) within 7 days. The link works once.</p>`,
    links: [link],
  });
  await deps.events.record({
    id: newId('evt', now), type: 'approval.requested', created_at: new Date(now).toISOString(), account_id: account.id,
    data: {
      approval_id: approval.id, post_id: approval.post_id, brand_id: brand.id, brand: { id: brand.id, name: brand.name }, networks: input.platforms,
      text_preview: view.text_preview, requested_by: requestedBy, reason: approval.reason, source: approval.source, expires_at: view.expires_at,
      review_url: `${deps.settings.publicBaseUrl}/dashboard/approvals#${approval.id}`,
    },
  });
  const held = input.platforms.map((platform): NetworkResult => ({ platform, ok: true, status: 'pending_approval' }));
  const results = input.valid.platforms.map((p) => input.refused.find((r) => r.platform === p) ?? held.find((r) => r.platform === p)!);
  return { status: 'pending_approval' as const, approval_id: approval.id, post_id: approval.post_id, brand_id: brand.id, results };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A single-use review link (owner or client approver): a random token stored hashed, with its expiry. */
async function issueReviewLink(deps: Pick<Deps, 'tokens' | 'settings'>, a: ApprovalRecord, role: 'owner' | 'client', expiresAtSec: number) {
  const token = randomToken();
  await deps.tokens.put({ kind: LINK_TOKEN, hash: sha256Hex(token), account_id: a.account_id, data: { approval_id: a.id, role }, expires_at: expiresAtSec });
  return `${deps.settings.publicBaseUrl}/review/${token}`;
}

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

/** POST /api/approvals/{id}/client-link (Pro and above): a signed single-use link for a client approver, 72 hours. */
export async function createClientLink(deps: Pick<Deps, 'approvals' | 'tokens' | 'settings' | 'clock'>, account: Account, id: string) {
  if (!PLANS[account.plan].client_approver_link) throw planFeature(deps, 'The client approver link', 'pro');
  const a = await owned(deps, account.id, id);
  if (a.status !== 'pending') throw new ConflictError(`This post was already ${a.status}`, { code: 'approval_decided', details: { status: a.status } });
  const expires = Math.floor(deps.clock.now() / 1000) + CLIENT_LINK_TTL_SECONDS;
  const url = await issueReviewLink(deps, a, 'client', expires);
  return { url, approval_id: a.id, expires_at: new Date(expires * 1000).toISOString() };
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
export async function decideWithLink(deps: Deps, token: string, decision: 'approve' | 'reject', note?: string) {
  const { approval, role } = await openReviewLink(deps, token);
  const used = await deps.tokens.consume(LINK_TOKEN, sha256Hex(token), deps.clock.now());
  if (!used.ok) throw new GoneError('This review link was used already', { code: 'link_used' });
  return decide(deps, approval, decision === 'approve' ? 'approved' : 'rejected', role, note);
}

/** The owner decides from the dashboard. */
export async function decideAsOwner(deps: Deps, account: Account, id: string, decision: 'approve' | 'reject', note?: string) {
  return decide(deps, await owned(deps, account.id, id), decision === 'approve' ? 'approved' : 'rejected', 'owner', note);
}

/** The expiry alarm fired: a pending approval 7 days old expires (nothing sent, the lock released). */
export async function expireApproval(deps: Deps, id: string) {
  const a = await deps.approvals.get(id);
  if (!a || a.status !== 'pending') return;
  if (a.expires_at * 1000 > deps.clock.now()) {
    await deps.scheduler.scheduleOnce({ name: expiryTimerName(a.id), runAt: new Date(a.expires_at * 1000), input: { kind: 'approval-expiry', approval_id: a.id } });
    return;
  }
  await decide(deps, a, 'expired', 'expiry').catch((err) => { if (!(err instanceof AppError)) throw err; });
}

/**
 * One decision, exactly once (conditional write from pending; racing deciders lose with 409 approval_decided):
 * 1. approved → publish through the same path as POST /api/post with the original source, idempotency key, brand
 *    and actor, under the reserved post id (not waiting for the networks);
 * 2. rejected or expired → nothing is sent; the idempotency lock is released; a held scheduled run fails.
 * 3. approval.decided {approval_id, decision, decided_by, note, post_id}.
 */
async function decide(deps: Deps, a: ApprovalRecord, status: 'approved' | 'rejected' | 'expired', by: DecidedBy, note?: string) {
  const now = deps.clock.now();
  const decided = await deps.approvals.decide(a.id, { status, decided_by: by, note: note?.trim() || undefined, decided_at: new Date(now).toISOString() }, now);
  if (!decided) {
    const current = await deps.approvals.get(a.id);
    const state = current?.status === 'pending' ? 'expired' : current?.status;
    throw new ConflictError(`This post was already ${state}`, { code: 'approval_decided', details: { status: state } });
  }
  if (by !== 'expiry') await deps.scheduler.cancel(expiryTimerName(a.id)).catch((err) => log.warn('approval expiry alarm not removed', { approval_id: a.id, error: String(err) }));
  await deps.events.record({
    id: newId('evt', now), type: 'approval.decided', created_at: new Date(now).toISOString(), account_id: a.account_id,
    data: { approval_id: a.id, decision: status, decided_by: by, note: decided.note ?? null, post_id: a.post_id, brand_id: a.brand_id },
  });
  if (status === 'approved') await publishApproved(deps, decided);
  else await giveUp(deps, decided, status);
  return approvalView((await deps.approvals.get(a.id))!);
}

async function publishApproved(deps: Deps, a: ApprovalRecord) {
  const account = await deps.accounts.get(a.account_id);
  try {
    if (!account) throw new NotFoundError('The account no longer exists', { code: 'account_not_found' });
    await publishPost(deps, account, a.post, { source: a.source, schedule_id: a.schedule_id, wait: false, actor: a.actor, approval: { id: a.id, post_id: a.post_id } });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await deps.approvals.setPublishError(a.id, { code: err.code, error: err.message });
    if (a.lock) await deps.locks.release(a.lock, a.post_id);
    if (a.schedule_id) await deps.schedules.settle(a.schedule_id, { status: 'failed', error: { code: err.code, error: err.message } }, new Date(deps.clock.now()).toISOString());
  }
}

async function giveUp(deps: Deps, a: ApprovalRecord, status: 'rejected' | 'expired') {
  if (a.lock) await deps.locks.release(a.lock, a.post_id);
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
    rules, brands, canApprove: PLANS[account.plan].approvals,
  };
}

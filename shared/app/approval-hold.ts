import type { Deps } from './deps';
import type { Account, Brand } from '../ports/store';
import type { ApprovalRecord, ApprovalRule } from '../ports/approvals';
import type { Guardrails } from '../ports/guardrails';
import type { PlatformName } from '../domain/platforms';
import type { NetworkResult, ValidPost } from '../domain/post';
import { newId, randomToken } from '../domain/ids';
import { sha256Hex } from '../domain/api-key';
import { PLANS } from '../domain/plans';
import { recordEvent } from './webhooks/record-event';
import { brandRef } from '../domain/event-refs';
import { FORMAT_VERSION } from '../ports/format-version';

/*
 * Holding a post for approval (spec §5.7): the publish path asks holdReasonFrom (with the account's rules) and calls
 * holdForApproval; deciding (approvals/approvals.ts) publishes through that same path. This module stands below
 * publish and approvals and imports neither.
 */

/** decisions.md: a held post not decided in 7 days expires. */
export const APPROVAL_TTL_SECONDS = 7 * 86_400;
/** A client approver's link works for 72 hours, once. */
export const CLIENT_LINK_TTL_SECONDS = 72 * 3600;
export const LINK_TOKEN = 'approval-link';
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
    requested_by: a.requested_by, requested_by_name: a.requested_by_name ?? null, created_at: a.created_at, expires_at: new Date(a.expires_at * 1000).toISOString(),
    decided_at: a.decided_at ?? null, decided_by: a.decided_by ?? null, note: a.note ?? null,
    ...(a.publish_error ? { publish_error: a.publish_error } : {}),
  };
}

/**
 * Whether a post must wait for approval (spec §5.7): the actor's always_require_approval guardrail, or an approval
 * rule of the account or of the post's brand (always, or for listed networks). Rules bite on paid plans only.
 */
export function holdReasonFrom(accountRules: ApprovalRule[], account: Account, brandId: string, platforms: PlatformName[], guard: Guardrails | undefined): ApprovalRecord['reason'] | undefined {
  if (platforms.length === 0) return undefined;
  if (guard?.always_require_approval) return 'guardrail';
  if (!PLANS[account.plan].approvals) return undefined;
  const rules = accountRules.filter((r) => r.scope === 'account' || r.scope === brandId);
  if (rules.some((r) => r.always)) return 'always';
  if (rules.some((r) => r.networks.some((n) => platforms.includes(n)))) return 'networks';
  return undefined;
}

/** What holding a post reaches: the approval and its expiry alarm, the review link, the owner's email, the event. */
export type HoldForApprovalDeps = Pick<Deps, 'approvals' | 'events' | 'fanOut' | 'keys' | 'mailer' | 'mcpOAuth' | 'scheduler' | 'settings' | 'tokens'>;

/**
 * Holds a post for approval (answer 202): nothing is sent or spent; the idempotency lock (already taken) stays.
 * 1. Store the approval with the post as checked, expiring in 7 days, and arm its expiry alarm.
 * 2. Email the owner a single-use review link (GET shows the post, POST decides).
 * 3. Record approval.requested (payload in docs/webhooks.md).
 */
export async function holdForApproval(deps: HoldForApprovalDeps, input: {
  account: Account; brand: Brand; postId: string; valid: ValidPost; platforms: PlatformName[]; reason: ApprovalRecord['reason'];
  opts: Pick<ApprovalRecord, 'source' | 'schedule_id' | 'actor'>; lock?: string; refused: NetworkResult[]; now: number;
}) {
  const { account, brand, now } = input;
  const actor = input.opts.actor;
  const key = actor?.kind === 'key' ? (await deps.keys.listByAccount(account.id)).find((k) => k.id === actor.id) : undefined;
  const requestedBy = actor?.kind === 'key' ? key?.prefix ?? null : actor?.id ?? null;
  // pages name the key (or AI app) by its name, never by its prefix
  const requestedByName = actor?.kind === 'key' ? key?.name ?? null : actor ? (await deps.mcpOAuth.getApp(account.id, actor.id))?.client_name ?? null : null;
  const approval: ApprovalRecord = {
    id: newId('apr', now), account_id: account.id, brand_id: brand.id, brand_name: brand.name, post_id: input.postId, status: 'pending',
    reason: input.reason, post: input.valid, platforms: input.platforms, source: input.opts.source,
    ...(input.opts.schedule_id ? { schedule_id: input.opts.schedule_id } : {}), ...(input.opts.actor ? { actor: input.opts.actor } : {}),
    requested_by: requestedBy, requested_by_name: requestedByName, ...(input.lock ? { lock: input.lock } : {}),
    created_at: new Date(now).toISOString(), expires_at: Math.floor(now / 1000) + APPROVAL_TTL_SECONDS,
  };
  await deps.approvals.create(approval);
  await deps.scheduler.scheduleOnce({ name: expiryTimerName(approval.id), runAt: new Date(approval.expires_at * 1000), input: { v: FORMAT_VERSION, kind: 'approval-expiry', approval_id: approval.id } });
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
  await recordEvent(deps, {
    id: newId('evt', now), type: 'approval.requested', created_at: new Date(now).toISOString(), account_id: account.id,
    data: {
      approval_id: approval.id, post_id: approval.post_id, brand_id: brand.id, brand: brandRef(brand.id, brand.name), networks: input.platforms,
      text_preview: view.text_preview, requested_by: requestedBy, requested_by_name: requestedByName, reason: approval.reason, source: approval.source, expires_at: view.expires_at,
      review_url: `${deps.settings.publicBaseUrl}/dashboard/approvals#${approval.id}`,
    },
  });
  const held = input.platforms.map((platform): NetworkResult => ({ platform, ok: true, status: 'pending_approval' }));
  const results = input.valid.platforms.map((p) => input.refused.find((r) => r.platform === p) ?? held.find((r) => r.platform === p)!);
  return { status: 'pending_approval' as const, approval_id: approval.id, post_id: approval.post_id, brand_id: brand.id, results };
}

/** Text made safe inside an email's markup. */
export const escapeText = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const escape = escapeText;

/** A single-use review link (owner or client approver): a random token stored hashed, with its expiry. */
export async function issueReviewLink(deps: Pick<Deps, 'tokens' | 'settings'>, a: ApprovalRecord, role: 'owner' | 'client', expiresAtSec: number) {
  const token = randomToken();
  await deps.tokens.put({ kind: LINK_TOKEN, hash: sha256Hex(token), account_id: a.account_id, data: { approval_id: a.id, role }, expires_at: expiresAtSec });
  return `${deps.settings.publicBaseUrl}/review/${token}`;
}

import type { approvalView } from '../../app/approvals/approvals';
import type { ApprovalRule } from '../../ports/approvals';
import type { Brand } from '../../ports/store';
import { PLATFORM_NAMES } from '../../domain/platforms';
import { escapeHtml as e } from '../reply';
import { networkName } from '../network-icons';

/** A post's networks, each with its icon, comma-separated. */
const names = (platforms: readonly string[]) => platforms.map((p) => networkName(p)).join(', ');
import { csrfField, notice, plainPage, type Mark } from './layout';

/** The Approvals page, the review-link page (owner or client approver) and its outcome pages. */

type View = ReturnType<typeof approvalView>;

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '');

function postSummary(a: View): string {
  return `<dl><dt>Brand</dt><dd>${e(a.brand)}</dd><dt>Networks</dt><dd>${names(a.platforms)}</dd>` +
    `<dt>Requested by</dt><dd>${e(a.requested_by_name ?? a.requested_by ?? 'the account owner')} (${e(a.source)})</dd><dt>Waits until</dt><dd>${e(when(a.expires_at))}</dd></dl>` +
    `<blockquote class="card">${e(a.text_preview || '(media only)')}</blockquote>`;
}

function decisionForm(action: string, a: View, hidden: string): string {
  const noteId = `note-${a.approval_id}`;
  return `<form method="post" action="${e(action)}">${hidden}<label for="${noteId}">Note (optional, shown with the decision)</label>` +
    `<textarea id="${noteId}" name="note" rows="2" maxlength="1000"></textarea><div>` +
    `<button type="submit" name="decision" value="approve">Approve and publish</button> ` +
    `<button type="submit" name="decision" value="reject" class="danger">Reject</button></div></form>`;
}

/** The "Send to client" form of a held post (Pro and above): a single-use review link, optionally emailed. */
function clientLinkForm(a: View, csrf: string): string {
  const id = `client-${a.approval_id}`;
  return `<form method="post" action="/dashboard/approvals/${e(a.approval_id)}/client-link" class="inline-form">${csrfField(csrf)}` +
    `<label for="${id}">Client’s email (optional: the link is shown to you either way)</label><input id="${id}" name="client_email" type="email" autocomplete="off">` +
    `<button type="submit">Send to client</button></form>`;
}

export function approvalsBody(opts: { pending: View[]; decided: View[]; rules: ApprovalRule[]; brands: Brand[]; csrf: string; canApprove: boolean; canSendToClient?: boolean; flash?: { kind: 'ok' | 'error'; text: string } }): string {
  const queue = opts.pending.length
    ? opts.pending.map((a) => `<article class="card" id="${e(a.approval_id)}" aria-labelledby="h-${e(a.approval_id)}"><h3 id="h-${e(a.approval_id)}">Post for ${e(a.brand)} to ${e(a.platforms.join(', '))}</h3>` +
      postSummary(a) + decisionForm(`/dashboard/approvals/${a.approval_id}/decision`, a, csrfField(opts.csrf)) +
      (opts.canSendToClient ? clientLinkForm(a, opts.csrf) : '') + '</article>').join('')
    : '<p>No post is waiting for approval.</p>';
  const decided = opts.decided.length
    ? `<table><caption class="hint">Recent decisions</caption><thead><tr><th scope="col">Post</th><th scope="col">Networks</th><th scope="col">Decision</th><th scope="col">By</th><th scope="col">Note</th></tr></thead><tbody>` +
      opts.decided.map((a) => `<tr id="${e(a.approval_id)}"><td>${e(a.text_preview.slice(0, 80))}</td><td>${names(a.platforms)}</td><td>${e(a.status)}${a.publish_error ? ` (not published: ${e(a.publish_error.error)}; <a href="/dashboard/posts/${e(a.post_id)}">the post</a>)` : ''}</td><td>${e(a.decided_by ?? '')}</td><td>${e(a.note ?? '')}</td></tr>`).join('') +
      '</tbody></table>'
    : '';
  const ruleOf = (scope: string) => opts.rules.find((r) => r.scope === scope);
  const ruleForm = (scope: string, label: string) => {
    const r = ruleOf(scope);
    const id = `rule-${scope}`;
    return `<form method="post" action="/dashboard/approvals/rules" class="card">${csrfField(opts.csrf)}<input type="hidden" name="scope" value="${e(scope)}">` +
      `<fieldset><legend>${e(label)}</legend><label><input type="checkbox" name="always" value="on"${r?.always ? ' checked' : ''}> Hold every post</label>` +
      `<p class="hint" id="${id}-hint">Or hold posts that include any of these networks:</p><div role="group" aria-describedby="${id}-hint">` +
      PLATFORM_NAMES.map((p) => `<label class="inline"><input type="checkbox" name="networks" value="${p}"${r?.networks.includes(p) ? ' checked' : ''}> ${p}</label> `).join('') +
      `</div><button type="submit">Save rule</button></fieldset></form>`;
  };
  const rules = opts.canApprove
    ? `<p class="hint">Posts from API keys whose guardrails say “always require approval” are always held.</p>${ruleForm('account', 'Every brand of the account')}` +
      opts.brands.map((b) => ruleForm(b.id, `Brand ${b.name}`)).join('')
    : '<p>Approval rules are part of every paid plan. <a href="/dashboard/plan?plan=starter">See plans</a>.</p>';
  return `<h1>Approvals</h1>${opts.flash ? notice(opts.flash.kind, opts.flash.text) : ''}<h2>Waiting for a decision</h2>${queue}${decided}<h2>Approval rules</h2>${rules}`;
}

export function reviewPage(a: View, token: string, role: 'owner' | 'client', mark?: Mark): string {
  const who = role === 'client' ? 'You were asked to approve this post before it is published.' : 'This post waits for your approval.';
  return plainPage({
    title: 'Review a post', mark,
    body: `<h1>Review a post for ${e(a.brand)}</h1><p>${who} Nothing is published unless you approve it. This link works once.</p>` +
      postSummary(a) + decisionForm(`/review/${token}`, a, ''),
  });
}

/** What an approval did, in plain words: published, not published (and why), or rejected. */
export function decisionOutcome(a: View): { kind: 'ok' | 'error'; text: string } {
  if (a.status !== 'approved') return { kind: 'ok', text: 'Rejected: nothing was published.' };
  if (a.publish_error) return { kind: 'error', text: `Approved, but the post could not be published: ${a.publish_error.error}` };
  return { kind: 'ok', text: 'Approved: the post is being published now.' };
}

export function reviewDonePage(a: View, mark?: Mark): string {
  const outcome = decisionOutcome(a);
  return plainPage({ title: outcome.kind === 'ok' ? 'Thank you' : 'Approved, not published', mark, body: `<h1>${outcome.kind === 'ok' ? 'Thank you' : 'Approved, but not published'}</h1>${notice(outcome.kind, outcome.text)}` });
}

/** The owner's page after "Send to client": the link to pass on (and whether it was emailed). */
export function clientLinkSentBody(a: { url: string; expires_at: string; emailed_to?: string }): string {
  return `<h1>Send to client</h1>${notice('ok', a.emailed_to ? `The review link was emailed to ${a.emailed_to}.` : 'The review link is ready.')}` +
    `<p>Give this link to your client. It works once, until ${e(when(a.expires_at))}, and needs no account:</p>` +
    `<p><label for="client-link">Review link</label><input id="client-link" type="text" readonly value="${e(a.url)}"></p>` +
    `<p><a href="${e(a.url)}">${e(a.url)}</a></p><p><a href="/dashboard/approvals">Back to approvals</a></p>`;
}

export function reviewProblemPage(status: number, message: string, mark?: Mark): string {
  const title = status === 410 ? 'This link can no longer be used' : 'This link does not work';
  return plainPage({ title, mark, body: `<h1>${e(title)}</h1><p role="alert">${e(message)}</p><p>Nothing was changed.</p>` });
}

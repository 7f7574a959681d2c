import type { approvalView } from '../../app/approvals/approvals';
import type { ApprovalRule } from '../../ports/approvals';
import type { Brand } from '../../ports/store';
import { PLATFORM_NAMES } from '../../domain/platforms';
import { escapeHtml as e } from '../reply';
import { csrfField, notice, plainPage, type Mark } from './layout';

/** The Approvals page, the review-link page (owner or client approver) and its outcome pages (issue 16). */

type View = ReturnType<typeof approvalView>;

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '');

function postSummary(a: View): string {
  return `<dl><dt>Brand</dt><dd>${e(a.brand)}</dd><dt>Networks</dt><dd>${e(a.platforms.join(', '))}</dd>` +
    `<dt>Requested by</dt><dd>${e(a.requested_by ?? 'unknown')} (${e(a.source)})</dd><dt>Waits until</dt><dd>${e(when(a.expires_at))}</dd></dl>` +
    `<blockquote class="card">${e(a.text_preview || '(media only)')}</blockquote>`;
}

function decisionForm(action: string, a: View, hidden: string): string {
  const noteId = `note-${a.approval_id}`;
  return `<form method="post" action="${e(action)}">${hidden}<label for="${noteId}">Note (optional, shown with the decision)</label>` +
    `<textarea id="${noteId}" name="note" rows="2" maxlength="1000"></textarea><div>` +
    `<button type="submit" name="decision" value="approve">Approve and publish</button> ` +
    `<button type="submit" name="decision" value="reject" class="danger">Reject</button></div></form>`;
}

export function approvalsBody(opts: { pending: View[]; decided: View[]; rules: ApprovalRule[]; brands: Brand[]; csrf: string; canApprove: boolean; flash?: { kind: 'ok' | 'error'; text: string } }): string {
  const queue = opts.pending.length
    ? opts.pending.map((a) => `<article class="card" id="${e(a.approval_id)}" aria-labelledby="h-${e(a.approval_id)}"><h3 id="h-${e(a.approval_id)}">Post for ${e(a.brand)} to ${e(a.platforms.join(', '))}</h3>` +
      postSummary(a) + decisionForm(`/dashboard/approvals/${a.approval_id}/decision`, a, csrfField(opts.csrf)) + '</article>').join('')
    : '<p>No post is waiting for approval.</p>';
  const decided = opts.decided.length
    ? `<table><caption class="hint">Recent decisions</caption><thead><tr><th scope="col">Post</th><th scope="col">Networks</th><th scope="col">Decision</th><th scope="col">By</th><th scope="col">Note</th></tr></thead><tbody>` +
      opts.decided.map((a) => `<tr id="${e(a.approval_id)}"><td>${e(a.text_preview.slice(0, 80))}</td><td>${e(a.platforms.join(', '))}</td><td>${e(a.status)}${a.publish_error ? ` (not published: ${e(a.publish_error.error)})` : ''}</td><td>${e(a.decided_by ?? '')}</td><td>${e(a.note ?? '')}</td></tr>`).join('') +
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

export function reviewDonePage(a: View, mark?: Mark): string {
  const text = a.status === 'approved' ? 'Approved: the post is being published now.' : 'Rejected: nothing was published.';
  return plainPage({ title: 'Thank you', mark, body: `<h1>Thank you</h1>${notice('ok', text)}` });
}

export function reviewProblemPage(status: number, message: string, mark?: Mark): string {
  const title = status === 410 ? 'This link can no longer be used' : 'This link does not work';
  return plainPage({ title, mark, body: `<h1>${e(title)}</h1><p role="alert">${e(message)}</p><p>Nothing was changed.</p>` });
}
